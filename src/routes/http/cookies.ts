// Every cookie the portal sets, in one place. Host-only cookies (no Domain) stay on the host that
// set them; the few that every host of the portal must receive (the known browser, a hand-off's
// binding) are set on PORTAL_DOMAIN. Under https host-only ones carry `__Host-`, portal-wide ones
// `__Secure-` (env.ts cookieName).
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { BrowserCookies } from '../../domain/sign-in/known-browser';
import { randomToken } from '../../domain/security/tokens';
import { CHALLENGE_COOKIE, cookieName, SESSION_COOKIE, type Ctx } from './env';

/** The browser's long-lived random device id (this host's). */
export const DEVICE_COOKIE = 'portal_device';
/** The signed portal-wide cookie that names this browser's device for one account (decision 0035). */
export const KNOWN_BROWSER_COOKIE = 'portal_known_browser';
/** A browser remembered after a one-time code: it skips the code for 30 days. */
export const REMEMBER_COOKIE = 'portal_2fa_device';

/** A cookie on PORTAL_DOMAIN: every host of the portal receives it (`__Secure-` under https). */
export const portalWideName = (c: Ctx, base: string) => cookieName(c, base).replace(/^__Host-/, '__Secure-');

/** Host-only (no Domain), HttpOnly, SameSite=Lax; persistent only for "keep me logged in". */
export function setSessionCookie(c: Ctx, token: string, remember: boolean, expiresAt: number) {
  setCookie(c, cookieName(c, SESSION_COOKIE), token, {
    path: '/',
    httpOnly: true,
    secure: c.get('https'),
    sameSite: 'Lax',
    ...(remember ? { expires: new Date(expiresAt) } : {}),
  });
}

export function clearSessionCookie(c: Ctx) {
  deleteCookie(c, cookieName(c, SESSION_COOKIE), { path: '/', secure: c.get('https') });
}

/** The browser's long-lived random device id (set on first use; only its hash is stored). */
function deviceToken(c: Ctx): string {
  const name = cookieName(c, DEVICE_COOKIE);
  const existing = getCookie(c, name);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomToken(32);
  setCookie(c, name, token, { path: '/', httpOnly: true, secure: c.get('https'), sameSite: 'Lax', maxAge: 400 * 86_400 });
  return token;
}

/** What a sign-in reads of this browser: its device token here, and the portal-wide signed one. */
export function browserCookies(c: Ctx): BrowserCookies {
  return { device: deviceToken(c), known: getCookie(c, portalWideName(c, KNOWN_BROWSER_COOKIE)) };
}

export function setKnownBrowserCookie(c: Ctx, value: string): void {
  setCookie(c, portalWideName(c, KNOWN_BROWSER_COOKIE), value, {
    path: '/',
    domain: c.get('deps').config.PORTAL_DOMAIN,
    httpOnly: true,
    secure: c.get('https'),
    sameSite: 'Lax',
    maxAge: 400 * 86_400,
  });
}

/** The pending login of this browser (a code still owed): ten minutes, this host only. */
export function setChallengeCookie(c: Ctx, token: string) {
  setCookie(c, cookieName(c, CHALLENGE_COOKIE), token, { path: '/', httpOnly: true, secure: c.get('https'), sameSite: 'Strict', maxAge: 600 });
}

export function challengeToken(c: Ctx): string | undefined {
  return getCookie(c, cookieName(c, CHALLENGE_COOKIE));
}

export function clearChallengeCookie(c: Ctx) {
  deleteCookie(c, cookieName(c, CHALLENGE_COOKIE), { path: '/', secure: c.get('https') });
}

export function rememberedDeviceCookie(c: Ctx): string | undefined {
  return getCookie(c, cookieName(c, REMEMBER_COOKIE));
}

export function setRememberedDeviceCookie(c: Ctx, token: string, expiresAt: number) {
  setCookie(c, cookieName(c, REMEMBER_COOKIE), token, { path: '/', httpOnly: true, secure: c.get('https'), sameSite: 'Lax', expires: new Date(expiresAt) });
}
