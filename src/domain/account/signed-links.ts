// Signed links (invitation, email verification): HMAC-SHA256 over the absolute URL without its
// signature, compared in constant time; the previous key still verifies during key rotation.
import { hmacSha256, safeEqual } from '../security/tokens';

export function sign(key: string, unsignedUrl: string): string {
  return hmacSha256(key, unsignedUrl).toString('hex');
}

export function signatureMatches(keys: (string | undefined)[], unsignedUrl: string, signature: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  // Check every key (no early exit) so timing does not tell which key matched.
  let ok = false;
  for (const key of keys) if (key && safeEqual(sign(key, unsignedUrl), signature)) ok = true;
  return ok;
}
