// Adding a passkey (decision 0039): in the account (the person re-entered their password, or
// confirmed with a passkey, in the last 15 minutes) and, where a tenant requires one, during the
// sign-in. The server makes the options (attestation "none", a discoverable credential, user
// verification required), the browser's own dialog makes the credential, and
// @simplewebauthn/server checks the answer (no CBOR, COSE or attestation code of ours).
import { generateRegistrationOptions, verifyRegistrationResponse, type PublicKeyCredentialCreationOptionsJSON, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import { count, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { passkeys, type User } from '../../db/schema';
import { AppError, isUniqueViolation } from '../errors';
import { auditInsert } from '../audit/log';
import { reserve, type Limit } from '../security/limiter';
import { randomToken } from '../security/tokens';
import { productName } from '../mail/messages';
import { claimChallenge, issueChallenge, CHALLENGE_TTL_MS, type ChallengeBinding, type ClaimedChallenge } from './challenges';
import { listPasskeys, MAX_PASSKEYS, passkeyView, userHandle, type PasskeyView } from './credentials';
import { suggestedName } from './names';
import { ALGORITHMS, challengeBytes, rpId } from './relying-party';

/** Passkeys one account may try to add per hour (each attempt is a verification and maybe a row). */
const addLimit = (userId: number): Limit => ({ key: `passkey-add:${userId}`, max: 10, windowMs: 3_600_000 });

/** The options of navigator.credentials.create() for this person, bound as `binding` says. */
export async function creationOptions(deps: Deps, user: User, binding: Omit<ChallengeBinding, 'userId'>): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listPasskeys(deps.db, user.id);
  if (existing.length >= MAX_PASSKEYS) throw new AppError('passkey-limit-reached', { max: MAX_PASSKEYS });
  const challenge = await issueChallenge(deps, { ...binding, userId: user.id });
  return generateRegistrationOptions({
    rpName: productName(user),
    rpID: rpId(deps.config, binding.origin),
    userName: user.email,
    userDisplayName: user.name,
    userID: userHandle(deps.config.DATA_ENCRYPTION_KEY, user.id),
    challenge: challengeBytes(challenge),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    // The same authenticator twice would be one passkey listed twice: the browser refuses it.
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
}

/** The challenge an answer carries (its clientDataJSON), or '' when it cannot be read. */
export function answeredChallenge(clientDataJSON: string): string {
  try {
    return decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    return '';
  }
}

export interface NewPasskeyContext {
  user: User;
  /** The request's own origin (scheme, host and port). */
  origin: string;
  browser: string;
  tenantId: number | null;
  purpose: 'register' | 'enrol';
  /** The ceremony's binding besides the browser and host: compared with the claimed challenge. */
  bound: (c: ClaimedChallenge) => boolean;
  ip: string | null;
  userAgent: string | null;
}

/**
 * Checks the browser's answer to creationOptions and stores the passkey, named after its model or
 * the browser that made it (the person renames it at once or later). Reserve first (10 an hour),
 * then claim the challenge (single use), then verify; the cap of 20 passkeys is decided by the
 * statement that inserts.
 */
export async function addPasskey(deps: Deps, ctx: NewPasskeyContext, response: RegistrationResponseJSON): Promise<PasskeyView> {
  const { db, clock, config } = deps;
  const now = clock.now();
  await reserve(db, [addLimit(ctx.user.id)], now);
  const claimed = await claimChallenge(deps, answeredChallenge(response.response.clientDataJSON), { purpose: ctx.purpose, browser: ctx.browser, tenantId: ctx.tenantId });
  if (!claimed || claimed.userId !== ctx.user.id || !ctx.bound(claimed)) throw new AppError('passkey-registration-failed');
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: claimed.challenge,
      expectedOrigin: ctx.origin,
      expectedRPID: rpId(config, ctx.origin),
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch {
    verified = null;
  }
  if (!verified?.verified) throw new AppError('passkey-registration-failed');
  const info = verified.registrationInfo;
  const id = randomToken(16);
  const name = suggestedName(info.aaguid, ctx.userAgent);
  let inserted: { id: string }[];
  try {
    inserted = await db
      .insert(passkeys)
      .select(
        sql`select ${id}, ${ctx.user.id}, ${info.credential.id}, ${isoBase64URL.fromBuffer(info.credential.publicKey)}, ${info.credential.counter},
                   ${info.credentialDeviceType === 'multiDevice' ? 1 : 0}, ${info.credentialBackedUp ? 1 : 0}, ${JSON.stringify(response.response.transports ?? [])},
                   ${info.aaguid}, ${name}, ${now}, null
            where (select count(*) from ${passkeys} where ${passkeys.userId} = ${ctx.user.id}) < ${MAX_PASSKEYS}`,
      )
      .returning({ id: passkeys.id });
  } catch (e) {
    // Credential ids are unique across the portal: an authenticator's credential is one account's.
    if (isUniqueViolation(e, 'passkeys')) throw new AppError('passkey-already-registered');
    throw e;
  }
  if (inserted.length !== 1) throw new AppError('passkey-limit-reached', { max: MAX_PASSKEYS });
  await auditInsert(
    db,
    {
      tenantId: ctx.tenantId,
      actorUserId: ctx.user.id,
      action: 'passkey.added',
      targetType: 'passkey',
      targetId: id,
      ipAddress: ctx.ip,
      userAgent: ctx.userAgent,
      details: { name, aaguid: info.aaguid, synced: info.credentialBackedUp, atSignIn: ctx.purpose === 'enrol' },
    },
    now,
  );
  const row = await db.select().from(passkeys).where(eq(passkeys.id, id)).get();
  return passkeyView(row!);
}

/** How many passkeys the person has (the account screen's badge). */
export async function passkeyCount(deps: Deps, userId: number): Promise<number> {
  const row = await deps.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)).get();
  return row?.n ?? 0;
}
