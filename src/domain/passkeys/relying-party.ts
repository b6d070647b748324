// The relying party every ceremony names (decision 0039). The RP ID is PORTAL_DOMAIN, the
// registrable parent of every tenant's host, so a passkey made on acme.<domain> is offered on
// globex.<domain> and on the main domain too (one identity, many tenants); in development
// `localhost` serves `*.localhost` the same way. The origin a ceremony must come from is the
// request's own (scheme, host and port: the host the browser's challenge was issued on), never
// "any host of the portal".
import type { Config } from '../../config';
import { isoBase64URL } from '@simplewebauthn/server/helpers';

/** The algorithms offered and accepted: EdDSA, ES256, RS256 (what authenticators implement). */
export const ALGORITHMS = [-8, -7, -257];

export function rpId(config: Pick<Config, 'PORTAL_DOMAIN'>): string {
  return config.PORTAL_DOMAIN;
}

/** The challenge as the options carry it: our base64url string's bytes (the library encodes them back). */
export function challengeBytes(challenge: string) {
  return isoBase64URL.toBuffer(challenge);
}
