// Password login (POST v2/login): throttles held in the database, uniform timing for unknown and
// known emails, membership/deactivation/IP rules, then a session or a pending challenge.
import { and, eq } from 'drizzle-orm';
import type { Deps, Geo } from '../../deps';
import { loginChallenges, tenantUsers, users, whitelistedIps, type Tenant, type User } from '../../db/schema';
import { AppError } from '../errors';
import { auditInsert, audit } from '../audit/log';
import { clear, hit, longestRetryAfter, type Limit } from '../security/throttle';
import { isAllowed } from '../security/ip-allowlist';
import { randomToken, sha256Hex } from '../security/tokens';
import { activeOnly, listMemberships, type Membership } from '../tenants/memberships';
import { applicablePolicy, passwordCompliance, type PasswordCompliance } from './compliance';
import { prepareSession } from './sessions';

/** Verified against when the email is unknown or has no password, so both paths cost one hash. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YCwCwlId9c/1gl2cYgH1eA$QIih8dGpmJvpSkraqzKaHcLxbFmfkKwL8KZnODR6HpE';

/** Pending login challenges (one-time code, forced 2FA setup) live this long. */
export const CHALLENGE_TTL_MS = 10 * 60_000;

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
  ip: string | null;
  userAgent: string | null;
  geo: Geo | null;
}

export type LoginResult =
  | {
      kind: 'session';
      user: User;
      memberships: Membership[];
      sessionToken: string;
      sessionExpiresAt: number;
      remember: boolean;
      compliance: PasswordCompliance;
    }
  | { kind: 'challenge'; message: 'enter-otp'; challengeToken: string; user: User }
  | { kind: 'redirect-to-sso'; initialSubdomain: string };

export async function login(deps: Deps, req: LoginRequest): Promise<LoginResult> {
  const { db, clock, passwords } = deps;
  const now = clock.now();
  const email = req.email.trim().toLowerCase();
  const limits = loginLimits(email, req.ip);
  const tenantId = req.hostTenant?.id ?? null;

  const wait = await longestRetryAfter(db, limits, now);
  if (wait > 0) throw new AppError('too-many-attempts', 429, { duration: wait });

  const user = await db.select().from(users).where(eq(users.email, email)).get();
  const verdict = await passwords.verify(req.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !user.passwordHash || !verdict.ok) {
    await Promise.all(limits.map((l) => hit(db, l, now)));
    await audit(
      db,
      { tenantId, actorUserId: user?.id ?? null, action: 'login.failed', ipAddress: req.ip, userAgent: req.userAgent, details: { email } },
      now,
    );
    throw new AppError('invalid-credentials', 401);
  }

  const memberships = await listMemberships(db, user.id);
  const fail = async (code: string, extra: Record<string, unknown> = {}) => {
    await audit(db, { tenantId, actorUserId: user.id, action: `login.refused.${code}`, ipAddress: req.ip, userAgent: req.userAgent }, now);
    return new AppError(code, 403, extra);
  };

  if (req.hostTenant) {
    const m = memberships.find((x) => x.tenant.id === req.hostTenant!.id);
    if (!m && !user.isTenantManager) throw await fail('not-a-member');
    if (m?.member.deactivatedAt != null) throw await fail('deactivated');
    if (m && req.hostTenant.isSsoEnabled && m.member.isSsoEnabled) {
      return { kind: 'redirect-to-sso', initialSubdomain: req.hostTenant.initialSubdomain };
    }
    if (m && req.hostTenant.isIpRestrictionEnabled) {
      const allow = await db.select().from(whitelistedIps).where(eq(whitelistedIps.tenantId, req.hostTenant.id));
      if (!isAllowed(req.ip, allow)) throw await fail('restricted-ip');
    }
  } else if (!user.isTenantManager) {
    if (memberships.length === 0) throw await fail('not-a-member');
    if (activeOnly(memberships).length === 0) throw await fail('deactivated');
  }

  await Promise.all(limits.slice(0, 2).map((l) => clear(db, l.key)));
  if (verdict.needsRehash) {
    await db.update(users).set({ passwordHash: await passwords.hash(req.password), updatedAt: now }).where(eq(users.id, user.id));
  }

  if (user.twofaMethod) {
    const challengeToken = randomToken(32);
    await db.batch([
      db.insert(loginChallenges).values({
        id: randomToken(16),
        tokenHash: sha256Hex(challengeToken),
        userId: user.id,
        tenantId,
        kind: 'otp',
        remember: req.remember,
        expiresAt: now + CHALLENGE_TTL_MS,
        createdAt: now,
      }),
      auditInsert(db, { tenantId, actorUserId: user.id, action: 'login.password_ok_otp_pending', ipAddress: req.ip, userAgent: req.userAgent }, now),
    ]);
    return { kind: 'challenge', message: 'enter-otp', challengeToken, user };
  }

  const session = prepareSession(
    db,
    { userId: user.id, tenantId, remember: req.remember, twofaPassed: false, authMethod: 'password', userAgent: req.userAgent, ip: req.ip, geo: req.geo },
    now,
    { rememberDays: deps.config.SESSION_REMEMBER_DAYS, idleMinutes: deps.config.SESSION_IDLE_MINUTES },
  );
  const writes = [
    session.insert,
    auditInsert(db, { tenantId, actorUserId: user.id, action: 'login.succeeded', ipAddress: req.ip, userAgent: req.userAgent }, now),
  ] as const;
  if (tenantId !== null) {
    await db.batch([
      ...writes,
      db.update(tenantUsers).set({ lastActiveAt: now }).where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.userId, user.id))),
    ]);
  } else {
    await db.batch(writes);
  }

  const policy = applicablePolicy(req.hostTenant, activeOnly(memberships).map((m) => m.tenant));
  return {
    kind: 'session',
    user,
    memberships,
    sessionToken: session.token,
    sessionExpiresAt: session.expiresAt,
    remember: req.remember,
    compliance: passwordCompliance(req.password, email, policy),
  };
}
