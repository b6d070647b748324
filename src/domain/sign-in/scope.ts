// Whom a session speaks for (decision 0035). A session the person made with their own
// credentials (password, the codes of a pending login, a reset or registration link, or a hand-off
// of such a session) is the person's: it may read and change the whole account. A session a
// tenant's identity provider made (`sso_tenant_id`) proves only "this tenant's IdP says so", and
// that tenant's admin controls the IdP: it speaks for that tenant alone. It sees and acts on that
// tenant's membership and sessions, never on the person's other tenants, sessions elsewhere,
// credentials (password, two-factor, remembered devices) or invitations (`sign-in-required`).
// The scope is decided once, where a session is admitted (routes/middleware/session.ts); the
// API enforces it for every call the catalog marks `person` (routes/openapi/catalog.ts).
import { and, eq, type SQL } from 'drizzle-orm';
import { sessions, type Session } from '../../db/schema';
import { AppError } from '../errors';
import type { Membership } from '../tenants/memberships';

export type SessionScope = { readonly kind: 'person' } | { readonly kind: 'tenant'; readonly tenantId: number };

const PERSON: SessionScope = { kind: 'person' };

export function sessionScope(s: Pick<Session, 'ssoTenantId'>): SessionScope {
  return s.ssoTenantId === null ? PERSON : { kind: 'tenant', tenantId: s.ssoTenantId };
}

/** The memberships a session of this scope may see: all of them, or its tenant's alone. */
export function scopedMemberships(scope: SessionScope, memberships: Membership[]): Membership[] {
  return scope.kind === 'person' ? memberships : memberships.filter((m) => m.tenant.id === scope.tenantId);
}

/** Account-wide reads and changes: the person's own sign-in only. */
export function assertPersonScope(scope: SessionScope): void {
  if (scope.kind !== 'person') throw new AppError('sign-in-required');
}

/** The sessions of `userId` this scope may list and end: all, or those on its tenant's host. */
export function sessionsInScope(scope: SessionScope, userId: number): SQL {
  return scope.kind === 'person' ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), eq(sessions.tenantId, scope.tenantId))!;
}
