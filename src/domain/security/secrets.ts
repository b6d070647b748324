// Encryption at rest for secrets the portal must read back (TOTP seeds): AES-256-GCM from
// node:crypto, a random 96-bit IV per value, stored as base64url "v1.iv.ciphertext.tag".
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const keyBytes = (key: string) => createHash('sha256').update(key, 'utf8').digest();

export function encryptSecret(key: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyBytes(key), iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

export function decryptSecret(key: string, stored: string): string {
  const [v, iv, ct, tag] = stored.split('.');
  if (v !== 'v1' || !iv || !ct || !tag) throw new Error('unreadable secret');
  const d = createDecipheriv('aes-256-gcm', keyBytes(key), Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
}
