// Invitations of an existing account into another tenant (decision 0027): a tenant admin who adds
// an address that is already someone's account only invites it; the person accepts or declines
// here, signed in with their own credentials. Accepting is one compare-and-set (once, even under
// parallel requests); declining removes the pending row.
import { and, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { tenantUsers, type Session, type User } from '../../db/schema';
import { audit } from '../audit/log';
import { AppError } from '../errors';
import { invitationsRead, listInvitations } from '../tenants/memberships';

export { invitationsRead, listInvitations };

const pendingRow = (userId: number, tenantId: number) =>
  and(eq(tenantUsers.userId, userId), eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.invitationPending, true), isNull(tenantUsers.operationStatus));

/** An IdP's session speaks for its own tenant only: joining another is the person's own decision. */
function assertOwnCredentials(session: Session) {
  if (session.ssoTenantId !== null) throw new AppError('sign-in-required');
}

export async function acceptInvitation(deps: Deps, user: User, session: Session, tenantId: number, ip: string | null): Promise<void> {
  assertOwnCredentials(session);
  const now = deps.clock.now();
  const done = await deps.db.update(tenantUsers).set({ invitationPending: false, updatedAt: now }).where(pendingRow(user.id, tenantId)).returning({ id: tenantUsers.id });
  if (done.length !== 1) throw new AppError('not-found');
  await audit(deps.db, { tenantId, actorUserId: user.id, action: 'invitation.accepted', targetType: 'user', targetId: user.id, ipAddress: ip }, now);
}

export async function declineInvitation(deps: Deps, user: User, session: Session, tenantId: number, ip: string | null): Promise<void> {
  assertOwnCredentials(session);
  const now = deps.clock.now();
  const done = await deps.db.delete(tenantUsers).where(pendingRow(user.id, tenantId)).returning({ id: tenantUsers.id });
  if (done.length !== 1) throw new AppError('not-found');
  await audit(deps.db, { tenantId, actorUserId: user.id, action: 'invitation.declined', targetType: 'user', targetId: user.id, ipAddress: ip }, now);
}
