// Signing in with a passkey, and the other ceremonies that ask an existing one (decision 0039):
//  - sign-in: a discoverable credential, on any host (the browser's autofill or the "Sign in with
//    a passkey" button); two factors, and then completeSignIn decides like for every other way in;
//  - second step: after the password, instead of the one-time code (the pending login's person's
//    passkeys only);
//  - re-verification: in the account, instead of the password, before a security change.
// The order of every check: the host's address rule, limits reserved, the challenge claimed (once,
// for this browser and purpose), the credential found, the answer verified by
// @simplewebauthn/server (origin, RP ID, user presence and verification, signature, counter), the
// backup eligibility unchanged, the counter moved forward by compare-and-set. Any failure answers
// `passkey-invalid`, an unknown credential included.
import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { passkeys, sessions, users, type Session, type User } from '../../db/schema';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import { refund, reserve, type Limit } from '../security/limiter';
import { addressKey } from '../security/network';
import { safeEqual } from '../security/tokens';
import type { FreshTenant } from '../tenants/hosts';
import { assertHostAdmits, completeSignIn, type SignInOutcome } from '../sign-in/complete-sign-in';
import { LOGIN_LIMITS } from '../sign-in/password-login';
import type { BrowserCookies } from '../sign-in/known-browser';
import type { ClientInfo } from '../sign-in/client';
import { claimChallenge, issueChallenge, CHALLENGE_TTL_MS, type ChallengeBinding, type ClaimedChallenge } from './challenges';
import { listPasskeys, userHandle, type PasskeyRow } from './credentials';
import { answeredChallenge } from './registration';
import { challengeBytes, rpId } from './relying-party';

/** The options of navigator.credentials.get(): user verification required; `allow` empty = discoverable. */
export async function requestOptions(deps: Deps, binding: ChallengeBinding, allow: PasskeyRow[] = []): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const challenge = await issueChallenge(deps, binding);
  return generateAuthenticationOptions({
    rpID: rpId(deps.config, binding.origin),
    challenge: challengeBytes(challenge),
    timeout: CHALLENGE_TTL_MS,
    userVerification: 'required',
    allowCredentials: allow.map((p) => ({ id: p.credentialId, transports: p.transports })),
  });
}

/** Why an assertion was refused (the audit log says it; the answer never does). */
export type RefusalReason = 'challenge' | 'unknown-credential' | 'other-account' | 'user-handle' | 'signature' | 'backup-eligibility' | 'counter';

export class AssertionRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly userId: number | null,
  ) {
    super(reason);
  }
}

export interface AssertionContext {
  origin: string;
  purpose: ChallengeBinding['purpose'];
  browser: string;
  tenantId: number | null;
  /** The ceremony's binding besides the browser and host (user, session, pending login). */
  bound?: (c: ClaimedChallenge) => boolean;
  /** Only this account's passkeys may answer (second step, re-verification). */
  userId?: number;
}

/**
 * Claims the answer's challenge, finds its credential and verifies the answer; on success the
 * credential's counter, backup state and last use are written (compare-and-set on the counter:
 * of two answers with the same counter, one wins). Throws AssertionRefused with the reason.
 */
export async function checkAssertion(deps: Deps, response: AuthenticationResponseJSON, ctx: AssertionContext): Promise<PasskeyRow> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const claimed = await claimChallenge(deps, answeredChallenge(response.response.clientDataJSON), ctx);
  if (!claimed || (ctx.bound && !ctx.bound(claimed))) throw new AssertionRefused('challenge', ctx.userId ?? null);
  const passkey = typeof response.id === 'string' ? await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).get() : undefined;
  if (!passkey) throw new AssertionRefused('unknown-credential', ctx.userId ?? null);
  if (ctx.userId !== undefined && passkey.userId !== ctx.userId) throw new AssertionRefused('other-account', ctx.userId);
  // The authenticator says whose credential it is: it must be the account the credential belongs to.
  const handle = response.response.userHandle;
  if (handle && !safeEqual(handle, isoBase64URL.fromBuffer(userHandle(config.DATA_ENCRYPTION_KEY, passkey.userId)))) {
    throw new AssertionRefused('user-handle', passkey.userId);
  }
  let info;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: claimed.challenge,
      expectedOrigin: ctx.origin,
      expectedRPID: rpId(config, ctx.origin),
      requireUserVerification: true,
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
    });
    info = result.verified ? result.authenticationInfo : null;
  } catch (e) {
    // The library refuses a counter that did not move forward with its own message.
    if (e instanceof Error && /counter/i.test(e.message)) throw new AssertionRefused('counter', passkey.userId);
    info = null;
  }
  if (!info) throw new AssertionRefused('signature', passkey.userId);
  // Backup eligibility is fixed for a credential's life (WebAuthn L3 6.1.3): a change means
  // another authenticator, or a tampered answer.
  if ((info.credentialDeviceType === 'multiDevice') !== passkey.backupEligible) throw new AssertionRefused('backup-eligibility', passkey.userId);
  const moved = await db
    .update(passkeys)
    .set({ counter: info.newCounter, backedUp: info.credentialBackedUp, lastUsedAt: now })
    .where(
      and(
        eq(passkeys.id, passkey.id),
        // Authenticators that count must count forward; those that do not (always 0) stay at 0.
        or(lt(passkeys.counter, info.newCounter), and(eq(passkeys.counter, 0), sql`${info.newCounter} = 0`)),
      ),
    )
    .returning({ id: passkeys.id });
  if (moved.length !== 1) throw new AssertionRefused('counter', passkey.userId);
  return { ...passkey, counter: info.newCounter, backedUp: info.credentialBackedUp, lastUsedAt: now };
}

/** Failed passkey answers from one address count in the password login's address budget. */
function addressLimit(ip: string | null): Limit {
  return { key: `login:ip:${addressKey(ip)}`, ...LOGIN_LIMITS.ip };
}

export interface PasskeySignIn {
  response: AuthenticationResponseJSON;
  origin: string;
  hostTenant: FreshTenant | null;
  client: ClientInfo;
  browser: BrowserCookies;
  remember: boolean;
}

/**
 * POST passkeys/sign-in/verify: a passkey as the way in. The host's address rule first, the
 * address's budget reserved (refunded on success), then the assertion; completeSignIn decides the
 * rest (membership, deactivation, SSO members to their IdP, the tenant's policies) with two
 * factors proven.
 */
export async function signInWithPasskey(deps: Deps, p: PasskeySignIn): Promise<SignInOutcome> {
  const { db, clock } = deps;
  const now = clock.now();
  await assertHostAdmits(deps, p.hostTenant, p.client);
  const limit = addressLimit(p.client.ip);
  await reserve(db, [limit], now);
  let passkey: PasskeyRow;
  try {
    passkey = await checkAssertion(deps, p.response, { origin: p.origin, purpose: 'sign-in', browser: p.browser.device, tenantId: p.hostTenant?.id ?? null });
  } catch (e) {
    if (!(e instanceof AssertionRefused)) throw e;
    await audit(
      db,
      { tenantId: p.hostTenant?.id ?? null, actorUserId: e.userId, action: 'login.passkey_failed', ipAddress: p.client.ip, userAgent: p.client.userAgent, details: { reason: e.reason } },
      now,
    );
    throw new AppError('passkey-invalid');
  }
  await refund(db, [limit], now);
  const user = await db.select().from(users).where(eq(users.id, passkey.userId)).get();
  if (!user) throw new AppError('passkey-invalid');
  return completeSignIn(deps, {
    user,
    via: 'passkey',
    hostTenant: p.hostTenant,
    client: p.client,
    remember: p.remember,
    compliance: null,
    browser: p.browser,
    passkeyId: passkey.id,
  });
}

/**
 * POST passkeys/verify-session: confirms who is at the keyboard with one of the person's passkeys,
 * as POST password/verify does with the password: the account's security changes (adding or
 * removing passkeys, two-factor) are open for 15 minutes. For accounts without a password the only
 * way; for the others a choice.
 */
export async function reverifyWithPasskey(deps: Deps, p: { user: User; session: Session; response: AuthenticationResponseJSON; origin: string; browser: string; tenantId: number | null; ip: string | null }): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  // The same budget as the password re-entry.
  const limit: Limit = { key: `verify-password:${p.user.id}`, max: 5, windowMs: 15 * 60_000 };
  await reserve(db, [limit], now);
  try {
    await checkAssertion(deps, p.response, { origin: p.origin, purpose: 'reauth', browser: p.browser, tenantId: p.tenantId, userId: p.user.id, bound: (c) => c.sessionId === p.session.id });
  } catch (e) {
    if (!(e instanceof AssertionRefused)) throw e;
    await audit(db, { tenantId: p.tenantId, actorUserId: p.user.id, action: 'passkey.verification_failed', ipAddress: p.ip, details: { reason: e.reason } }, now);
    throw new AppError('passkey-invalid');
  }
  await refund(db, [limit], now);
  await db.update(sessions).set({ passwordVerifiedAt: now }).where(eq(sessions.id, p.session.id));
}

/** The person's passkeys for a ceremony that only they may answer; `no-passkey` when none. */
export async function ownPasskeys(deps: Deps, userId: number): Promise<PasskeyRow[]> {
  const rows = await listPasskeys(deps.db, userId);
  if (rows.length === 0) throw new AppError('no-passkey');
  return rows;
}
