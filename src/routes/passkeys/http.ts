// What the passkey routes read of a request: the origin a ceremony must come from (this request's
// own scheme, host and port, as the CSRF rule reads it) and the browser's device cookie, to which
// every challenge is bound (decision 0039).
import { browserCookies } from '../http/cookies';
import type { Ctx } from '../http/env';

export function requestOrigin(c: Ctx): string {
  return `${c.get('https') ? 'https' : 'http'}://${new URL(c.req.url).host}`;
}

/** The browser's device token (set now on a browser that has none: the challenge's binding). */
export function browserToken(c: Ctx): string {
  return browserCookies(c).device;
}
