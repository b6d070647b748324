// Moving a signed-in user to another host (tenant chosen on the main domain, Switch Organization):
// a one-time code, hashed, bound to the target tenant and to the browser that asked for it, valid
// for one minute. The binding is a cookie every portal host receives, made for this hand-off alone
// (a fresh random value, signed together with the code, living as long as the code, dropped when
// it is used), so a value planted by a sibling domain never outlives one hand-off or fits another
// (decision 0035). The target host exchanges the code, re-reads the source session (still live,
// same person) and goes through completeSignIn like every way in; the source cookie never leaves
// its host.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { handoffCodes, sessions, users, type Session, type Tenant } from '../../db/schema';
import { AppError } from '../errors';
import { randomToken, sha256Hex } from '../security/tokens';
import { purposeMac, purposeMacMatches } from '../security/keys';
import { activeOnly, listMemberships } from '../tenants/memberships';
import { readTenant } from '../tenants/hosts';
import { absoluteExpiry } from './sessions';
import { completeSignIn, type SignInOutcome } from './complete-sign-in';
import type { BrowserCookies } from './known-browser';
import { type ClientInfo } from './client';

export const HANDOFF_TTL_MS = 60_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The binding cookie of one hand-off: its name's suffix (from the code) and its signed value. */
export interface HandoffBinding {
  id: string;
  value: string;
}

/** Which cookie carries the binding of the hand-off with this code (a hash of it, never the code). */
export const bindingId = (code: string) => sha256Hex(`handoff-binding:${code}`).slice(0, 16);

function newBinding(master: string, code: string): { binding: HandoffBinding; hash: string } {
  const nonce = randomToken(32);
  return { binding: { id: bindingId(code), value: `${nonce}.${purposeMac(master, 'handoff-binding', `${code}.${nonce}`)}` }, hash: sha256Hex(nonce) };
}

/** The binding's random part when its signature holds for this code, else null. */
function bindingNonce(master: string, code: string, value: string | undefined): string | null {
  if (!value) return null;
  const dot = value.indexOf('.');
  const nonce = value.slice(0, dot);
  return dot > 0 && TOKEN.test(nonce) && purposeMacMatches(master, 'handoff-binding', `${code}.${nonce}`, value.slice(dot + 1)) ? nonce : null;
}

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
): Promise<{ code: string; tenant: Tenant; binding: HandoffBinding | null }> {
  const { db, clock } = deps;
  const now = clock.now();
  const user = await db.select().from(users).where(eq(users.id, session.userId)).get();
  if (!user) throw new AppError('unauthenticated');
  const memberships = activeOnly(await listMemberships(db, user.id));
  const target = memberships.find((m) => m.tenant.id === targetTenantId);
  const tenant = target?.tenant;
  // Another tenant's id is indistinguishable from a missing one.
  if (!tenant) throw new AppError('not-found');
  // A member who signs in with SSO there enters only through that tenant's IdP, never with a
  // session made elsewhere (a password login on the main domain must not bypass SSO).
  if (tenant.isSsoEnabled && target.member.isSsoEnabled) throw new AppError('redirect-to-sso', { initial_subdomain: tenant.initialSubdomain });
  if (session.ssoTenantId !== null && session.ssoTenantId !== tenant.id) throw new AppError('sign-in-required', { tenant });
  const code = randomToken(32);
  const bound = deps.config.HANDOFF_BROWSER_BINDING ? newBinding(deps.config.DATA_ENCRYPTION_KEY, code) : null;
  await db.insert(handoffCodes).values({
    codeHash: sha256Hex(code),
    userId: user.id,
    sourceSessionId: session.id,
    targetTenantId,
    path,
    remember: session.remember,
    twofaPassed: session.twofaPassed,
    authMethod: session.authMethod,
    browserHash: bound?.hash ?? null,
    expiresAt: now + HANDOFF_TTL_MS,
    createdAt: now,
  });
  return { code, tenant, binding: bound?.binding ?? null };
}

/**
 * Exchanges a code on the target host: compare-and-set marks it used (a code works once even
 * under concurrent requests) only when this browser's cookie is the one it was issued to. The
 * source session must still be live; then completeSignIn decides as for any way in.
 */
export async function exchangeHandoff(
  deps: Deps,
  p: { code: string; hostTenantId: number; client: ClientInfo; binding: string | undefined; browser: BrowserCookies },
): Promise<{ outcome: SignInOutcome; path: string }> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const binding = config.HANDOFF_BROWSER_BINDING;
  if (!TOKEN.test(p.code)) throw new AppError('handoff-invalid');
  const nonce = binding ? bindingNonce(config.DATA_ENCRYPTION_KEY, p.code, p.binding) : null;
  if (binding && !nonce) throw new AppError('handoff-invalid');
  const claimed = await db
    .update(handoffCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(handoffCodes.codeHash, sha256Hex(p.code)),
        eq(handoffCodes.targetTenantId, p.hostTenantId),
        nonce ? eq(handoffCodes.browserHash, sha256Hex(nonce)) : undefined,
        isNull(handoffCodes.usedAt),
        gt(handoffCodes.expiresAt, now),
      ),
    )
    .returning()
    .get();
  if (!claimed) throw new AppError('handoff-invalid');
  const source = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, claimed.sourceSessionId), eq(sessions.userId, claimed.userId), gt(sessions.expiresAt, now)))
    .get();
  const policy = { rememberDays: config.SESSION_REMEMBER_DAYS, idleMinutes: config.SESSION_IDLE_MINUTES, maxDays: config.SESSION_MAX_DAYS };
  if (!source || now >= absoluteExpiry(source.remember, source.authenticatedAt ?? source.createdAt, policy)) throw new AppError('handoff-invalid');
  if (source.ssoTenantId !== null && source.ssoTenantId !== p.hostTenantId) throw new AppError('handoff-invalid');
  const user = await db.select().from(users).where(eq(users.id, claimed.userId)).get();
  // The exchange is a signed-out GET, whose host may have come from the per-process cache: the
  // target's policy (enforcement, SSO, allowlist) is read now, after the claim, never from it.
  const hostTenant = await readTenant(db, p.hostTenantId);
  if (!user || !hostTenant) throw new AppError('handoff-invalid');
  const outcome = await completeSignIn(deps, {
    user,
    via: 'handoff',
    hostTenant,
    client: p.client,
    remember: source.remember,
    compliance: null,
    browser: p.browser,
    source,
  });
  return { outcome, path: claimed.path };
}
