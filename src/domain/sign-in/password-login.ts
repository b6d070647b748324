// Password login (POST v2/login): the host's address rule first, limits reserved before the
// password is checked, uniform cost for unknown and known emails, then completeSignIn.
import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import type { BatchRead as BatchItem } from '../../db/client';
import { knownDevices, rememberedDevices, users } from '../../db/schema';
import type { FreshTenant } from '../tenants/hosts';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import { clearStatement, refundStatement, reserved, reserveStatements, type Limit } from '../security/limiter';
import { addressKey } from '../security/network';
import { sha256Hex } from '../security/tokens';
import { activeOnly, membershipsRead } from '../tenants/memberships';
import { knownBrowserClaim, type BrowserCookies } from './known-browser';
import { applicablePolicy, passwordCompliance } from '../account/password-compliance';
import { packTraits, passwordTraits } from '../../shared/account/password-policy';
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

/** The three limits of one attempt (the account's, for a browser it does not know). */
export function loginLimits(email: string, ip: string | null): { emailIp: Limit; account: Limit; ip: Limit } {
  const addr = addressKey(ip);
  const acct = sha256Hex(email);
  return {
    emailIp: { key: `login:ei:${sha256Hex(`${email}|${addr}`)}`, ...LOGIN_LIMITS.emailIp },
    account: { key: `login:acct:${acct}`, ...LOGIN_LIMITS.account },
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

/**
 * Three round trips in all, whatever the outcome (issue 23): the request's host (read by the
 * middleware), then one batch that reads the account, its memberships and what the account knows
 * of this browser and counts the attempt against every limit, then one batch that writes the
 * result (the failure's audit entry, or the limits' clear and refund with the session). A host
 * with an address allowlist reads it first, so nothing is counted for a client it refuses.
 */
export async function login(deps: Deps, req: LoginRequest): Promise<LoginResult> {
  const { db, clock, passwords, config } = deps;
  const now = clock.now();
  const email = req.email.trim().toLowerCase();
  const tenantId = req.hostTenant?.id ?? null;
  // Outside the allowlist nothing is checked: the answer is the same for every password.
  await assertHostAdmits(deps, req.hostTenant, req.client);

  // The account is not known yet: every read of the batch names it by its address, and the
  // browser's device fingerprint is chosen in SQL the way browserTokenFor chooses it in code.
  const account = sql`(select ${users.id} from ${users} where ${users.email} = ${email})`;
  const claim = knownBrowserClaim(config.DATA_ENCRYPTION_KEY, req.browser);
  const own = deviceFingerprints(req.browser.device, req.client.ip);
  const claimed = claim ? deviceFingerprints(claim.token, req.client.ip) : null;
  const device = claim && claimed ? sql`case when ${account} = ${claim.userId} then ${claimed.device} else ${own.device} end` : sql`${own.device}`;
  const limits = loginLimits(email, req.client.ip);
  const counted: [Limit, Limit, Limit] = [
    limits.emailIp,
    // A browser the account knows has its own bucket (the key names the device).
    { ...limits.account, choose: { when: sql`exists (select 1 from ${knownDevices} where ${knownDevices.userId} = ${account} and ${knownDevices.fingerprint} = ${device})`, key: sql`${`${limits.account.key}:`} || ${device}` } },
    limits.ip,
  ];
  const prints = [own.device, ...(claimed ? [claimed.device] : []), ...(own.network ? [own.network] : [])];
  const remembered = req.rememberedDeviceToken && /^[A-Za-z0-9_-]{43}$/.test(req.rememberedDeviceToken) ? sha256Hex(req.rememberedDeviceToken) : null;
  const [found, memberRows, owned, matches, rememberedRows, ...counts] = await db.batch([
    db.select().from(users).where(eq(users.email, email)),
    membershipsRead(db, account).reads.rows,
    db.select({ n: count() }).from(knownDevices).where(eq(knownDevices.userId, account)),
    db.select({ fingerprint: knownDevices.fingerprint }).from(knownDevices).where(and(eq(knownDevices.userId, account), inArray(knownDevices.fingerprint, prints))),
    db
      .select({ id: rememberedDevices.id })
      .from(rememberedDevices)
      .where(and(eq(rememberedDevices.tokenHash, remembered ?? ''), eq(rememberedDevices.userId, account), gt(rememberedDevices.expiresAt, now))),
    ...reserveStatements(db, counted, now),
  ]);
  // Counted before the password is verified: parallel guesses beyond the limit do no work.
  const [emailIp, accountLimit, ipLimit] = reserved(counted, counts, now) as [Limit, Limit, Limit];

  const user = found[0];
  const verdict = await passwords.verify(req.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || !verdict.ok) {
    await audit(
      db,
      { tenantId, actorUserId: user?.id ?? null, action: 'login.failed', ipAddress: req.client.ip, userAgent: req.client.userAgent, details: { email } },
      now,
    );
    throw new AppError('invalid-credentials');
  }
  const memberships = membershipsRead(db, user.id).shape({ rows: memberRows });
  const policy = applicablePolicy(req.hostTenant, activeOnly(memberships).map((m) => m.tenant));
  const compliance = passwordCompliance(req.password, email, policy, user.passwordScore);
  // A right password ends the run of failures, and does not spend the address's budget: written
  // with the session (or whatever the sign-in leads to).
  const writes: BatchItem[] = [clearStatement(db, [emailIp, accountLimit]), refundStatement(db, [ipLimit], now)];
  if (verdict.needsRehash || user.passwordScore === null || user.passwordTraits === null) {
    // Legacy hash, or a score or traits never taken (imported accounts, passwords set before
    // traits were kept, decision 0043): store them once.
    const hash = verdict.needsRehash ? await passwords.hash(req.password) : user.passwordHash;
    writes.push(db.update(users).set({ passwordHash: hash, passwordScore: compliance.score, passwordTraits: packTraits(passwordTraits(req.password)), updatedAt: now }).where(eq(users.id, user.id)));
  }
  // What the account knows of this browser, as isKnownDevice and isRememberedDevice would answer.
  const fingerprints = claim && claimed && claim.userId === user.id ? claimed : own;
  const hits = matches.filter((m) => m.fingerprint === fingerprints.device || m.fingerprint === fingerprints.network).length;
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
    known: { device: (owned[0]?.n ?? 0) === 0 || hits > 0, rememberedDevice: rememberedRows.length > 0, hostAdmitted: true },
    writes,
  });
}
