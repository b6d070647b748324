// Random tokens, digests and comparisons. All primitives come from node:crypto, which Node and
// workerd (nodejs_compat) both provide; nothing here implements cryptography by hand.
import * as nodeCrypto from 'node:crypto';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The one-shot digest of Node 20.12+, a third of createHash's cost: every signed-in request
// hashes its cookie. Runtimes without it (workerd's node:crypto) take the stream form.
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** A random token of `bytes` bytes (default 32 = 256 bits), base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Stored form of a token or code: hex SHA-256. Tokens are high-entropy, so no salt is needed. */
export function sha256Hex(value: string): string {
  return oneShot ? oneShot('sha256', value, 'hex') : createHash('sha256').update(value, 'utf8').digest('hex');
}

export function hmacSha256(key: string, value: string): Buffer {
  return createHmac('sha256', key).update(value, 'utf8').digest();
}

/** Constant-time equality of two strings (lengths may differ; that alone is not secret). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function safeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
