// Moving a signed-in user to another host (tenant chosen on the main domain, Switch Organization):
// a one-time code, hashed, bound to the target tenant and to the browser that asked for it (the
// hash of a cookie every portal host receives), valid for one minute. The target host exchanges
// it, re-reads the source session (still live, same person) and goes through completeSignIn like
// every way in; the source cookie never leaves its host.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { handoffCodes, sessions, users, type Session, type Tenant } from '../../db/schema';
import { AppError } from '../errors';
import { randomToken, sha256Hex } from '../security/tokens';
import { activeOnly, listMemberships } from '../tenants/memberships';
import { readTenant } from '../tenants/hosts';
import { absoluteExpiry } from './sessions';
import { completeSignIn, type ClientInfo, type SignInOutcome } from './sign-in';

export const HANDOFF_TTL_MS = 60_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Issues a code for `targetTenantId` if the session's user may enter that tenant from this
 * session. A session an IdP vouched for stays in that IdP's tenant: elsewhere the person signs in
 * on their own (`sign-in-required`).
 */
export async function createHandoff(
  deps: Deps,
  session: Session,
  targetTenantId: number,
  path: string,
  browserToken: string,
): Promise<{ code: string; tenant: Tenant }> {
  const { db, clock } = deps;
  const now = clock.now();
  const user = await db.select().from(users).where(eq(users.id, session.userId)).get();
  if (!user) throw new AppError('unauthenticated', 401);
  const memberships = activeOnly(await listMemberships(db, user.id));
  const target = memberships.find((m) => m.tenant.id === targetTenantId);
  const tenant = target?.tenant;
  // Another tenant's id is indistinguishable from a missing one.
  if (!tenant) throw new AppError('not-found', 404);
  // A member who signs in with SSO there enters only through that tenant's IdP, never with a
  // session made elsewhere (a password login on the main domain must not bypass SSO).
  if (tenant.isSsoEnabled && target.member.isSsoEnabled) throw new AppError('redirect-to-sso', 409, { initial_subdomain: tenant.initialSubdomain });
  if (session.ssoTenantId !== null && session.ssoTenantId !== tenant.id) throw new AppError('sign-in-required', 409, { tenant });
  if (deps.config.HANDOFF_BROWSER_BINDING && !TOKEN.test(browserToken)) throw new AppError('handoff-invalid', 400);
  const code = randomToken(32);
  await db.insert(handoffCodes).values({
    codeHash: sha256Hex(code),
    userId: user.id,
    sourceSessionId: session.id,
    targetTenantId,
    path,
    remember: session.remember,
    twofaPassed: session.twofaPassed,
    authMethod: session.authMethod,
    browserHash: deps.config.HANDOFF_BROWSER_BINDING ? sha256Hex(browserToken) : null,
    expiresAt: now + HANDOFF_TTL_MS,
    createdAt: now,
  });
  return { code, tenant };
}

/**
 * Exchanges a code on the target host: compare-and-set marks it used (a code works once even
 * under concurrent requests) only when this browser's cookie is the one it was issued to. The
 * source session must still be live; then completeSignIn decides as for any way in.
 */
export async function exchangeHandoff(
  deps: Deps,
  p: { code: string; hostTenantId: number; client: ClientInfo; browserToken: string | undefined; deviceToken: string },
): Promise<{ outcome: SignInOutcome; path: string }> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const binding = config.HANDOFF_BROWSER_BINDING;
  if (!TOKEN.test(p.code) || (binding && !(p.browserToken && TOKEN.test(p.browserToken)))) throw new AppError('handoff-invalid', 400);
  const claimed = await db
    .update(handoffCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(handoffCodes.codeHash, sha256Hex(p.code)),
        eq(handoffCodes.targetTenantId, p.hostTenantId),
        binding ? eq(handoffCodes.browserHash, sha256Hex(p.browserToken!)) : undefined,
        isNull(handoffCodes.usedAt),
        gt(handoffCodes.expiresAt, now),
      ),
    )
    .returning()
    .get();
  if (!claimed) throw new AppError('handoff-invalid', 400);
  const source = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, claimed.sourceSessionId), eq(sessions.userId, claimed.userId), gt(sessions.expiresAt, now)))
    .get();
  const policy = { rememberDays: config.SESSION_REMEMBER_DAYS, idleMinutes: config.SESSION_IDLE_MINUTES, maxDays: config.SESSION_MAX_DAYS };
  if (!source || now >= absoluteExpiry(source.remember, source.authenticatedAt ?? source.createdAt, policy)) throw new AppError('handoff-invalid', 400);
  if (source.ssoTenantId !== null && source.ssoTenantId !== p.hostTenantId) throw new AppError('handoff-invalid', 400);
  const user = await db.select().from(users).where(eq(users.id, claimed.userId)).get();
  // The exchange is a signed-out GET, whose host may have come from the per-process cache: the
  // target's policy (enforcement, SSO, allowlist) is read now, after the claim, never from it.
  const hostTenant = await readTenant(db, p.hostTenantId);
  if (!user || !hostTenant) throw new AppError('handoff-invalid', 400);
  const outcome = await completeSignIn(deps, {
    user,
    via: 'handoff',
    hostTenant,
    client: p.client,
    remember: source.remember,
    compliance: null,
    deviceToken: p.deviceToken,
    source,
  });
  return { outcome, path: claimed.path };
}
