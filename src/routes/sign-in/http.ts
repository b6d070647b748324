// HTTP details shared by the ways in: client info, the answer every way in gives (user +
// password_compliance + session cookie, or the next step), hand-offs, and the sign-in after a
// reset or registration. The cookies themselves are routes/http/cookies.ts.
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Session, Tenant, User } from '../../db/schema';
import { passwordCompliance } from '../../domain/account/password-compliance';
import { bindingId, createHandoff, HANDOFF_TTL_MS } from '../../domain/sign-in/handoff';
import { policyForEmail } from '../../domain/account/password-reset';
import { completeSignIn, type SignInOutcome } from '../../domain/sign-in/complete-sign-in';
import { AppError } from '../../domain/errors';
import { tenantOrigin } from '../../domain/tenants/hosts';
import { userPayload } from '../../domain/account/profile';
import { browserCookies, portalWideName, rememberedDeviceCookie, setChallengeCookie, setKnownBrowserCookie, setSessionCookie } from '../http/cookies';
import { decidingTenant, type Ctx } from '../http/env';
import { type ClientInfo } from '../../domain/sign-in/client';

export function clientInfo(c: Ctx): ClientInfo {
  return { ip: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null, geo: c.get('deps').runtime.geo(c.req.raw) };
}

/**
 * The cookies of a new session: the session itself and, when a browser signed in, its portal-wide
 * recognition (domain/sign-in/known-browser.ts). Every way in that ends in a session sets both here.
 */
export function setSignInCookies(c: Ctx, outcome: Extract<SignInOutcome, { kind: 'session' }>): void {
  setSessionCookie(c, outcome.session.token, outcome.session.remember, outcome.session.expiresAt);
  if (outcome.knownBrowser) setKnownBrowserCookie(c, outcome.knownBrowser);
}

export const HANDOFF_BINDING_COOKIE = 'portal_handoff';

/**
 * A hand-off of this session to `tenantId`, its binding cookie set on the portal domain (so the
 * target host receives it) for as long as the code lives (domain/sign-in/handoff.ts).
 */
export async function startHandoff(c: Ctx, session: Session, tenantId: number, path: string) {
  const handoff = await createHandoff(c.get('deps'), session, tenantId, path);
  if (handoff.binding) {
    setCookie(c, `${portalWideName(c, HANDOFF_BINDING_COOKIE)}_${handoff.binding.id}`, handoff.binding.value, {
      path: '/',
      domain: c.get('deps').config.PORTAL_DOMAIN,
      httpOnly: true,
      secure: c.get('https'),
      sameSite: 'Lax',
      maxAge: HANDOFF_TTL_MS / 1000,
    });
  }
  return handoff;
}

/** The target host: the binding cookie of the hand-off with this code, which is used up now. */
export function takeHandoffBinding(c: Ctx, code: string): string | undefined {
  const name = `${portalWideName(c, HANDOFF_BINDING_COOKIE)}_${bindingId(code)}`;
  const value = getCookie(c, name);
  if (value !== undefined) deleteCookie(c, name, { path: '/', domain: c.get('deps').config.PORTAL_DOMAIN, secure: c.get('https') });
  return value;
}

/**
 * Sets the session cookie and answers the signed-in user with its password compliance, from the
 * memberships the sign-in read (the session's write changes none of what the payload shows).
 */
function signedIn(c: Ctx, outcome: Extract<SignInOutcome, { kind: 'session' }>, extra: Record<string, unknown> = {}) {
  const { user, memberships, scope, compliance } = outcome;
  setSignInCookies(c, outcome);
  return c.json({
    ...extra,
    message: 'success',
    user: userPayload(user, memberships, c.get('hostTenant'), scope),
    initial_subdomain: c.get('hostTenant')?.initialSubdomain ?? null,
    password_compliance: compliance,
  });
}

/** Where a tenant's SAML login starts (on its initial subdomain), coming back to `relay`. */
export function ssoLoginUrl(c: Ctx, initialSubdomain: string, relay: string): string {
  const here = new URL(c.req.url);
  const origin = `${c.get('https') ? 'https' : 'http'}://${initialSubdomain}.${c.get('deps').config.PORTAL_DOMAIN}${here.port ? ':' + here.port : ''}`;
  return `${origin}${c.get('deps').config.BASE_PATH}/api/saml2/all/login?RelayState=${encodeURIComponent(relay)}`;
}

/**
 * A hand-off of this session to another tenant's host, to `path` there (POST api/handoff, and the
 * organisation chooser posted without JavaScript): the URL that redeems it, or, for an SSO member
 * of that tenant, its SAML login, or, for a session an IdP vouched for, that host's login page.
 */
export async function handoffTo(c: Ctx, tenantId: number, path: string): Promise<{ message?: 'redirect-to-sso' | 'sign-in-required'; url: string }> {
  const deps = c.get('deps');
  const session = c.get('session');
  if (!session) throw new AppError('unauthenticated');
  const base = deps.config.BASE_PATH;
  let handoff;
  try {
    handoff = await startHandoff(c, session, tenantId, path);
  } catch (err) {
    // An SSO member of the chosen tenant goes to its SAML login (the browser just follows `url`).
    if (err instanceof AppError && err.code === 'redirect-to-sso') {
      return { message: 'redirect-to-sso', url: ssoLoginUrl(c, String(err.details.initial_subdomain), path) };
    }
    // A session an IdP vouched for does not reach other tenants: the person signs in there.
    if (err instanceof AppError && err.code === 'sign-in-required') {
      const origin = tenantOrigin(err.details.tenant as Tenant, deps.config.PORTAL_DOMAIN, new URL(c.req.url), c.get('https'));
      return { message: 'sign-in-required', url: `${origin}${base}/login?continue=${encodeURIComponent(path)}` };
    }
    throw err;
  }
  const origin = tenantOrigin(handoff.tenant, deps.config.PORTAL_DOMAIN, new URL(c.req.url), c.get('https'));
  return { url: `${origin}${base}/handoff?code=${encodeURIComponent(handoff.code)}` };
}

/**
 * After a reset or a registration the person goes on through completeSignIn like any way in (the
 * link proved the mailbox): their second factor, or a 2FA setup the tenant enforces, is asked for
 * as the next step; someone who may not enter here (or an SSO member) signs in again.
 */
export async function signInAfterPasswordSet(
  c: Ctx,
  user: User,
  password: string,
  via: 'reset' | 'registration',
): Promise<SignInOutcome | { kind: 'requires-login' }> {
  const deps = c.get('deps');
  const hostTenant = decidingTenant(c);
  const policy = await policyForEmail(deps, user.email, hostTenant);
  let outcome;
  try {
    outcome = await completeSignIn(deps, {
      user,
      via,
      hostTenant,
      client: clientInfo(c),
      remember: false,
      compliance: passwordCompliance(password, user.email, policy, user.passwordScore),
      browser: browserCookies(c),
      rememberedDeviceToken: rememberedDeviceCookie(c),
    });
  } catch (e) {
    if (e instanceof AppError && e.status === 403) return { kind: 'requires-login' };
    throw e;
  }
  return outcome.kind === 'redirect-to-sso' ? { kind: 'requires-login' } : outcome;
}

/**
 * The answer to any way in's outcome: the session (cookie + user), the next pending step (its
 * cookie + the step's message word), or the IdP to go to.
 */
/** `extra`: fields a signed-in answer carries besides the user (the backup codes left). */
export function answerOutcome(c: Ctx, outcome: SignInOutcome, extra: Record<string, unknown> = {}) {
  if (outcome.kind === 'redirect-to-sso') return c.json({ message: 'redirect-to-sso', initial_subdomain: outcome.initialSubdomain });
  if (outcome.kind === 'challenge') {
    setChallengeCookie(c, outcome.challengeToken);
    return c.json({ message: outcome.message, initial_subdomain: c.get('hostTenant')?.initialSubdomain ?? null });
  }
  return signedIn(c, outcome, extra);
}
