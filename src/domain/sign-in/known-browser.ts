// Recognising the person's own browser on every host of the portal (decision 0035). The
// new-device rule and the lock-outs exempt a browser the person has signed in from (its device
// fingerprint is in known_devices), but the device cookie is host-only: on the main domain or
// another tenant's host the same browser looked new, and while an account was locked for unknown
// browsers its owner was locked out there too. After a sign-in the portal also sets a cookie on
// PORTAL_DOMAIN naming the account and the browser's device token, signed with a derived key:
// on any host it stands for that device token, for that account only. A cookie planted by a
// sibling domain cannot carry another account's signature, and the database (known_devices)
// stays the authority on whether the device is known.
import { purposeMac, purposeMacMatches } from '../security/keys';

/** The browser's cookies a sign-in reads: this host's device token, and the portal-wide one. */
export interface BrowserCookies {
  /** This host's random device token (host-only cookie). */
  device: string;
  /** The signed portal-wide cookie from an earlier sign-in, if any (any account's). */
  known?: string;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The cookie value for `userId` signed in with device token `token`. */
export function knownBrowserValue(master: string, userId: number, token: string): string {
  return `${userId}.${token}.${purposeMac(master, 'known-browser', `${userId}.${token}`)}`;
}

/** The account and device token the portal-wide cookie names, when its signature holds. */
export function knownBrowserClaim(master: string, b: BrowserCookies): { userId: number; token: string } | null {
  if (!b.known) return null;
  const [uid, token, ...mac] = b.known.split('.');
  if (!uid || !/^[1-9][0-9]{0,15}$/.test(uid) || !token || !TOKEN.test(token) || mac.length !== 2) return null;
  return purposeMacMatches(master, 'known-browser', `${uid}.${token}`, mac.join('.')) ? { userId: Number(uid), token } : null;
}

/**
 * The device token that identifies this browser for `userId`: the portal-wide cookie's when it is
 * this account's and its signature holds, else this host's own.
 */
export function browserTokenFor(master: string, userId: number | null, b: BrowserCookies): string {
  if (userId === null) return b.device;
  const claim = knownBrowserClaim(master, b);
  return claim && claim.userId === userId ? claim.token : b.device;
}
