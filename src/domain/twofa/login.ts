// The second factor at login (spec 01 "One-time code and backup code", "Two-factor setup at
// login"): one-time codes, backup codes, remembered devices and tenant enforcement.
// Failures are counted per account across login attempts (a new login does not reset them).
import { and, count, eq, gt, isNull, or, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Deps } from '../../deps';
import { backupCodes, rememberedDevices, twofaPending, twofaSecrets, users, type Tenant, type User } from '../../db/schema';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import { clear, reserve, type Limit } from '../security/limiter';
import { decryptSecret } from '../security/secrets';
import { codeMacMatches } from '../security/keys';
import { randomToken, sha256Hex } from '../security/tokens';
import { codeGuessLimit, completeChallenge, createChallenge, findChallenge, replaceCode, type Challenge, type ChallengeKind } from '../sign-in/pending-logins';
import type { PasswordCompliance } from '../account/password-compliance';
import { listMemberships, type Membership } from '../tenants/memberships';
import { backupCodeHash, normaliseBackupCode, totpStep } from './codes';
import { enableTwofa, loadPending, pendingSetupDetails, requireMobile, sendSmsCode, startSetup } from './setup';
import { type ClientInfo, type Fingerprints } from '../sign-in/client';

export const REMEMBER_DEVICE_DAYS = 30;
export const MAX_FAILURES = 5;
export const LOCK_WINDOW_MS = 15 * 60_000;

/** One-time and backup code guesses, per account across its pending logins (reserved first). */
async function guessLimit(deps: Deps, c: Challenge): Promise<Limit> {
  const limit = await codeGuessLimit(deps, c, '2fa-login', MAX_FAILURES, LOCK_WINDOW_MS);
  await reserve(deps.db, [limit], deps.clock.now(), 'locked-out');
  return limit;
}

/** Whether the tenants being entered enforce two-factor, and whether they let the user skip. */
export function enforcement(hostTenant: Tenant | null, memberships: Membership[]): { enforced: boolean; skipAllowed: boolean } {
  const tenants = hostTenant ? [hostTenant] : memberships.filter((m) => m.member.deactivatedAt === null).map((m) => m.tenant);
  const enforcing = tenants.filter((t) => t.isFeatureTwofaEnforcementSubscribed && t.isTwofaEnforced);
  return { enforced: enforcing.length > 0, skipAllowed: enforcing.length > 0 && enforcing.every((t) => t.isTwofaSkipAllowed) };
}

/**
 * Whether a sign-in must set up two-factor now: the person has neither an authenticator or SMS
 * nor a passkey (user-verified, two factors: decision 0039) and a tenant being entered enforces
 * it without letting them skip. The sign-in asks for the setup by it; the lock-out preview counts
 * by it (decision 0043).
 */
export function mustSetUpTwofa(person: { twofaMethod: string | null; passkey: boolean }, enforced: { enforced: boolean; skipAllowed: boolean }, skipped: boolean): boolean {
  return !person.twofaMethod && !person.passkey && enforced.enforced && !(skipped && enforced.skipAllowed);
}

/** A remembered-device cookie of this user that has not expired. */
export async function isRememberedDevice(db: Db, userId: number, token: string | undefined, now: number): Promise<boolean> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
  const row = await db
    .select({ id: rememberedDevices.id })
    .from(rememberedDevices)
    .where(and(eq(rememberedDevices.tokenHash, sha256Hex(token)), eq(rememberedDevices.userId, userId), gt(rememberedDevices.expiresAt, now)))
    .get();
  return Boolean(row);
}

export async function rememberThisDevice(deps: Deps, user: User, agent: { device: string | null; os: string | null; browser: string | null }) {
  const now = deps.clock.now();
  const token = randomToken(32);
  const expiresAt = now + REMEMBER_DEVICE_DAYS * 86_400_000;
  await deps.db.insert(rememberedDevices).values({ id: randomToken(16), userId: user.id, tokenHash: sha256Hex(token), ...agent, expiresAt, createdAt: now });
  return { token, expiresAt };
}

interface StartArgs {
  user: User;
  tenantId: number | null;
  remember: boolean;
  compliance: PasswordCompliance | null;
  fingerprints: Fingerprints;
  client: ClientInfo;
  authenticatedAt: number;
}

/** The `enter-otp` step; SMS users get their code now. */
export async function startOtpChallenge(deps: Deps, p: StartArgs): Promise<string> {
  const token = await createChallenge(deps, { ...p, kind: 'otp' });
  if (p.user.twofaMethod === 'sms') {
    const c = await findChallenge(deps, token, p.tenantId, 'otp');
    try {
      await sendChallengeSms(deps, p.user, c!);
    } catch (e) {
      // The user can ask for another code from the code page; the login itself goes on.
      if (!(e instanceof AppError)) console.error(JSON.stringify({ level: 'error', event: 'sms.failed', error: String(e) }));
    }
  }
  return token;
}

/** The `enable-twofa` step (tenant enforcement). */
export function startEnableChallenge(deps: Deps, p: StartArgs): Promise<string> {
  return createChallenge(deps, { ...p, kind: 'enable_twofa' });
}

async function sendChallengeSms(deps: Deps, user: User, c: Challenge): Promise<void> {
  const secret = await deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, user.id)).get();
  if (!secret?.phoneE164) throw new AppError('no-sms-number');
  await sendSmsCode(
    deps,
    user,
    secret.phoneE164,
    c.tenantId,
    // A new code replaces the old one (once a minute); guesses stay counted.
    (hash, expiresAt, sentBefore) => replaceCode(deps, c, { hash, expiresAt }, sentBefore),
    c.codeSentAt,
  );
}

async function pending(deps: Deps, token: string | undefined, hostTenantId: number | null, kind: ChallengeKind) {
  const c = await findChallenge(deps, token, hostTenantId, kind);
  if (!c) throw new AppError('no-pending-login');
  const user = await deps.db.select().from(users).where(eq(users.id, c.userId)).get();
  if (!user) throw new AppError('no-pending-login');
  return { c, user };
}

async function fail(deps: Deps, c: Challenge, code: 'invalid-otp' | 'invalid-backup-code'): Promise<never> {
  await audit(deps.db, { tenantId: c.tenantId, actorUserId: c.userId, action: `login.${code}` }, deps.clock.now());
  throw new AppError(code);
}

/** What a finished pending login hands to completeSignIn. */
export function finishedLogin(c: Challenge, user: User) {
  return {
    user,
    remember: c.remember,
    compliance: (c.compliance as PasswordCompliance | null) ?? null,
    authenticatedAt: c.authenticatedAt ?? c.createdAt,
  };
}

async function finish(deps: Deps, c: Challenge, user: User, limit?: Limit) {
  if (!(await completeChallenge(deps, c))) throw new AppError('no-pending-login');
  if (limit) await clear(deps.db, [limit]);
  return finishedLogin(c, user);
}

/**
 * POST otp/verify: an authenticator code is accepted once (its time step must be newer than the
 * last accepted one: compare-and-set), an SMS code only for this login attempt and 10 minutes.
 */
export async function verifyLoginOtp(deps: Deps, token: string | undefined, hostTenantId: number | null, otp: string) {
  const { db, clock, config } = deps;
  const now = clock.now();
  const { c, user } = await pending(deps, token, hostTenantId, 'otp');
  const limit = await guessLimit(deps, c);
  const secret = await db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, user.id)).get();
  if (!secret) throw new AppError('no-pending-login');
  if (secret.method === 'app' && secret.secretCiphertext) {
    const step = await totpStep(decryptSecret(config.DATA_ENCRYPTION_KEY, secret.secretCiphertext), otp, now, secret.lastUsedStep);
    if (step === null) return fail(deps, c, 'invalid-otp');
    const claimed = await db
      .update(twofaSecrets)
      .set({ lastUsedStep: step })
      .where(and(eq(twofaSecrets.userId, user.id), or(isNull(twofaSecrets.lastUsedStep), lt(twofaSecrets.lastUsedStep, step))))
      .returning({ userId: twofaSecrets.userId });
    if (claimed.length !== 1) return fail(deps, c, 'invalid-otp');
  } else {
    const ok = /^[0-9]{6}$/.test(otp) && c.codeHash !== null && (c.codeExpiresAt ?? 0) > now && codeMacMatches(config.DATA_ENCRYPTION_KEY, `sms:${user.id}`, otp, c.codeHash);
    if (!ok) return fail(deps, c, 'invalid-otp');
  }
  return finish(deps, c, user, limit);
}

/** POST backup-code: each code works once (compare-and-set on the code row). */
export async function verifyLoginBackupCode(deps: Deps, token: string | undefined, hostTenantId: number | null, input: string) {
  const { db, clock, config } = deps;
  const { c, user } = await pending(deps, token, hostTenantId, 'otp');
  const limit = await guessLimit(deps, c);
  const code = normaliseBackupCode(input);
  if (!code) return fail(deps, c, 'invalid-backup-code');
  const used = await db
    .update(backupCodes)
    .set({ usedAt: clock.now() })
    .where(and(eq(backupCodes.userId, user.id), eq(backupCodes.codeHash, backupCodeHash(config.DATA_ENCRYPTION_KEY, user.id, code)), isNull(backupCodes.usedAt)))
    .returning({ id: backupCodes.id });
  if (used.length !== 1) return fail(deps, c, 'invalid-backup-code');
  const left = await db.select({ n: count() }).from(backupCodes).where(and(eq(backupCodes.userId, user.id), isNull(backupCodes.usedAt))).get();
  await audit(db, { tenantId: c.tenantId, actorUserId: user.id, action: 'login.backup_code_used', details: { left: left?.n ?? 0 } }, clock.now());
  return { ...(await finish(deps, c, user, limit)), backupCodesLeft: Number(left?.n ?? 0) };
}

/** POST otp/resend: a new SMS code for this login attempt (once a minute, limited per user/number/tenant). */
export async function resendLoginSms(deps: Deps, token: string | undefined, hostTenantId: number | null): Promise<void> {
  const { c, user } = await pending(deps, token, hostTenantId, 'otp');
  if (user.twofaMethod !== 'sms') throw new AppError('no-sms-number');
  await sendChallengeSms(deps, user, c);
}

/**
 * The pending login of the forced setup, while its person still has no second factor: one turned
 * on meanwhile (another sign-in, the account) is not replaced from a pending login that only
 * proved the password.
 */
async function forcedSetupLogin(deps: Deps, token: string | undefined, hostTenantId: number | null) {
  const p = await pending(deps, token, hostTenantId, 'enable_twofa');
  if (p.user.twofaMethod) throw new AppError('no-pending-login');
  return p;
}

/** POST setup-twofa-at-login/setup: starts the forced (authenticator) setup, once per call. */
export async function startLoginSetup(deps: Deps, token: string | undefined, hostTenantId: number | null) {
  const { user } = await forcedSetupLogin(deps, token, hostTenantId);
  return startSetup(deps, user, 'app');
}

/** GET setup-twofa-at-login/app: backup codes, manual code and QR of the started setup (read-only). */
export async function loginSetupDetails(deps: Deps, token: string | undefined, hostTenantId: number | null) {
  const { user } = await forcedSetupLogin(deps, token, hostTenantId);
  return pendingSetupDetails(deps, user);
}

/** POST setup-twofa-at-login/app {otp}: turns on app 2FA and completes the login. */
export async function enableAtLogin(deps: Deps, token: string | undefined, hostTenantId: number | null, otp: string) {
  const { c, user } = await forcedSetupLogin(deps, token, hostTenantId);
  await enableTwofa(deps, user, 'app', otp, c.tenantId, { onlyWithoutFactor: true });
  return finish(deps, c, { ...user, twofaMethod: 'app' });
}

/**
 * What an SMS code of the setup at login is bound to: this pending login, this started setup (a
 * new setup voids it) and the number it went to. The number is kept on the setup row, so a code
 * confirms a number only if it is still the one the code was sent to.
 */
export function loginSetupSmsSubject(userId: number, challengeId: string, setupCreatedAt: number, phone: string): string {
  return `sms-setup:${userId}:${challengeId}:${setupCreatedAt}:${phone}`;
}

/** The pending login in the forced-setup state, and the setup it started (backup codes shown). */
async function startedLoginSetup(deps: Deps, token: string | undefined, hostTenantId: number | null) {
  const { c, user } = await forcedSetupLogin(deps, token, hostTenantId);
  const setup = await loadPending(deps, user.id);
  if (!setup?.backupCodeHashes?.length) throw new AppError('no-pending-setup');
  return { c, user, setup };
}

/**
 * Sends the setup's SMS code to `phone`. The code is kept on the pending login (one a minute per
 * pending login, by compare-and-set on its row); the hourly limits per user, number and tenant
 * are the account's (sendSmsCode). Only after the claim is the number written to the setup, so a
 * refused send changes nothing.
 */
async function sendLoginSetupCode(deps: Deps, c: Challenge, user: User, setup: { createdAt: number }, phone: string): Promise<void> {
  await sendSmsCode(
    deps,
    user,
    phone,
    c.tenantId,
    async (hash, expiresAt, sentBefore) => {
      if (!(await replaceCode(deps, c, { hash, expiresAt }, sentBefore))) return false;
      await deps.db
        .update(twofaPending)
        .set({ phoneE164: phone })
        .where(and(eq(twofaPending.userId, user.id), eq(twofaPending.createdAt, setup.createdAt)));
      return true;
    },
    c.codeSentAt,
    loginSetupSmsSubject(user.id, c.id, setup.createdAt, phone),
  );
}

/** POST setup-twofa-at-login/sms/otp {contact}: the number to set up at login, and a code sent to it. */
export async function sendLoginSetupSms(deps: Deps, token: string | undefined, hostTenantId: number | null, contact: string): Promise<void> {
  const { c, user, setup } = await startedLoginSetup(deps, token, hostTenantId);
  const phone = requireMobile(contact);
  await sendLoginSetupCode(deps, c, user, setup, phone);
}

/** POST setup-twofa-at-login/sms/otp/resend: a new code to the number this setup sent one to. */
export async function resendLoginSetupSms(deps: Deps, token: string | undefined, hostTenantId: number | null): Promise<void> {
  const { c, user, setup } = await startedLoginSetup(deps, token, hostTenantId);
  // Only after a first send from this pending login, to the number it sent to.
  if (!setup.phoneE164 || c.codeSentAt === null) throw new AppError('no-pending-setup');
  await sendLoginSetupCode(deps, c, user, setup, setup.phoneE164);
}

/**
 * POST setup-twofa-at-login/sms {otp}: the code sent by this pending login to the setup's number
 * turns SMS 2FA on (the number becomes the user's only now) and completes the login. Wrong codes
 * count toward the same lock-out as the authenticator's (enableTwofa).
 */
export async function enableSmsAtLogin(deps: Deps, token: string | undefined, hostTenantId: number | null, otp: string) {
  const { c, user } = await forcedSetupLogin(deps, token, hostTenantId);
  const { contactNumber } = await enableTwofa(deps, user, 'sms', otp, c.tenantId, {
    onlyWithoutFactor: true,
    smsCodeOf: (setup) => ({ hash: c.codeHash, expiresAt: c.codeExpiresAt, subject: loginSetupSmsSubject(user.id, c.id, setup.createdAt, setup.phoneE164 ?? '') }),
  });
  return finish(deps, c, { ...user, twofaMethod: 'sms', contactNumber });
}

/** POST setup-twofa-at-login/skip: only where every enforcing tenant allows skipping. */
export async function skipSetupAtLogin(deps: Deps, token: string | undefined, hostTenant: Tenant | null) {
  const { c, user } = await pending(deps, token, hostTenant?.id ?? null, 'enable_twofa');
  if (!enforcement(hostTenant, await listMemberships(deps.db, user.id)).skipAllowed) throw new AppError('skip-not-allowed');
  await audit(deps.db, { tenantId: c.tenantId, actorUserId: user.id, action: 'twofa.setup_skipped' }, deps.clock.now());
  return finish(deps, c, user);
}

