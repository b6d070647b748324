// Password login (POST v2/login): throttles held in the database, uniform timing for unknown and
// known emails, membership/deactivation/IP rules, then a session or a pending challenge.
import { eq } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { users, type Tenant, type User } from '../../db/schema';
import { AppError } from '../errors';
import { audit } from '../audit/log';
import { clear, hit, longestRetryAfter, type Limit } from '../security/throttle';
import { sha256Hex } from '../security/tokens';
import { activeOnly, listMemberships, type Membership } from '../tenants/memberships';
import { startAdditionalChallenge, deviceFingerprints, isKnownDevice, rememberDevice } from './additional-challenge';
import { enforcement, isRememberedDevice, startEnableChallenge, startOtpChallenge } from '../twofa/login';
import { applicablePolicy, passwordCompliance, type PasswordCompliance } from './compliance';
import { checkEntry, startSession, type ClientInfo } from './sign-in';

/** Verified against when the email is unknown or has no password, so both paths cost one hash. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YCwCwlId9c/1gl2cYgH1eA$QIih8dGpmJvpSkraqzKaHcLxbFmfkKwL8KZnODR6HpE';

export const LOGIN_LIMITS = {
  /** Per email and address: the ordinary lock-out a person typing meets. */
  emailIp: { max: 5, windowMs: 5 * 60_000 },
  /** Per account from anywhere: slows distributed guessing against one person. */
  account: { max: 20, windowMs: 60 * 60_000 },
  /** Per address across emails: slows credential stuffing from one source. */
  ip: { max: 50, windowMs: 15 * 60_000 },
};

export function loginLimits(email: string, ip: string | null): Limit[] {
  const addr = ip ?? 'unknown';
  return [
    { key: `login:ei:${sha256Hex(`${email}|${addr}`)}`, ...LOGIN_LIMITS.emailIp },
    { key: `login:acct:${sha256Hex(email)}`, ...LOGIN_LIMITS.account },
    { key: `login:ip:${addr}`, ...LOGIN_LIMITS.ip },
  ];
}

export interface LoginRequest {
  email: string;
  password: string;
  remember: boolean;
  hostTenant: Tenant | null;
  client: ClientInfo;
  /** The browser's long-lived device cookie, for the additional-challenge rule. */
  deviceToken: string;
  /** A "remember this device" cookie from an earlier one-time code, if any. */
  rememberedDeviceToken?: string;
}

export type LoginResult =
  | {
      kind: 'session';
      user: User;
      memberships: Membership[];
      session: { token: string; expiresAt: number; remember: boolean };
      compliance: PasswordCompliance;
    }
  | { kind: 'challenge'; message: 'enter-otp' | 'enable-twofa' | 'enter-additional-challenge'; challengeToken: string }
  | { kind: 'redirect-to-sso'; initialSubdomain: string };

export async function login(deps: Deps, req: LoginRequest): Promise<LoginResult> {
  const { db, clock, passwords } = deps;
  const now = clock.now();
  const email = req.email.trim().toLowerCase();
  const limits = loginLimits(email, req.client.ip);
  const tenantId = req.hostTenant?.id ?? null;

  const wait = await longestRetryAfter(db, limits, now);
  if (wait > 0) throw new AppError('too-many-attempts', 429, { duration: wait });

  const user = await db.select().from(users).where(eq(users.email, email)).get();
  const verdict = await passwords.verify(req.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || !verdict.ok) {
    await Promise.all(limits.map((l) => hit(db, l, now)));
    await audit(
      db,
      { tenantId, actorUserId: user?.id ?? null, action: 'login.failed', ipAddress: req.client.ip, userAgent: req.client.userAgent, details: { email } },
      now,
    );
    throw new AppError('invalid-credentials', 401);
  }

  const memberships = await listMemberships(db, user.id);
  const entry = await checkEntry(deps, user, memberships, req.hostTenant, req.client);
  if (entry.kind === 'sso') return { kind: 'redirect-to-sso', initialSubdomain: entry.initialSubdomain };

  await Promise.all(limits.slice(0, 2).map((l) => clear(db, l.key)));
  const policy = applicablePolicy(req.hostTenant, activeOnly(memberships).map((m) => m.tenant));
  const compliance = passwordCompliance(req.password, email, policy, user.passwordScore);
  if (verdict.needsRehash || user.passwordScore === null) {
    // Legacy hash, or a score never taken (imported accounts): store both once.
    const hash = verdict.needsRehash ? await passwords.hash(req.password) : user.passwordHash;
    await db.update(users).set({ passwordHash: hash, passwordScore: compliance.score, updatedAt: now }).where(eq(users.id, user.id));
  }
  const fingerprints = deviceFingerprints(req.deviceToken, req.client.ip);

  const pending = { user, tenantId, remember: req.remember, compliance, fingerprints, client: req.client };
  let twofaPassed = false;
  if (user.twofaMethod) {
    // A device remembered after an earlier code skips the code (30 days, revocable).
    twofaPassed = await isRememberedDevice(db, user.id, req.rememberedDeviceToken, now);
    if (!twofaPassed) return { kind: 'challenge', message: 'enter-otp', challengeToken: await startOtpChallenge(deps, pending) };
  } else if (enforcement(req.hostTenant, memberships).enforced) {
    return { kind: 'challenge', message: 'enable-twofa', challengeToken: await startEnableChallenge(deps, pending) };
  } else if (!(await isKnownDevice(db, user.id, fingerprints))) {
    return { kind: 'challenge', message: 'enter-additional-challenge', challengeToken: await startAdditionalChallenge(deps, pending) };
  }

  await rememberDevice(db, user.id, fingerprints, now);
  const session = await startSession(deps, {
    user,
    hostTenant: req.hostTenant,
    remember: req.remember,
    twofaPassed,
    authMethod: 'password',
    client: req.client,
    action: 'login.succeeded',
  });
  return { kind: 'session', user, memberships, session, compliance };
}
