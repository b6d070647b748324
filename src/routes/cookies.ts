import { deleteCookie, setCookie } from 'hono/cookie';
import { cookieName, SESSION_COOKIE, type Ctx } from './env';

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
