// The additional challenge (spec 01 "Additional challenge"): a password login from a device and
// a network this user has never signed in from gets a 6-digit code by mail (10 minutes, single
// use, bound to that login attempt). Rule and limits: docs/decisions/0005-additional-challenge.md.
import { count, eq, inArray, sql } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { knownDevices, users, type User } from '../../db/schema';
import { AppError } from '../errors';
import { sendMail } from '../mail/messages';
import { clear, refund, reserve } from '../security/limiter';
import { codeMac, codeMacMatches } from '../security/keys';
import { codeGuessLimit, completeChallenge, createChallenge, findChallenge, replaceCode } from './pending-logins';
import type { PasswordCompliance } from '../account/password-compliance';
import { type ClientInfo, type Fingerprints } from './client';

export const CODE_TTL_MS = 10 * 60_000;
export const RESEND_COOLDOWN_S = 60;
/** Wrong codes allowed per account (across its pending logins) before it locks for a window. */
export const MAX_CODE_ATTEMPTS = 5;
/** Code mails per account per hour (first sends and resends together). */
export const CODE_MAILS_PER_HOUR = 10;

const mailLimit = (userId: number) => ({ key: `code-mail:${userId}`, max: CODE_MAILS_PER_HOUR, windowMs: 3_600_000 });

/** True when the device or the network is one the user signed in from, or on a first sign-in. */
export async function isKnownDevice(db: Db, userId: number, f: Fingerprints): Promise<boolean> {
  const prints = [f.device, ...(f.network ? [f.network] : [])];
  // One statement: how many the user has at all, and how many of them are these.
  const row = await db
    .select({ all: count(), hits: count(sql`case when ${inArray(knownDevices.fingerprint, prints)} then 1 end`) })
    .from(knownDevices)
    .where(eq(knownDevices.userId, userId))
    .get();
  return (row?.all ?? 0) === 0 || (row?.hits ?? 0) > 0;
}

/** The statement that records the device and network as known (to batch with the session's writes). */
export function rememberDeviceStatement(db: Db, userId: number, f: Fingerprints, now: number) {
  const rows = [f.device, ...(f.network ? [f.network] : [])].map((fingerprint) => ({ userId, fingerprint, lastSeenAt: now }));
  return db.insert(knownDevices).values(rows).onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.fingerprint], set: { lastSeenAt: now } });
}

export async function rememberDevice(db: Db, userId: number, f: Fingerprints, now: number): Promise<void> {
  await rememberDeviceStatement(db, userId, f, now);
}

/** A six-digit code and its stored form: an HMAC under a derived key (decision 0026). */
function newCode(deps: Deps, userId: number) {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { code, hash: codeMac(deps.config.DATA_ENCRYPTION_KEY, `email-code:${userId}`, code) };
}

export async function startAdditionalChallenge(
  deps: Deps,
  p: { user: User; tenantId: number | null; remember: boolean; compliance: PasswordCompliance | null; fingerprints: Fingerprints; client: ClientInfo; authenticatedAt: number },
): Promise<string> {
  await reserve(deps.db, [mailLimit(p.user.id)], deps.clock.now());
  const { code, hash } = newCode(deps, p.user.id);
  const token = await createChallenge(deps, { ...p, kind: 'additional_challenge', code: { hash, expiresAt: deps.clock.now() + CODE_TTL_MS } });
  await sendMail(deps, p.user, 'additionalChallenge', { code, minutes: CODE_TTL_MS / 60_000 }, p.tenantId);
  return token;
}

async function pending(deps: Deps, token: string | undefined, hostTenantId: number | null) {
  const c = await findChallenge(deps, token, hostTenantId, 'additional_challenge');
  if (!c) throw new AppError('no-pending-login');
  return c;
}

/** Checks the code; on success completes the challenge and returns its user and compliance. */
export async function verifyAdditionalChallenge(deps: Deps, token: string | undefined, hostTenantId: number | null, otp: string) {
  const { db, clock } = deps;
  const now = clock.now();
  const c = await pending(deps, token, hostTenantId);
  if (!c.codeHash || !c.codeExpiresAt || c.codeExpiresAt <= now) throw new AppError('additional-challenge-expired');
  const limit = await codeGuessLimit(deps, c, 'email-code', MAX_CODE_ATTEMPTS, CODE_TTL_MS);
  await reserve(db, [limit], now, 'locked-out');
  if (!codeMacMatches(deps.config.DATA_ENCRYPTION_KEY, `email-code:${c.userId}`, otp, c.codeHash)) throw new AppError('incorrect-additional-challenge');
  if (!(await completeChallenge(deps, c))) throw new AppError('no-pending-login');
  await clear(db, [limit]);
  const user = await db.select().from(users).where(eq(users.id, c.userId)).get();
  if (!user) throw new AppError('no-pending-login');
  await rememberDevice(db, user.id, { device: c.deviceFingerprint!, network: c.networkFingerprint }, now);
  return { user, remember: c.remember, compliance: (c.compliance as PasswordCompliance | null) ?? null, authenticatedAt: c.authenticatedAt ?? c.createdAt };
}

/**
 * Sends a fresh code (the old one stops working) at most once a minute: the cooldown is a
 * compare-and-set on the challenge row, so parallel resends send one mail.
 */
export async function resendAdditionalChallenge(deps: Deps, token: string | undefined, hostTenantId: number | null): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const c = await pending(deps, token, hostTenantId);
  const user = await db.select().from(users).where(eq(users.id, c.userId)).get();
  if (!user) throw new AppError('no-pending-login');
  await reserve(db, [mailLimit(user.id)], now);
  const { code, hash } = newCode(deps, user.id);
  const cooledDown = now - RESEND_COOLDOWN_S * 1000;
  if (!(await replaceCode(deps, c, { hash, expiresAt: now + CODE_TTL_MS }, cooledDown))) {
    await refund(db, [mailLimit(user.id)], now);
    throw new AppError('too-many-attempts', { duration: Math.max(1, Math.ceil(((c.codeSentAt ?? now) - cooledDown) / 1000)) });
  }
  await sendMail(deps, user, 'additionalChallenge', { code, minutes: CODE_TTL_MS / 60_000 }, c.tenantId);
}
