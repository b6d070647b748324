// What every way in (password, reset, registration, one-time code, challenge, hand-off) shares:
// may this user enter this host, and the writes that create a signed-in session.
import { and, eq } from 'drizzle-orm';
import type { Deps, Geo } from '../../deps';
import { tenantUsers, whitelistedIps, type Tenant, type User } from '../../db/schema';
import { AppError } from '../errors';
import { auditInsert, audit } from '../audit/log';
import { isAllowed } from '../security/ip-allowlist';
import { activeOnly, type Membership } from '../tenants/memberships';
import { prepareSession, type NewSession } from './sessions';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  geo: Geo | null;
}

export type EntryVerdict = { kind: 'ok' } | { kind: 'sso'; initialSubdomain: string };

/**
 * Membership rules of spec 01 section 8 for entering `hostTenant` (null = main domain): members
 * only (tenant managers may enter any tenant), not deactivated, from an allowed address when the
 * tenant restricts addresses; SSO members are sent to their IdP. Throws the spec's code words.
 */
export async function checkEntry(
  deps: Deps,
  user: User,
  memberships: Membership[],
  hostTenant: Tenant | null,
  client: ClientInfo,
  opts: { viaSso?: boolean } = {},
): Promise<EntryVerdict> {
  const refuse = async (code: 'not-a-member' | 'deactivated' | 'restricted-ip') => {
    await audit(
      deps.db,
      { tenantId: hostTenant?.id ?? null, actorUserId: user.id, action: `login.refused.${code}`, ipAddress: client.ip, userAgent: client.userAgent },
      deps.clock.now(),
    );
    return new AppError(code, 403);
  };
  if (!hostTenant) {
    if (user.isTenantManager) return { kind: 'ok' };
    if (memberships.length === 0) throw await refuse('not-a-member');
    if (activeOnly(memberships).length === 0) throw await refuse('deactivated');
    return { kind: 'ok' };
  }
  const m = memberships.find((x) => x.tenant.id === hostTenant.id);
  if (!m) {
    if (user.isTenantManager) return { kind: 'ok' };
    throw await refuse('not-a-member');
  }
  if (m.member.deactivatedAt !== null) throw await refuse('deactivated');
  // Coming back from the IdP the SSO redirect is done; the address rule still applies.
  if (!opts.viaSso && hostTenant.isSsoEnabled && m.member.isSsoEnabled) return { kind: 'sso', initialSubdomain: hostTenant.initialSubdomain };
  if (hostTenant.isIpRestrictionEnabled) {
    const allow = await deps.db.select().from(whitelistedIps).where(eq(whitelistedIps.tenantId, hostTenant.id));
    if (!isAllowed(client.ip, allow)) throw await refuse('restricted-ip');
  }
  return { kind: 'ok' };
}

export interface SignIn {
  token: string;
  expiresAt: number;
  remember: boolean;
}

/**
 * Creates the session row, the audit entry and the membership's last activity in one batch.
 */
export async function startSession(
  deps: Deps,
  p: { user: User; hostTenant: Tenant | null; remember: boolean; twofaPassed: boolean; authMethod: 'password' | 'sso' | 'handoff'; client: ClientInfo; action: string; saml?: NewSession['saml'] },
): Promise<SignIn> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const tenantId = p.hostTenant?.id ?? null;
  const session = prepareSession(
    db,
    { userId: p.user.id, tenantId, remember: p.remember, twofaPassed: p.twofaPassed, authMethod: p.authMethod, userAgent: p.client.userAgent, ip: p.client.ip, geo: p.client.geo, saml: p.saml },
    now,
    { rememberDays: config.SESSION_REMEMBER_DAYS, idleMinutes: config.SESSION_IDLE_MINUTES },
  );
  const audited = auditInsert(db, { tenantId, actorUserId: p.user.id, action: p.action, ipAddress: p.client.ip, userAgent: p.client.userAgent }, now);
  if (tenantId !== null) {
    await db.batch([
      session.insert,
      audited,
      db.update(tenantUsers).set({ lastActiveAt: now }).where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.userId, p.user.id))),
    ]);
  } else {
    await db.batch([session.insert, audited]);
  }
  return { token: session.token, expiresAt: session.expiresAt, remember: p.remember };
}
