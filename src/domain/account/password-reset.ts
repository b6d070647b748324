// Forgot / reset password (spec 01 "Forgot password", "Reset"). Tokens: 256 bits, stored hashed,
// valid 60 minutes, single use (compare-and-set), a new one voids the older ones; only the reset
// itself consumes a token. Trade-offs: docs/decisions/0006-password-reset.md.
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { passwordResets, rememberedDevices, sessions, users, type Tenant, type User } from '../../db/schema';
import type { PasswordPolicy } from '../../shared/account/password-strength';
import { AppError } from '../errors';
import { auditInsert } from '../audit/log';
import { sendMail } from '../mail/messages';
import { reserve } from '../security/limiter';
import { addressKey } from '../security/network';
import { randomToken, sha256Hex } from '../security/tokens';
import { publicOrigin } from '../tenants/hosts';
import { activeOnly, listMemberships } from '../tenants/memberships';
import { applicablePolicy, passwordColumns } from './password-compliance';
import { assertNewPassword } from './password-rules';

export const RESET_TTL_MS = 60 * 60_000;

export type ForgotOutcome = 'email_sent' | 'user_is_not_registered' | 'error_sending_mail';

/** POST password/email. Unknown addresses answer email_sent and get no mail. */
export async function requestPasswordReset(deps: Deps, email: string, hostTenant: Tenant | null, ip: string | null): Promise<ForgotOutcome> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const limits = [
    { key: `forgot:ip:${addressKey(ip)}`, max: 10, windowMs: 15 * 60_000 },
    { key: `forgot:email:${sha256Hex(email.toLowerCase())}`, max: 3, windowMs: 15 * 60_000 },
  ];
  await reserve(db, limits, now);

  const user = await db.select().from(users).where(eq(users.email, email.toLowerCase())).get();
  if (!user) return 'email_sent';
  if (!user.passwordHash) return 'user_is_not_registered';
  const memberships = activeOnly(await listMemberships(db, user.id));
  if (memberships.length === 0 && !user.isTenantManager) return 'email_sent';

  // The link goes to this tenant's canonical host when the user belongs to it, else the main domain.
  const tenant = hostTenant && memberships.some((m) => m.tenant.id === hostTenant.id) ? hostTenant : null;
  const token = randomToken(32);
  await db.batch([
    db.delete(passwordResets).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt))),
    db.insert(passwordResets).values({ userId: user.id, tenantId: tenant?.id ?? null, tokenHash: sha256Hex(token), expiresAt: now + RESET_TTL_MS, createdAt: now }),
    auditInsert(db, { tenantId: tenant?.id ?? null, actorUserId: user.id, action: 'password.reset_requested', ipAddress: ip }, now),
  ]);
  const url = `${publicOrigin(config.PUBLIC_URL, tenant)}${config.BASE_PATH}/reset?email=${encodeURIComponent(user.email)}&token=${token}`;
  try {
    await sendMail(deps, user, 'passwordReset', { url, minutes: RESET_TTL_MS / 60_000 }, tenant?.id ?? null);
  } catch (e) {
    console.error(JSON.stringify({ level: 'error', event: 'mail.failed', kind: 'passwordReset', error: String(e) }));
    return 'error_sending_mail';
  }
  return 'email_sent';
}

async function liveToken(deps: Deps, email: string, token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const row = await deps.db
    .select({ reset: passwordResets, user: users })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.tokenHash, sha256Hex(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, deps.clock.now())))
    .get();
  return row && row.user.email === email.toLowerCase() ? row : null;
}

/** POST password/verify-reset-token: checks without consuming. */
export async function isResetTokenValid(deps: Deps, email: string, token: string): Promise<boolean> {
  return (await liveToken(deps, email, token)) !== null;
}

/** GET users/password-policy/{email}: the policy a new password for this email must meet. */
export async function policyForEmail(deps: Deps, email: string, hostTenant: Tenant | null): Promise<PasswordPolicy> {
  const user = await deps.db.select().from(users).where(eq(users.email, email.toLowerCase())).get();
  const tenants = user ? activeOnly(await listMemberships(deps.db, user.id)).map((m) => m.tenant) : [];
  const host = hostTenant && tenants.some((t) => t.id === hostTenant.id) ? hostTenant : null;
  return applicablePolicy(host ?? (tenants.length ? null : hostTenant), tenants);
}

/**
 * POST password/reset. Consumes the token by compare-and-set (of two concurrent resets exactly
 * one succeeds), stores the new hash, ends every session and remembered device of the user.
 */
export async function resetPassword(
  deps: Deps,
  p: { email: string; token: string; password: string; confirmation: string; hostTenant: Tenant | null; ip: string | null },
): Promise<User> {
  const { db, clock, passwords } = deps;
  const found = await liveToken(deps, p.email, p.token);
  if (!found) throw new AppError('failed_to_reset_password');
  const policy = await policyForEmail(deps, found.user.email, p.hostTenant);
  assertNewPassword({ password: p.password, confirmation: p.confirmation, policy, email: found.user.email, field: 'password', confirmationField: 'password_confirmation' });

  const now = clock.now();
  const claimed = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.id, found.reset.id), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id });
  if (claimed.length !== 1) throw new AppError('failed_to_reset_password');

  const columns = await passwordColumns(passwords, p.password, found.user.email, now);
  await db.batch([
    db.update(users).set({ ...columns, emailVerifiedAt: found.user.emailVerifiedAt ?? now }).where(eq(users.id, found.user.id)),
    db.delete(sessions).where(eq(sessions.userId, found.user.id)),
    db.delete(rememberedDevices).where(eq(rememberedDevices.userId, found.user.id)),
    db.delete(passwordResets).where(and(eq(passwordResets.userId, found.user.id), ne(passwordResets.id, found.reset.id))),
    auditInsert(db, { tenantId: found.reset.tenantId, actorUserId: found.user.id, action: 'password.reset', ipAddress: p.ip }, now),
  ]);
  return { ...found.user, ...columns };
}
