// Moving a signed-in user to another host (tenant chosen on the main domain, Switch Organization):
// a one-time code, hashed, bound to the target tenant, valid for one minute. The target host
// exchanges it for a session row of its own; the source cookie never leaves its host.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { handoffCodes, users, type Session, type Tenant } from '../../db/schema';
import { AppError } from '../errors';
import { randomToken, sha256Hex } from '../security/tokens';
import { activeOnly, listMemberships } from '../tenants/memberships';
import { startSession, type ClientInfo } from './sign-in';

export const HANDOFF_TTL_MS = 60_000;

/** Issues a code for `targetTenantId` if the session's user may enter that tenant. */
export async function createHandoff(
  deps: Deps,
  session: Session,
  targetTenantId: number,
  path: string,
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
    expiresAt: now + HANDOFF_TTL_MS,
    createdAt: now,
  });
  return { code, tenant };
}

/**
 * Exchanges a code on the target host: compare-and-set marks it used, so a code works once even
 * under concurrent requests. Returns the new session token and the path to continue to.
 */
export async function exchangeHandoff(
  deps: Deps,
  code: string,
  hostTenant: Tenant,
  client: ClientInfo,
): Promise<{ token: string; path: string; remember: boolean; expiresAt: number }> {
  const { db, clock } = deps;
  const now = clock.now();
  if (!/^[A-Za-z0-9_-]{43}$/.test(code)) throw new AppError('handoff-invalid', 400);
  const claimed = await db
    .update(handoffCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(handoffCodes.codeHash, sha256Hex(code)),
        eq(handoffCodes.targetTenantId, hostTenant.id),
        isNull(handoffCodes.usedAt),
        gt(handoffCodes.expiresAt, now),
      ),
    )
    .returning()
    .get();
  if (!claimed) throw new AppError('handoff-invalid', 400);
  const memberships = activeOnly(await listMemberships(db, claimed.userId));
  const target = memberships.find((m) => m.tenant.id === hostTenant.id);
  if (!target || (hostTenant.isSsoEnabled && target.member.isSsoEnabled)) throw new AppError('handoff-invalid', 400);

  const user = await db.select().from(users).where(eq(users.id, claimed.userId)).get();
  if (!user) throw new AppError('handoff-invalid', 400);
  const session = await startSession(deps, {
    user,
    hostTenant,
    remember: claimed.remember,
    twofaPassed: claimed.twofaPassed,
    authMethod: 'handoff',
    client,
    action: 'login.handoff',
  });
  return { ...session, path: claimed.path };
}
