// Setting up and turning off two-factor authentication (spec 01 "Two-factor setup"), in the
// account (behind a fresh password check) and during a forced setup at login. A setup is a
// pending row; nothing changes for the user until a code from the new factor is confirmed.
import { and, eq, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Deps } from '../../deps';
import { backupCodes, rememberedDevices, sessions, twofaPending, twofaSecrets, users, type Session, type User } from '../../db/schema';
import { productName, smsCodeText } from '../mail/messages';
import { AppError, text, ValidationError } from '../errors';
import { auditInsert } from '../audit/log';
import { clear, refund, reserve } from '../security/limiter';
import { decryptSecret, encryptSecret } from '../security/secrets';
import { codeMac, codeMacMatches } from '../security/keys';
import { sha256Hex } from '../security/tokens';
import { backupCodeHash, formatBackupCode, newBackupCodes, newSmsCode, newTotpSecret, otpauthUri, qrDataUrl, totpStep } from './codes';

export const PENDING_TTL_MS = 30 * 60_000;
export const PASSWORD_CHECK_TTL_MS = 15 * 60_000;
export const SMS_CODE_TTL_MS = 10 * 60_000;
export const SMS_RESEND_COOLDOWN_S = 60;

export type Method = 'app' | 'sms';
type Pending = typeof twofaPending.$inferSelect;

/** POST password/verify: the password re-entry that opens the account's 2FA screens. */
export async function verifyPasswordForSetup(deps: Deps, user: User, session: Session, password: string): Promise<void> {
  const { db, clock, passwords } = deps;
  const now = clock.now();
  const limit = { key: `verify-password:${user.id}`, max: 5, windowMs: 15 * 60_000 };
  await reserve(db, [limit], now);
  const ok = user.passwordHash ? (await passwords.verify(password, user.passwordHash)).ok : false;
  if (!ok) throw new AppError('wrong_password');
  await clear(db, [limit]);
  await db.update(sessions).set({ passwordVerifiedAt: now }).where(eq(sessions.id, session.id));
}

/** The account 2FA calls need a password check in this session within the last 15 minutes. */
export function assertRecentPassword(session: Session, now: number): void {
  if (!session.passwordVerifiedAt || now - session.passwordVerifiedAt > PASSWORD_CHECK_TTL_MS) {
    throw new AppError('password-verification-required');
  }
}

/** The user's started setup, if it has not expired. */
export async function loadPending(deps: Deps, userId: number): Promise<Pending | null> {
  const row = await deps.db.select().from(twofaPending).where(eq(twofaPending.userId, userId)).get();
  return row && row.expiresAt > deps.clock.now() ? row : null;
}

async function savePending(deps: Deps, userId: number, set: Partial<typeof twofaPending.$inferInsert>): Promise<void> {
  const now = deps.clock.now();
  const existing = await loadPending(deps, userId);
  const base = existing ? {} : { method: null, secretCiphertext: null, phoneE164: null, backupCodeHashes: null, backupCodesCiphertext: null, smsCodeHash: null, smsCodeExpiresAt: null, smsSentAt: null };
  await deps.db
    .insert(twofaPending)
    .values({ userId, ...base, ...set, expiresAt: now + PENDING_TTL_MS, createdAt: now })
    .onConflictDoUpdate({ target: twofaPending.userId, set: { ...base, ...set, expiresAt: now + PENDING_TTL_MS } });
}

export interface SetupDetails {
  backupCodes: string[];
  /** Authenticator setups only: the secret as the person types it, and as a QR code. */
  manualCode: string | null;
  qrCode: string | null;
  /** The same secret as an otpauth:// link, which a phone hands to its authenticator app. */
  otpauthUrl: string | null;
}

/**
 * POST twofa/setup (and setup-twofa-at-login/setup): starts a setup, replacing any earlier one,
 * with new backup codes and, for an authenticator, a new secret, all made here once. The GETs
 * that show them only read this setup, so a cross-site navigation can replace nothing and the QR
 * code and the key typed by hand are always the one stored secret.
 */
export async function startSetup(deps: Deps, user: User, method: Method): Promise<SetupDetails> {
  const key = deps.config.DATA_ENCRYPTION_KEY;
  const codes = newBackupCodes();
  const secret = method === 'app' ? newTotpSecret() : null;
  const now = deps.clock.now();
  const row = {
    method,
    secretCiphertext: secret ? encryptSecret(key, secret) : null,
    phoneE164: null,
    backupCodeHashes: codes.map((c) => backupCodeHash(key, user.id, c)),
    backupCodesCiphertext: encryptSecret(key, JSON.stringify(codes)),
    smsCodeHash: null,
    smsCodeExpiresAt: null,
    smsSentAt: null,
    expiresAt: now + PENDING_TTL_MS,
  };
  await deps.db.insert(twofaPending).values({ userId: user.id, ...row, createdAt: now }).onConflictDoUpdate({ target: twofaPending.userId, set: { ...row, createdAt: now } });
  return describeSetup(user, codes, secret);
}

async function describeSetup(user: User, codes: string[], secret: string | null): Promise<SetupDetails> {
  const issuer = productName(user);
  const uri = secret ? otpauthUri(secret, user.email, issuer) : null;
  return {
    backupCodes: codes.map(formatBackupCode),
    manualCode: secret ? secret.replace(/(.{4})/g, '$1 ').trim() : null,
    qrCode: uri ? await qrDataUrl(uri) : null,
    otpauthUrl: uri,
  };
}

/** GET twofa/backup-codes, twofa/app/qr, twofa/app/manual-code: what the started setup holds. */
export async function pendingSetupDetails(deps: Deps, user: User): Promise<SetupDetails> {
  const key = deps.config.DATA_ENCRYPTION_KEY;
  const pending = await loadPending(deps, user.id);
  if (!pending?.backupCodesCiphertext) throw new AppError('no-pending-setup');
  const codes = JSON.parse(decryptSecret(key, pending.backupCodesCiphertext)) as string[];
  const secret = pending.method === 'app' && pending.secretCiphertext ? decryptSecret(key, pending.secretCiphertext) : null;
  return describeSetup(user, codes, secret);
}

/** A mobile number in E.164 (libphonenumber-js with full metadata), or null. */
export function mobileE164(contact: string): string | null {
  const n = parsePhoneNumberFromString(contact);
  if (!n?.isValid()) return null;
  const type = n.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE' ? n.number : null;
}

/**
 * Stores a new code where it belongs if the last one was sent at least a minute ago (or never):
 * a compare-and-set, so parallel requests send one SMS. False: still cooling down.
 */
export type SmsClaim = (hash: string, expiresAt: number, sentBefore: number) => Promise<boolean>;

/** What an SMS code is bound to (its MAC's subject), unless the caller binds it tighter. */
export const smsSubject = (userId: number) => `sms:${userId}`;

/**
 * Sends an SMS code (10 minutes). Limits, reserved before sending: 5 an hour per user, per number
 * and 100 an hour per tenant (toll fraud); then one a minute by compare-and-set on the row that
 * holds the code. Answers the seconds to wait when limited. `subject` is what the stored MAC binds
 * the code to (the setup at login binds it to the pending login and the number too).
 */
export async function sendSmsCode(deps: Deps, user: User, phone: string, tenantId: number | null, claim: SmsClaim, lastSentAt: number | null, subject = smsSubject(user.id)): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const limits = [
    { key: `sms:user:${user.id}`, max: 5, windowMs: 3_600_000 },
    { key: `sms:number:${sha256Hex(phone)}`, max: 5, windowMs: 3_600_000 },
    { key: `sms:tenant:${tenantId ?? 'none'}`, max: 100, windowMs: 3_600_000 },
  ];
  await reserve(db, limits, now, 'Too Many Attempts.');
  const code = newSmsCode();
  const cooldownMs = SMS_RESEND_COOLDOWN_S * 1000;
  if (!(await claim(codeMac(deps.config.DATA_ENCRYPTION_KEY, subject, code), now + SMS_CODE_TTL_MS, now - cooldownMs))) {
    await refund(db, limits, now);
    throw new AppError('Too Many Attempts.', { duration: Math.max(1, Math.ceil(((lastSentAt ?? now) + cooldownMs - now) / 1000)) });
  }
  await deps.sms.send({ to: phone, body: smsCodeText(user, code, SMS_CODE_TTL_MS / 60_000), tenantId });
}

/** The number an SMS setup sends to, as E.164; else the spec's "invalid mobile" on `contact`. */
export function requireMobile(contact: string): string {
  const phone = mobileE164(contact);
  if (!phone) throw new ValidationError({ contact: [text('validation.invalidMobile')] });
  return phone;
}

/** POST twofa/sms/otp {contact}: the number to set up, and a code sent to it. */
export async function setupSms(deps: Deps, user: User, contact: string, tenantId: number | null): Promise<void> {
  const phone = requireMobile(contact);
  // The row exists first, so the cooldown can be one compare-and-set on it; another number may
  // be sent to at once (the hourly limits still hold).
  const before = await loadPending(deps, user.id);
  if (!before) await savePending(deps, user.id, { method: 'sms' });
  await sendSmsCode(deps, user, phone, tenantId, (hash, expiresAt, sentBefore) =>
    claimPendingSms(deps, user.id, { method: 'sms', phoneE164: phone, smsCodeHash: hash, smsCodeExpiresAt: expiresAt, smsSentAt: deps.clock.now() }, sentBefore, phone),
    before?.phoneE164 === phone ? before.smsSentAt : null);
}

async function claimPendingSms(deps: Deps, userId: number, set: Partial<typeof twofaPending.$inferInsert>, sentBefore: number, phone: string | null): Promise<boolean> {
  const done = await deps.db
    .update(twofaPending)
    .set(set)
    .where(
      and(
        eq(twofaPending.userId, userId),
        or(isNull(twofaPending.smsSentAt), lte(twofaPending.smsSentAt, sentBefore), phone === null ? undefined : ne(twofaPending.phoneE164, phone), phone === null ? undefined : isNull(twofaPending.phoneE164)),
      ),
    )
    .returning({ userId: twofaPending.userId });
  return done.length === 1;
}

/** POST twofa/sms/otp/resend: a new code to the number of this setup. */
export async function resendSetupSms(deps: Deps, user: User, tenantId: number | null): Promise<void> {
  const pending = await loadPending(deps, user.id);
  if (pending?.method !== 'sms' || !pending.phoneE164) throw new AppError('no-pending-setup');
  await sendSmsCode(deps, user, pending.phoneE164, tenantId, (hash, expiresAt, sentBefore) =>
    claimPendingSms(deps, user.id, { smsCodeHash: hash, smsCodeExpiresAt: expiresAt, smsSentAt: deps.clock.now() }, sentBefore, null),
    pending.smsSentAt);
}

/** Where the SMS code that confirms a setup is kept: the setup row (account) or the pending login. */
export type SmsCodeOf = (pending: Pending) => { hash: string | null; expiresAt: number | null; subject: string };
const accountSmsCode: SmsCodeOf = (p) => ({ hash: p.smsCodeHash, expiresAt: p.smsCodeExpiresAt, subject: smsSubject(p.userId) });

/**
 * POST twofa/{method} {otp}: confirms the setup with a code from the new factor, then replaces
 * the user's factor and backup codes, and voids remembered devices, in one batch. The factor is
 * the one the code came from: the setup's authenticator secret, or the number its SMS went to
 * (bound to the user only here, on success). `smsCodeOf` says where that SMS code is kept.
 */
export async function enableTwofa(
  deps: Deps,
  user: User,
  method: Method,
  otp: string,
  tenantId: number | null,
  opts: { smsCodeOf?: SmsCodeOf; onlyWithoutFactor?: boolean } = {},
): Promise<{ contactNumber: string | null }> {
  const smsCodeOf = opts.smsCodeOf ?? accountSmsCode;
  const { db, clock, config } = deps;
  const now = clock.now();
  const limit = { key: `2fa-setup:${user.id}`, max: 5, windowMs: 15 * 60_000 };
  await reserve(db, [limit], now, 'locked-out');
  const pending = await loadPending(deps, user.id);
  // The setup holds what the method needs: a secret for the app, a number for SMS. (The setup at
  // login makes a secret and may add a number: either method then confirms it.)
  const material = method === 'app' ? pending?.secretCiphertext : pending?.phoneE164;
  if (!pending || !material || !pending.backupCodeHashes?.length) throw new AppError('no-pending-setup');

  let step: number | null = null;
  let ok = false;
  if (method === 'app' && pending.secretCiphertext) {
    step = await totpStep(decryptSecret(config.DATA_ENCRYPTION_KEY, pending.secretCiphertext), otp, now, null);
    ok = step !== null;
  } else if (method === 'sms') {
    const sms = smsCodeOf(pending);
    ok = /^[0-9]{6}$/.test(otp) && sms.hash !== null && (sms.expiresAt ?? 0) > now && codeMacMatches(config.DATA_ENCRYPTION_KEY, sms.subject, otp, sms.hash);
  }
  if (!ok) throw new AppError('invalid-otp');
  await clear(db, [limit]);
  // The pending row is consumed by compare-and-set: one enable per setup. At login (a pending login
  // proves only the password) the same statement also requires that the person still has no factor.
  const noFactor = opts.onlyWithoutFactor ? sql`not exists (select 1 from ${users} where ${users.id} = ${user.id} and ${users.twofaMethod} is not null)` : undefined;
  const claimed = await db
    .delete(twofaPending)
    .where(and(eq(twofaPending.userId, user.id), eq(twofaPending.createdAt, pending.createdAt), noFactor))
    .returning({ userId: twofaPending.userId });
  if (claimed.length !== 1) throw new AppError('no-pending-setup');
  await db.batch([
    db.delete(twofaSecrets).where(eq(twofaSecrets.userId, user.id)),
    db.insert(twofaSecrets).values({ userId: user.id, method, secretCiphertext: method === 'app' ? pending.secretCiphertext : null, phoneE164: method === 'sms' ? pending.phoneE164 : null, lastUsedStep: step, confirmedAt: now, createdAt: now }),
    db.delete(backupCodes).where(eq(backupCodes.userId, user.id)),
    db.insert(backupCodes).values(pending.backupCodeHashes.map((codeHash) => ({ userId: user.id, codeHash, createdAt: now }))),
    db.delete(rememberedDevices).where(eq(rememberedDevices.userId, user.id)),
    db.update(users).set({ twofaMethod: method, ...(method === 'sms' ? { contactNumber: pending.phoneE164 } : {}), updatedAt: now }).where(eq(users.id, user.id)),
    auditInsert(db, { tenantId, actorUserId: user.id, action: 'twofa.enabled', details: { method } }, now),
  ]);
  return { contactNumber: method === 'sms' ? pending.phoneE164 : user.contactNumber };
}

/** DELETE twofa: removes the factor, the backup codes and every remembered device. */
export async function disableTwofa(deps: Deps, user: User, tenantId: number | null): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  await db.batch([
    db.delete(twofaSecrets).where(eq(twofaSecrets.userId, user.id)),
    db.delete(backupCodes).where(eq(backupCodes.userId, user.id)),
    db.delete(rememberedDevices).where(eq(rememberedDevices.userId, user.id)),
    db.delete(twofaPending).where(eq(twofaPending.userId, user.id)),
    db.update(users).set({ twofaMethod: null, updatedAt: now }).where(eq(users.id, user.id)),
    auditInsert(db, { tenantId, actorUserId: user.id, action: 'twofa.disabled' }, now),
  ]);
}

/**
 * POST twofa/backup-codes/regenerate (decision 0033): five new backup codes for an account whose
 * two-factor is on, with the password typed again (the same check and limit as verify-password).
 * The old codes stop working in the same batch that stores the new ones; the audit log records it.
 * Answers the new codes, shown once.
 */
export async function regenerateBackupCodes(deps: Deps, user: User, session: Session, password: string, tenantId: number | null): Promise<string[]> {
  if (!user.twofaMethod) throw new AppError('not-applicable');
  await verifyPasswordForSetup(deps, user, session, password);
  const { db, clock, config } = deps;
  const now = clock.now();
  const codes = newBackupCodes();
  await db.batch([
    db.delete(backupCodes).where(eq(backupCodes.userId, user.id)),
    db.insert(backupCodes).values(codes.map((c) => ({ userId: user.id, codeHash: backupCodeHash(config.DATA_ENCRYPTION_KEY, user.id, c), createdAt: now }))),
    auditInsert(db, { tenantId, actorUserId: user.id, action: 'twofa.backup_codes_regenerated' }, now),
  ]);
  return codes.map(formatBackupCode);
}
