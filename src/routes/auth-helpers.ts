// HTTP details shared by the sign-in routes: client info, the device and challenge cookies, and
// the answer every successful way in gives (user + password_compliance + session cookie).
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { User } from '../db/schema';
import type { PasswordCompliance } from '../domain/auth/compliance';
import type { ClientInfo, SignIn, SignInOutcome } from '../domain/auth/sign-in';
import { randomToken } from '../domain/security/tokens';
import { listMemberships } from '../domain/tenants/memberships';
import { userPayload } from '../domain/users/profile';
import { setSessionCookie } from './cookies';
import type { Context } from 'hono';
import { CHALLENGE_COOKIE, cookieName, type AppEnv, type Ctx } from './env';

export const DEVICE_COOKIE = 'portal_device';

export function clientInfo(c: Ctx): ClientInfo {
  return { ip: c.var.clientIp, userAgent: c.req.header('user-agent') ?? null, geo: c.var.deps.runtime.geo(c.req.raw) };
}

/** The browser's long-lived random device id (set on first use; only its hash is stored). */
export function deviceToken(c: Ctx): string {
  const name = cookieName(c, DEVICE_COOKIE);
  const existing = getCookie(c, name);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomToken(32);
  setCookie(c, name, token, { path: '/', httpOnly: true, secure: c.var.https, sameSite: 'Lax', maxAge: 400 * 86_400 });
  return token;
}

export const HANDOFF_BROWSER_COOKIE = 'portal_handoff_browser';

/**
 * The random id a hand-off code is bound to. It is the one cookie with a Domain attribute (the
 * portal domain), so the target host of a hand-off receives what the source host set; it opens
 * nothing by itself (the code row holds only its hash, and the code is needed too).
 */
export function handoffBrowserToken<E extends AppEnv>(ctx: Context<E>, create: boolean): string | undefined {
  const c = ctx as unknown as Ctx;
  const name = cookieName(c, HANDOFF_BROWSER_COOKIE).replace(/^__Host-/, '__Secure-');
  const existing = getCookie(c, name);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  if (!create || !c.var.deps.config.HANDOFF_BROWSER_BINDING) return undefined;
  const token = randomToken(32);
  setCookie(c, name, token, { path: '/', domain: c.var.deps.config.PORTAL_DOMAIN, httpOnly: true, secure: c.var.https, sameSite: 'Lax', maxAge: 400 * 86_400 });
  return token;
}

export function setChallengeCookie(c: Ctx, token: string) {
  setCookie(c, cookieName(c, CHALLENGE_COOKIE), token, { path: '/', httpOnly: true, secure: c.var.https, sameSite: 'Strict', maxAge: 600 });
}

export function challengeToken(c: Ctx): string | undefined {
  return getCookie(c, cookieName(c, CHALLENGE_COOKIE));
}

export function clearChallengeCookie(c: Ctx) {
  deleteCookie(c, cookieName(c, CHALLENGE_COOKIE), { path: '/', secure: c.var.https });
}

/** Sets the session cookie and answers the signed-in user with its password compliance. */
export async function signedIn(c: Ctx, user: User, session: SignIn, compliance: PasswordCompliance | null, message = 'success') {
  setSessionCookie(c, session.token, session.remember, session.expiresAt);
  const memberships = await listMemberships(c.var.deps.db, user.id);
  return c.json({
    message,
    user: userPayload(user, memberships, c.var.hostTenant),
    initial_subdomain: c.var.hostTenant?.initialSubdomain ?? null,
    password_compliance: compliance,
  });
}

/**
 * The answer to any way in's outcome: the session (cookie + user), the next pending step (its
 * cookie + the step's message word), or the IdP to go to.
 */
export function answerOutcome(c: Ctx, outcome: SignInOutcome) {
  if (outcome.kind === 'redirect-to-sso') return c.json({ message: 'redirect-to-sso', initial_subdomain: outcome.initialSubdomain });
  if (outcome.kind === 'challenge') {
    setChallengeCookie(c, outcome.challengeToken);
    return c.json({ message: outcome.message, initial_subdomain: c.var.hostTenant?.initialSubdomain ?? null });
  }
  return signedIn(c, outcome.user, outcome.session, outcome.compliance);
}
