// Password login (POST v2/login): the host's address rule first, limits reserved before the
// password is checked, uniform cost for unknown and known emails, then completeSignIn.
import { and, eq } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { knownDevices, users } from '../../db/schema';
import type { FreshTenant } from '../tenants/hosts';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import { clearStatement, refundStatement, reserve, type Limit } from '../security/limiter';
import { addressKey } from '../security/network';
import { sha256Hex } from '../security/tokens';
import { activeOnly, listMemberships } from '../tenants/memberships';
import { browserTokenFor, type BrowserCookies } from './known-browser';
import { applicablePolicy, passwordCompliance } from '../account/password-compliance';
import { assertHostAdmits, completeSignIn, type SignInOutcome } from './complete-sign-in';
import { type ClientInfo, deviceFingerprints } from './client';

/** Verified against when the email is unknown or has no password, so both paths cost one hash. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YCwCwlId9c/1gl2cYgH1eA$QIih8dGpmJvpSkraqzKaHcLxbFmfkKwL8KZnODR6HpE';

export const LOGIN_LIMITS = {
  /** Per email and address: the ordinary lock-out a person typing meets. */
  emailIp: { max: 5, windowMs: 5 * 60_000 },
  /** Per account from anywhere: slows distributed guessing against one person. A browser the
   *  person has signed in from counts in a bucket of its own, so this can never lock them out. */
  account: { max: 20, windowMs: 60 * 60_000 },
  /** Per address (IPv6: per /64) across emails: slows credential stuffing from one source. */
  ip: { max: 50, windowMs: 15 * 60_000 },
};

/** The three limits of one attempt; `knownDevice` is the fingerprint of a browser the account knows. */
export function loginLimits(email: string, ip: string | null, knownDevice: string | null = null): { emailIp: Limit; account: Limit; ip: Limit } {
  const addr = addressKey(ip);
  const acct = sha256Hex(email);
  return {
    emailIp: { key: `login:ei:${sha256Hex(`${email}|${addr}`)}`, ...LOGIN_LIMITS.emailIp },
    account: { key: knownDevice ? `login:acct:${acct}:${knownDevice}` : `login:acct:${acct}`, ...LOGIN_LIMITS.account },
    ip: { key: `login:ip:${addr}`, ...LOGIN_LIMITS.ip },
  };
}

export interface LoginRequest {
  email: string;
  password: string;
  remember: boolean;
  hostTenant: FreshTenant | null;
  client: ClientInfo;
  /** The browser's device cookies, for the additional-challenge rule and the lock-outs' own bucket. */
  browser: BrowserCookies;
  /** A "remember this device" cookie from an earlier one-time code, if any. */
  rememberedDeviceToken?: string;
}

export type LoginResult = SignInOutcome;

export async function login(deps: Deps, req: LoginRequest): Promise<LoginResult> {
  const { db, clock, passwords } = deps;
  const now = clock.now();
  const email = req.email.trim().toLowerCase();
  const tenantId = req.hostTenant?.id ?? null;
  // Outside the allowlist nothing is checked: the answer is the same for every password.
  await assertHostAdmits(deps, req.hostTenant, req.client);

  const user = await db.select().from(users).where(eq(users.email, email)).get();
  const device = deviceFingerprints(browserTokenFor(deps.config.DATA_ENCRYPTION_KEY, user?.id ?? null, req.browser), req.client.ip).device;
  const known = user
    ? await db.select({ userId: knownDevices.userId }).from(knownDevices).where(and(eq(knownDevices.userId, user.id), eq(knownDevices.fingerprint, device))).get()
    : undefined;
  const limits = loginLimits(email, req.client.ip, known ? device : null);
  // Counted before the password is verified: parallel guesses beyond the limit do no work.
  await reserve(db, [limits.emailIp, limits.account, limits.ip], now);

  const verdict = await passwords.verify(req.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || !verdict.ok) {
    await audit(
      db,
      { tenantId, actorUserId: user?.id ?? null, action: 'login.failed', ipAddress: req.client.ip, userAgent: req.client.userAgent, details: { email } },
      now,
    );
    throw new AppError('invalid-credentials');
  }
  // A right password ends the run of failures, and does not spend the address's budget.
  await db.batch([clearStatement(db, [limits.emailIp, limits.account]), refundStatement(db, [limits.ip], now)]);

  const memberships = await listMemberships(db, user.id);
  const policy = applicablePolicy(req.hostTenant, activeOnly(memberships).map((m) => m.tenant));
  const compliance = passwordCompliance(req.password, email, policy, user.passwordScore);
  if (verdict.needsRehash || user.passwordScore === null) {
    // Legacy hash, or a score never taken (imported accounts): store both once.
    const hash = verdict.needsRehash ? await passwords.hash(req.password) : user.passwordHash;
    await db.update(users).set({ passwordHash: hash, passwordScore: compliance.score, updatedAt: now }).where(eq(users.id, user.id));
  }
  return completeSignIn(deps, {
    user,
    via: 'password',
    hostTenant: req.hostTenant,
    client: req.client,
    remember: req.remember,
    compliance,
    browser: req.browser,
    rememberedDeviceToken: req.rememberedDeviceToken,
    memberships,
  });
}
