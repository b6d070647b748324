// A tenant admin removes a member's passkeys (decision 0039), for a lost device: the person signs
// in with their password and second factor again (and is asked to add a new passkey where the
// tenant requires one). A passkey is the person's, valid on every tenant, so one tenant's admin may
// do this only for someone who belongs to that tenant alone (as for an address change:
// `belongs-to-multiple-tenants`); people in several tenants remove theirs in their own account.
// Every rule is decided by the statement that deletes; a look afterwards says which one refused.
import { and, count, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { passkeys, tenantUsers, users } from '../../db/schema';
import { AppError } from '../errors';
import { auditInsert } from '../audit/log';
import type { TenantScope } from '../tenants/scope';
import { keepsAWayIn } from './credentials';

export interface AdminActor {
  userId: number;
  ip: string | null;
  userAgent: string | null;
}

/** DELETE admin/users/{id}/passkeys: every passkey of a member of this tenant alone. */
export async function removeMemberPasskeys(deps: Deps, scope: TenantScope, userId: number, actor: AdminActor): Promise<number> {
  const { db, clock } = deps;
  const member = await db
    .select({ pending: tenantUsers.invitationPending })
    .from(tenantUsers)
    .where(scope.own(tenantUsers, eq(tenantUsers.userId, userId)))
    .get();
  // Another tenant's person is not found here (never say they exist).
  if (!member) throw new AppError('not-found');
  if (member.pending) throw new AppError('invitation-pending');
  const removed = await db
    .delete(passkeys)
    .where(
      and(
        eq(passkeys.userId, userId),
        sql`exists (select 1 from ${tenantUsers} m where m.tenant_id = ${scope.id} and m.user_id = ${userId} and m.invitation_pending = 0)`,
        sql`not exists (select 1 from ${tenantUsers} o where o.user_id = ${userId} and o.tenant_id <> ${scope.id})`,
        sql`not exists (select 1 from ${users} s where s.id = ${userId} and s.is_tenant_manager = 1)`,
        keepsAWayIn(userId, 'all', null),
      ),
    )
    .returning({ id: passkeys.id, name: passkeys.name });
  if (removed.length === 0) {
    const left = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)).get();
    if ((left?.n ?? 0) === 0) throw new AppError('no-passkey');
    const others = await db.select({ n: count() }).from(tenantUsers).where(eq(tenantUsers.userId, userId)).get();
    const staff = await db.select({ m: users.isTenantManager }).from(users).where(eq(users.id, userId)).get();
    throw new AppError((others?.n ?? 0) > 1 || staff?.m ? 'belongs-to-multiple-tenants' : 'cannot-remove-last-passkey');
  }
  await auditInsert(
    db,
    {
      tenantId: scope.id,
      actorUserId: actor.userId,
      action: 'user.passkeys_removed',
      targetType: 'user',
      targetId: userId,
      ipAddress: actor.ip,
      userAgent: actor.userAgent,
      details: { count: removed.length, names: removed.map((r) => r.name) },
    },
    clock.now(),
  );
  return removed.length;
}
