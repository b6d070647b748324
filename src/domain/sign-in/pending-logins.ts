// Pending logins (password done, something still owed): short-lived rows found by the hash of a
// random token in a cookie, completed once by compare-and-set.
import { and, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { knownDevices, loginChallenges, type User } from '../../db/schema';
import { auditInsert } from '../audit/log';
import { refund, reserve, type Limit } from '../security/limiter';
import { randomToken, sha256Hex } from '../security/tokens';
import type { PasswordCompliance } from '../account/password-compliance';
import { type ClientInfo, type Fingerprints } from './client';

export const CHALLENGE_TTL_MS = 10 * 60_000;
/** Pending logins one account may start per hour (each may mail or text a code). */
export const CHALLENGES_PER_HOUR = 10;

export type ChallengeKind = 'otp' | 'enable_twofa' | 'additional_challenge' | 'enrol_passkey';
export type Challenge = typeof loginChallenges.$inferSelect;

export async function createChallenge(
  deps: Deps,
  p: {
    user: User;
    tenantId: number | null;
    kind: ChallengeKind;
    remember: boolean;
    compliance: PasswordCompliance | null;
    fingerprints: Fingerprints;
    client: ClientInfo;
    authenticatedAt: number;
    code?: { hash: string; expiresAt: number };
  },
): Promise<string> {
  const { db, clock } = deps;
  const now = clock.now();
  await reserve(db, [await pendingLoginLimit(deps, p.user.id, p.fingerprints.device)], now);
  const token = randomToken(32);
  await db.batch([
    db.insert(loginChallenges).values({
      id: randomToken(16),
      tokenHash: sha256Hex(token),
      userId: p.user.id,
      tenantId: p.tenantId,
      kind: p.kind,
      remember: p.remember,
      compliance: p.compliance,
      deviceFingerprint: p.fingerprints.device,
      networkFingerprint: p.fingerprints.network,
      codeHash: p.code?.hash ?? null,
      codeExpiresAt: p.code?.expiresAt ?? null,
      codeSentAt: p.code ? now : null,
      authenticatedAt: p.authenticatedAt,
      expiresAt: now + CHALLENGE_TTL_MS,
      createdAt: now,
    }),
    auditInsert(db, { tenantId: p.tenantId, actorUserId: p.user.id, action: `login.challenge.${p.kind}`, ipAddress: p.client.ip, userAgent: p.client.userAgent }, now),
  ]);
  return token;
}

/** The live, unfinished challenge of this kind for a cookie token on this host's tenant. */
export async function findChallenge(deps: Deps, token: string | undefined, hostTenantId: number | null, kind: ChallengeKind): Promise<Challenge | null> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const row = await deps.db
    .select()
    .from(loginChallenges)
    .where(and(eq(loginChallenges.tokenHash, sha256Hex(token)), isNull(loginChallenges.completedAt), gt(loginChallenges.expiresAt, deps.clock.now())))
    .get();
  return row && row.kind === kind && row.tenantId === hostTenantId ? row : null;
}

/**
 * Puts a new code on the pending login, at most once per cooldown: a compare-and-set on the time
 * the last code was sent (`sentBefore`: it must be older), so parallel resends send one code.
 * False when another code went out too recently.
 */
export async function replaceCode(deps: Deps, c: Challenge, code: { hash: string; expiresAt: number }, sentBefore: number): Promise<boolean> {
  const done = await deps.db
    .update(loginChallenges)
    .set({ codeHash: code.hash, codeExpiresAt: code.expiresAt, codeSentAt: deps.clock.now() })
    .where(and(eq(loginChallenges.id, c.id), or(isNull(loginChallenges.codeSentAt), lte(loginChallenges.codeSentAt, sentBefore))))
    .returning({ id: loginChallenges.id });
  return done.length === 1;
}

/**
 * Marks the challenge done; false when another request already did (single use). A completed
 * sign-in gives its pending login back to the hourly cap: the cap bounds the codes mailed and
 * texted to a person and the rows an attacker can make, not how often the person signs in.
 */
export async function completeChallenge(deps: Deps, c: Challenge): Promise<boolean> {
  const now = deps.clock.now();
  const done = await deps.db
    .update(loginChallenges)
    .set({ completedAt: now })
    .where(and(eq(loginChallenges.id, c.id), isNull(loginChallenges.completedAt)))
    .returning({ id: loginChallenges.id });
  if (done.length !== 1) return false;
  await refund(deps.db, [await pendingLoginLimit(deps, c.userId, c.deviceFingerprint)], now);
  return true;
}

/**
 * Pending logins one account may start per hour. A browser the person has signed in from counts
 * in a bucket of its own, so someone holding only the password cannot use the cap up for them.
 */
async function pendingLoginLimit(deps: Deps, userId: number, device: string | null): Promise<Limit> {
  return { key: await perBrowserKey(deps, `challenges:${userId}`, userId, device), max: CHALLENGES_PER_HOUR, windowMs: 3_600_000 };
}

/** `base`, or `base:<device>` when the device is one the account knows (its own bucket). */
async function perBrowserKey(deps: Deps, base: string, userId: number, device: string | null): Promise<string> {
  const known = device
    ? await deps.db
        .select({ userId: knownDevices.userId })
        .from(knownDevices)
        .where(and(eq(knownDevices.userId, userId), eq(knownDevices.fingerprint, device)))
        .get()
    : undefined;
  return known ? `${base}:${device}` : base;
}

/**
 * The limit on code guesses of one kind for this challenge's account, across all its pending
 * logins (a new login does not buy new guesses). A browser the person has signed in from before
 * counts in a bucket of its own, so guesses from elsewhere can never lock the person out of it.
 */
export async function codeGuessLimit(deps: Deps, c: Challenge, kind: string, max: number, windowMs: number): Promise<Limit> {
  return { key: await perBrowserKey(deps, `${kind}:${c.userId}`, c.userId, c.deviceFingerprint), max, windowMs };
}
