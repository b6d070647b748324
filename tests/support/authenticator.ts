// A software authenticator for the passkey tests (decision 0039): an ES256 key pair made with
// node:crypto that answers the server's WebAuthn options with genuine attestation ("none") and
// assertion objects, as a platform authenticator would (WebAuthn L3 sections 6.1, 6.5, 7.1, 7.2).
// CBOR comes from tests/support/cbor.ts, not from the implementation @simplewebauthn/server decodes
// with, so the server's checks see bytes it did not make itself. Nothing here is the portal's code.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { cborEncode } from './cbor';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

const b64url = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

/** Google Password Manager's AAGUID (the community list), so the name is prefilled from it. */
export const GPM_AAGUID = 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4';

export interface SoftCredential {
  id: string;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
  backupEligible: boolean;
  backedUp: boolean;
}

export interface AuthenticatorOptions {
  /** The origin the browser would put in clientDataJSON (the page's). */
  origin: string;
  /** The RP ID the authenticator scopes the credential to (default: the options'). */
  rpId?: string;
  /** User verification performed (fingerprint, PIN). */
  uv?: boolean;
  /** Backup eligible / backed up (a synced passkey); default both true. */
  synced?: boolean;
  aaguid?: string;
  /** The signature counter the authenticator starts from (0: does not count). */
  counter?: number;
  /** The credential id to report (default: 32 random bytes). */
  credentialId?: Buffer;
  /** Overrides the challenge the answer carries. */
  challenge?: string;
}

function flags(o: { uv?: boolean; be: boolean; bs: boolean; at?: boolean }): number {
  return FLAG.UP | (o.uv === false ? 0 : FLAG.UV) | (o.be ? FLAG.BE : 0) | (o.bs ? FLAG.BS : 0) | (o.at ? FLAG.AT : 0);
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function aaguidBytes(aaguid: string): Buffer {
  return Buffer.from(aaguid.replace(/-/g, ''), 'hex');
}

/** navigator.credentials.create(): a new key pair and the attestation object ("none"). */
export function createCredential(options: PublicKeyCredentialCreationOptionsJSON, o: AuthenticatorOptions): { credential: SoftCredential; response: RegistrationResponseJSON } {
  const rpId = o.rpId ?? options.rp.id ?? new URL(o.origin).hostname;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  // COSE_Key (RFC 9053): kty EC2, alg ES256, crv P-256, x, y.
  const coseKey = new Map<number, number | Buffer>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
  const credentialId = o.credentialId ?? randomBytes(32);
  const synced = o.synced ?? true;
  const counter = o.counter ?? 0;
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credentialId.length);
  const authData = Buffer.concat([
    sha256(rpId),
    Buffer.from([flags({ uv: o.uv, be: synced, bs: synced, at: true })]),
    u32(counter),
    aaguidBytes(o.aaguid ?? GPM_AAGUID),
    idLength,
    credentialId,
    cborEncode(coseKey),
  ]);
  const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: o.challenge ?? options.challenge, origin: o.origin, crossOrigin: false });
  const attestationObject = cborEncode({ fmt: 'none', attStmt: {}, authData });
  const id = b64url(credentialId);
  return {
    credential: { id, rpId, userHandle: options.user.id, privateKey, counter, backupEligible: synced, backedUp: synced },
    response: {
      id,
      rawId: id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal', 'hybrid'] },
    },
  };
}

/** navigator.credentials.get(): a signature over authenticatorData and the client data's hash. */
export function assert(
  credential: SoftCredential,
  options: Pick<PublicKeyCredentialRequestOptionsJSON, 'challenge'>,
  o: AuthenticatorOptions & { /** Do not count this use (a cloned key's stale counter). */ keepCounter?: boolean; omitUserHandle?: boolean },
): AuthenticationResponseJSON {
  if (!o.keepCounter && credential.counter > 0) credential.counter += 1;
  const authData = Buffer.concat([
    sha256(o.rpId ?? credential.rpId),
    Buffer.from([flags({ uv: o.uv, be: credential.backupEligible, bs: credential.backedUp })]),
    u32(credential.counter),
  ]);
  const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: o.challenge ?? options.challenge, origin: o.origin, crossOrigin: false }));
  // ES256: ECDSA P-256 over SHA-256, DER-encoded as WebAuthn expects.
  const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
  return {
    id: credential.id,
    rawId: credential.id,
    type: 'public-key',
    authenticatorAttachment: 'platform',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      ...(o.omitUserHandle ? {} : { userHandle: credential.userHandle }),
    },
  };
}
