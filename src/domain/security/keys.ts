// Keys for separate jobs, derived from DATA_ENCRYPTION_KEY with HKDF-SHA256 (node:crypto, which
// workerd provides under nodejs_compat) and a label per job, so a key leaked or misused for one
// job says nothing about another. Values made with a derived key carry its id ("k1."), so the
// derivation can be rotated by adding k2 while k1 values still verify.
import { createHmac, hkdfSync } from 'node:crypto';
import { safeEqual } from './tokens';

/** What a derived key is for (the HKDF info label). */
export type KeyPurpose = 'otp-code' | 'known-browser' | 'handoff-binding' | 'passkey-user-handle';

const CURRENT = 'k1';
const INFO: Record<string, (purpose: KeyPurpose) => string> = {
  k1: (purpose) => `portal/${purpose}/v1`,
};

export function derivedKey(master: string, purpose: KeyPurpose, keyId = CURRENT): Buffer {
  const info = INFO[keyId];
  if (!info) throw new Error(`unknown key id ${keyId}`);
  return Buffer.from(hkdfSync('sha256', Buffer.from(master, 'utf8'), Buffer.from('portal-derived-keys', 'utf8'), Buffer.from(info(purpose), 'utf8'), 32));
}

/**
 * The stored form of a short one-time code (six digits: a plain hash is reversed from a dump in
 * a second): an HMAC under the derived key, bound to what the code is for (`subject`).
 */
export function codeMac(master: string, subject: string, code: string): string {
  return `${CURRENT}.${createHmac('sha256', derivedKey(master, 'otp-code')).update(`${subject}:${code}`).digest('hex')}`;
}

/** Whether `code` is the one stored as `stored` for `subject` (constant-time comparison). */
export function codeMacMatches(master: string, subject: string, code: string, stored: string): boolean {
  const dot = stored.indexOf('.');
  const keyId = dot > 0 ? stored.slice(0, dot) : '';
  if (!INFO[keyId]) return false;
  const expected = `${keyId}.${createHmac('sha256', derivedKey(master, 'otp-code', keyId)).update(`${subject}:${code}`).digest('hex')}`;
  return safeEqual(expected, stored);
}

/** A MAC of `value` under the derived key for `purpose`, with the key id in front ("k1.<mac>"). */
export function purposeMac(master: string, purpose: KeyPurpose, value: string, keyId = CURRENT): string {
  return `${keyId}.${createHmac('sha256', derivedKey(master, purpose, keyId)).update(value, 'utf8').digest('base64url')}`;
}

/** Whether `mac` is `purposeMac(master, purpose, value)` under any key id still known (constant time). */
export function purposeMacMatches(master: string, purpose: KeyPurpose, value: string, mac: string): boolean {
  const keyId = mac.slice(0, mac.indexOf('.'));
  return Boolean(INFO[keyId]) && safeEqual(purposeMac(master, purpose, value, keyId), mac);
}
