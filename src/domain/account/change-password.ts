// PATCH password (spec 01 "Change password dialog"): the current password, the tenant policy and
// the strength check; on success every other session and remembered device ends and the user is
// told by mail.
import { and, eq, ne } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { rememberedDevices, sessions, users, type Session, type Tenant, type User } from '../../db/schema';
import { AppError, text, ValidationError } from '../errors';
import { auditInsert } from '../audit/log';
import { sendMail } from '../mail/messages';
import { clear, reserve } from '../security/limiter';
import { activeOnly, listMemberships } from '../tenants/memberships';
import { applicablePolicy, passwordColumns } from './password-compliance';
import { assertNewPassword } from './password-rules';

export async function changePassword(
  deps: Deps,
  p: { user: User; session: Session; hostTenant: Tenant | null; current: string; next: string; confirmation: string; ip: string | null },
): Promise<void> {
  const { db, clock, passwords } = deps;
  const now = clock.now();
  const limit = { key: `change-password:${p.user.id}`, max: 5, windowMs: 15 * 60_000 };
  await reserve(db, [limit], now);
  const ok = p.user.passwordHash ? (await passwords.verify(p.current, p.user.passwordHash)).ok : false;
  if (!ok) throw new AppError('current-password-wrong', { errors: { current_password: [text('changePassword.currentWrong')] } });
  await clear(db, [limit]);
  const policy = applicablePolicy(p.hostTenant, activeOnly(await listMemberships(db, p.user.id)).map((m) => m.tenant));
  assertNewPassword({ password: p.next, confirmation: p.confirmation, policy, email: p.user.email, field: 'new_password', confirmationField: 'new_password_confirmation' });
  if ((await passwords.verify(p.next, p.user.passwordHash!)).ok) {
    throw new ValidationError({ new_password: [text('passwordRules.server.sameAsCurrent')] });
  }

  await db.batch([
    db.update(users).set(await passwordColumns(passwords, p.next, p.user.email, now)).where(eq(users.id, p.user.id)),
    db.delete(sessions).where(and(eq(sessions.userId, p.user.id), ne(sessions.id, p.session.id))),
    db.delete(rememberedDevices).where(eq(rememberedDevices.userId, p.user.id)),
    auditInsert(db, { tenantId: p.hostTenant?.id ?? null, actorUserId: p.user.id, action: 'password.changed', ipAddress: p.ip }, now),
  ]);
  const time = new Date(now).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
  // The change is done; a mail server failure must not turn it into an error for the user.
  await sendMail(deps, p.user, 'passwordChanged', { name: p.user.name, email: p.user.email, time }, p.hostTenant?.id ?? null).catch((e) =>
    console.error(JSON.stringify({ level: 'error', event: 'mail.failed', kind: 'passwordChanged', error: String(e) })),
  );
}
