// The relying party every ceremony names (decision 0039). The RP ID is PORTAL_DOMAIN, the
// parent of every tenant's host, so a passkey made on acme.<domain> is offered on globex.<domain>
// and on the main domain too (one identity, many tenants). A single-label PORTAL_DOMAIN
// (`localhost` in development) cannot be that parent: a browser accepts an RP ID only when it is
// the page's host or a registrable-domain suffix of it, and `localhost` has no registrable domain
// (Chromium: "The relying party ID is not a registrable domain suffix of, nor equal to the current
// domain"). There each host is its own relying party, and a passkey made on the main domain reaches
// the tenants through the organization chooser's hand-off. The origin a ceremony must come from is
// the request's own (scheme, host and port: the host the browser's challenge was issued on), never
// "any host of the portal".
import type { Config } from '../../config';
import { isoBase64URL } from '@simplewebauthn/server/helpers';

/** The algorithms offered and accepted: EdDSA, ES256, RS256 (what authenticators implement). */
export const ALGORITHMS = [-8, -7, -257];

/** The RP ID for a ceremony on `origin` (the request's own origin). */
export function rpId(config: Pick<Config, 'PORTAL_DOMAIN'>, origin: string): string {
  if (sharedRelyingParty(config)) return config.PORTAL_DOMAIN;
  return new URL(origin).hostname;
}

/** Whether one passkey serves every host of the portal (PORTAL_DOMAIN has a dot). */
export function sharedRelyingParty(config: Pick<Config, 'PORTAL_DOMAIN'>): boolean {
  return config.PORTAL_DOMAIN.includes('.');
}

/** The challenge as the options carry it: our base64url string's bytes (the library encodes them back). */
export function challengeBytes(challenge: string) {
  return isoBase64URL.toBuffer(challenge);
}
