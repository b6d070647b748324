// The additional challenge (spec 01 "Additional challenge"): a password login from a device and
// a network this user has never signed in from gets a 6-digit code by mail (10 minutes, single
// use, bound to that login attempt). Rule and limits: docs/decisions/0005-additional-challenge.md.
import { and, count, eq, inArray } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { knownDevices, loginChallenges, users, type User } from '../../db/schema';
import { AppError } from '../errors';
import { sendMail } from '../mail/messages';
import { networkOf } from '../security/network';
import { hit, retryAfter } from '../security/throttle';
import { safeEqual, sha256Hex } from '../security/tokens';
import { completeChallenge, createChallenge, findChallenge, type Challenge, type Fingerprints } from './challenges';
import type { PasswordCompliance } from './compliance';
import type { ClientInfo } from './sign-in';

export const CODE_TTL_MS = 10 * 60_000;
export const RESEND_COOLDOWN_S = 60;
/** Wrong codes allowed per challenge before it locks for the rest of its window. */
export const MAX_CODE_ATTEMPTS = 5;

export function deviceFingerprints(deviceToken: string, ip: string | null): Fingerprints {
  const net = networkOf(ip);
  return { device: `d:${sha256Hex(deviceToken)}`, network: net ? `n:${net}` : null };
}

/** True when the device or the network is one the user signed in from, or on a first sign-in. */
export async function isKnownDevice(db: Db, userId: number, f: Fingerprints): Promise<boolean> {
  const any = await db.select({ n: count() }).from(knownDevices).where(eq(knownDevices.userId, userId)).get();
  if ((any?.n ?? 0) === 0) return true;
  const prints = [f.device, ...(f.network ? [f.network] : [])];
  const hitRow = await db
    .select({ n: count() })
    .from(knownDevices)
    .where(and(eq(knownDevices.userId, userId), inArray(knownDevices.fingerprint, prints)))
    .get();
  return (hitRow?.n ?? 0) > 0;
}

export async function rememberDevice(db: Db, userId: number, f: Fingerprints, now: number): Promise<void> {
  const rows = [f.device, ...(f.network ? [f.network] : [])].map((fingerprint) => ({ userId, fingerprint, lastSeenAt: now }));
  await db.insert(knownDevices).values(rows).onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.fingerprint], set: { lastSeenAt: now } });
}

function newCode() {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { code, hash: sha256Hex(code) };
}

export async function startAdditionalChallenge(
  deps: Deps,
  p: { user: User; tenantId: number | null; remember: boolean; compliance: PasswordCompliance; fingerprints: Fingerprints; client: ClientInfo },
): Promise<string> {
  const { code, hash } = newCode();
  const token = await createChallenge(deps, { ...p, kind: 'additional_challenge', code: { hash, expiresAt: deps.clock.now() + CODE_TTL_MS } });
  await sendMail(deps, p.user, 'additionalChallenge', { code, minutes: CODE_TTL_MS / 60_000 }, p.tenantId);
  return token;
}

const lockKey = (c: Challenge) => ({ key: `challenge:${c.id}`, max: MAX_CODE_ATTEMPTS, windowMs: CODE_TTL_MS });

async function pending(deps: Deps, token: string | undefined, hostTenantId: number | null) {
  const c = await findChallenge(deps, token, hostTenantId, 'additional_challenge');
  if (!c) throw new AppError('no-pending-login', 401);
  return c;
}

/** Checks the code; on success completes the challenge and returns its user and compliance. */
export async function verifyAdditionalChallenge(deps: Deps, token: string | undefined, hostTenantId: number | null, otp: string) {
  const { db, clock } = deps;
  const now = clock.now();
  const c = await pending(deps, token, hostTenantId);
  const wait = await retryAfter(db, lockKey(c), now);
  if (wait > 0) throw new AppError('locked-out', 429, { duration: wait });
  if (!c.codeHash || !c.codeExpiresAt || c.codeExpiresAt <= now) throw new AppError('additional-challenge-expired', 422);
  if (!safeEqual(sha256Hex(otp), c.codeHash)) {
    await hit(db, lockKey(c), now);
    throw new AppError('incorrect-additional-challenge', 422);
  }
  if (!(await completeChallenge(deps, c))) throw new AppError('no-pending-login', 401);
  const user = await db.select().from(users).where(eq(users.id, c.userId)).get();
  if (!user) throw new AppError('no-pending-login', 401);
  await rememberDevice(db, user.id, { device: c.deviceFingerprint!, network: c.networkFingerprint }, now);
  return { user, remember: c.remember, compliance: c.compliance as PasswordCompliance };
}

/** Sends a fresh code (the old one stops working) at most once a minute. */
export async function resendAdditionalChallenge(deps: Deps, token: string | undefined, hostTenantId: number | null): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const c = await pending(deps, token, hostTenantId);
  const since = now - (c.codeSentAt ?? 0);
  if (since < RESEND_COOLDOWN_S * 1000) {
    throw new AppError('too-many-attempts', 429, { duration: Math.ceil((RESEND_COOLDOWN_S * 1000 - since) / 1000) });
  }
  const user = await db.select().from(users).where(eq(users.id, c.userId)).get();
  if (!user) throw new AppError('no-pending-login', 401);
  const { code, hash } = newCode();
  await db.update(loginChallenges).set({ codeHash: hash, codeExpiresAt: now + CODE_TTL_MS, codeSentAt: now }).where(eq(loginChallenges.id, c.id));
  await sendMail(deps, user, 'additionalChallenge', { code, minutes: CODE_TTL_MS / 60_000 }, c.tenantId);
}
