// Users of a tenant as its admins (and tenant managers) manage them (spec 02 sections 3-8): add,
// edit, deactivate, reactivate, invitations, SSO for all, app usage counts. Each change is one
// batch (D1 has no interactive transactions) carrying its audit entry and, where a race could
// break a rule (last admin, seats), a guard statement that rolls the batch back.
import { and, count, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core';
import type { Deps } from '../../deps';
import { additionalDepartments, mailQueue, sessions, tenants, tenantUsers, users, type Tenant, type User } from '../../db/schema';
import type { AdminUser, ManagedApp, UserInput, UserUpdateInput } from '../../shared/people/schemas';
import { actorSnapshot, auditInsert } from '../audit/log';
import { AppError, isUniqueViolation } from '../errors';
import { sendMail } from '../mail/messages';
import { publicOrigin } from '../tenants/hosts';
import { activeAdminCount, activeMember, adminGuard, assertAccepted, assertDepartments, assertSeats, findMember, isGuardFailure, nameIdGuard, nameIsTenants, seatGuard, ssoGuard, type MemberRow } from './members';
import { memberItem } from './lists';
import type { TenantScope } from '../tenants/scope';
import { rawStatement } from '../../db/client';

export interface PeopleActor {
  userId: number;
  ip: string | null;
  userAgent: string | null;
}

const auditOf = (scope: TenantScope, actor: PeopleActor, action: string, targetId: number, details?: Record<string, unknown>) => ({
  tenantId: scope.id,
  actorUserId: actor.userId,
  action,
  targetType: 'user',
  targetId,
  ipAddress: actor.ip,
  userAgent: actor.userAgent,
  details,
});

async function ssoUsersOtherThan(deps: Deps, scope: TenantScope, tenantUserId: number | null): Promise<number> {
  const row = await deps.db
    .select({ n: count() })
    .from(tenantUsers)
    .where(and(activeMember(scope), eq(tenantUsers.isSsoEnabled, true), tenantUserId === null ? undefined : ne(tenantUsers.id, tenantUserId)))
    .get();
  return row?.n ?? 0;
}

/** Refuses when one more active SSO member would exceed the tenant's SSO users limit (SCIM uses it too). */
export async function assertSsoSeat(deps: Deps, scope: TenantScope, tenantUserId: number | null): Promise<void> {
  if (scope.tenant.featureSsoUsersLimit <= 0 || (await ssoUsersOtherThan(deps, scope, tenantUserId)) + 1 > scope.tenant.featureSsoUsersLimit) {
    throw new AppError('sso_users_limit_exceeded');
  }
}

/**
 * A SAML name id identifies one member of the tenant: SSO login maps the IdP's NameID to it, so
 * two members with the same id would let one sign in as the other.
 */
async function assertFreeNameId(deps: Deps, scope: TenantScope, nameId: string | null, exceptTenantUserId: number | null): Promise<void> {
  if (!nameId) return;
  const other = await deps.db
    .select({ id: tenantUsers.id })
    .from(tenantUsers)
    .where(scope.own(tenantUsers, eq(tenantUsers.samlNameId, nameId), exceptTenantUserId === null ? undefined : ne(tenantUsers.id, exceptTenantUserId)))
    .get();
  if (other) throw new AppError('saml-name-id-taken');
}

/** Runs a batch; a guard failure becomes the rule's error after a fresh look at the data. */
async function runGuarded(deps: Deps, scope: TenantScope, statements: unknown[], onGuard: () => Promise<never>): Promise<void> {
  try {
    await deps.db.batch(statements as never);
  } catch (e) {
    if (isGuardFailure(e)) await onGuard();
    throw e;
  }
}

async function seatError(deps: Deps, scope: TenantScope, apps: ManagedApp[]): Promise<never> {
  await assertSeats(scope, Object.fromEntries(apps.map((a) => [a, 0])));
  throw new AppError('quota_finished', { app: apps[0] });
}

function appColumns(apps: ManagedApp[], current: { meishi: number | null; scheduler: number | null }, now: number) {
  return {
    meishiAccessGrantedAt: apps.includes('meishi') ? (current.meishi ?? now) : null,
    schedulerAccessGrantedAt: apps.includes('scheduler') ? (current.scheduler ?? now) : null,
  };
}

function heldApps(m: { meishiAccessGrantedAt: number | null; schedulerAccessGrantedAt: number | null }): ManagedApp[] {
  const out: ManagedApp[] = [];
  if (m.meishiAccessGrantedAt !== null) out.push('meishi');
  if (m.schedulerAccessGrantedAt !== null) out.push('scheduler');
  return out;
}

async function reload(deps: Deps, scope: TenantScope, userId: number): Promise<AdminUser> {
  const item = await memberItem(scope, userId);
  if (!item) throw new AppError('not-found');
  return item;
}

/** An invitation row for the mail queue (sent by drainMailQueue at a steady rate). */
export function queueInvitation(deps: Deps, scope: TenantScope, userId: number, now: number) {
  return scope.insert(mailQueue, { userId, kind: 'invitation', availableAt: now, createdAt: now });
}

/** The mail to an existing portal account invited into another tenant: accept it on the portal. */
export function sendAddedToTenant(deps: Deps, user: { id: number; name: string; email: string; language: 'ja' | 'en' }, tenant: Tenant) {
  const url = `${publicOrigin(deps.config.PUBLIC_URL, null)}${deps.config.BASE_PATH}/invitations`;
  return sendMail(deps, user, 'addedToTenant', { name: user.name, tenant: tenant.name, url }, tenant.id);
}

/** POST admin/users. Returns the user and whether an invitation was queued. */

export async function addUser(deps: Deps, scope: TenantScope, input: UserInput, actor: PeopleActor): Promise<{ user: AdminUser; invited: boolean }> {
  const { db, clock } = deps;
  const email = input.email.toLowerCase();
  const mainId = input.department_id ?? null;
  const extraIds = [...new Set(input.additionalDepartmentIds)].filter((d) => d !== mainId);
  await assertDepartments(scope, mainId === null ? extraIds : [mainId, ...extraIds]);
  // These reads answer the usual cases with the right message early; the batch below decides.
  const existing = await db.select().from(users).where(eq(users.email, email)).get();
  if (existing) {
    const member = await db.select({ id: tenantUsers.id }).from(tenantUsers).where(scope.own(tenantUsers, eq(tenantUsers.userId, existing.id))).get();
    if (member) throw new AppError('user_already_exists');
  }
  const apps = [...new Set(input.allowedApps)];
  await assertSeats(scope, Object.fromEntries(apps.map((a) => [a, 1])));
  const nameId = input.is_sso_enabled ? input.saml_name_id || null : null;
  const likelyPending = existing !== undefined && !(await nameIsTenants(scope, existing));
  if (input.is_sso_enabled && !likelyPending) await assertSsoSeat(deps, scope, null);
  if (!likelyPending) await assertFreeNameId(deps, scope, nameId, null);
  const now = clock.now();
  // A new account for the address unless one exists when the batch runs (not when it was read:
  // the address may have moved to another name meanwhile).
  const statements: unknown[] = [db.insert(users).values({ name: input.name, email, createdAt: now, updatedAt: now }).onConflictDoNothing()];
  // An account that is someone's already (registered, a tenant manager, or a member of another
  // tenant) is invited: nothing about it is this tenant's, and nothing counts, until the person
  // accepts (decision 0027). Decided here, inside the insert, from the rows as they are when it
  // runs: two tenants adding one new address at the same moment cannot both make it a full
  // member (decision 0035). SSO is switched on for an invitation only once it is accepted.
  const pending = sql`(u.password_hash IS NOT NULL OR u.is_tenant_manager = 1
    OR EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = u.id AND o.tenant_id <> ${scope.id}))`;
  const cols = appColumns(apps, { meishi: null, scheduler: null }, now);
  statements.push(
    rawStatement(db, sql`INSERT INTO tenant_users (tenant_id, user_id, is_admin, is_sso_enabled, saml_name_id, department_id, name_reading,
        invited_at, invitation_pending, meishi_access_granted_at, scheduler_access_granted_at, created_at, updated_at)
      SELECT ${scope.id}, u.id, ${input.is_admin ? 1 : 0}, CASE WHEN ${pending} THEN 0 ELSE ${input.is_sso_enabled ? 1 : 0} END,
        CASE WHEN ${pending} THEN NULL ELSE ${nameId} END, ${mainId}, ${input.name_reading || null}, ${now}, ${pending},
        ${cols.meishiAccessGrantedAt}, ${cols.schedulerAccessGrantedAt}, ${now}, ${now}
      FROM users u WHERE u.email = ${email}`),
  );
  // The new membership row, as the statements after the insert find it.
  const member = sql`users u CROSS JOIN tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = ${scope.id}`;
  const it = sql`u.email = ${email}`;
  if (extraIds.length) {
    statements.push(
      rawStatement(db, sql`INSERT INTO additional_departments (tenant_id, tenant_user_id, department_id)
        SELECT ${scope.id}, tu.id, d.value FROM ${member} CROSS JOIN json_each(${JSON.stringify(extraIds)}) d WHERE ${it}`),
    );
  }
  // New people get a registration invitation, invited accounts the mail that asks them to accept.
  statements.push(
    rawStatement(db, sql`INSERT INTO mail_queue (tenant_id, user_id, kind, status, attempts, available_at, created_at)
      SELECT ${scope.id}, u.id, CASE WHEN tu.invitation_pending = 1 THEN 'added' ELSE 'invitation' END, 'pending', 0, ${now}, ${now} FROM ${member} WHERE ${it}`),
    rawStatement(db, sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
      SELECT ${scope.id}, ${actor.userId}, ${actorSnapshot(actor.userId)}, 'user.created', 'user', CAST(u.id AS TEXT), ${actor.ip}, ${actor.userAgent?.slice(0, 512) ?? null},
        json_patch(json_patch(${JSON.stringify({ email, apps, is_admin: input.is_admin })}, json_object('is_sso_enabled', json(CASE WHEN tu.is_sso_enabled = 1 THEN 'true' ELSE 'false' END))),
          CASE WHEN tu.invitation_pending = 1 THEN '{"invitation_pending":true}' ELSE '{}' END), ${now}
      FROM ${member} WHERE ${it}`),
    seatGuard(scope),
    ssoGuard(scope),
    ...(nameId ? [nameIdGuard(scope, nameId)] : []),
  );
  try {
    await runGuarded(deps, scope, statements, () => guardError(deps, scope, { apps, nameId, exceptMember: null, sso: input.is_sso_enabled }));
  } catch (e) {
    // A concurrent add of the same address hit the unique index.
    if (isUniqueViolation(e, 'tenant_users')) throw new AppError('user_already_exists');
    throw e;
  }
  const user = await db.select().from(users).where(eq(users.email, email)).get();
  // Registration invitation or "accept" mail: both are queued above and sent by the caller.
  return { user: await reload(deps, scope, user!.id), invited: true };
}

/**
 * Which rule a failed guard statement stood for, from a fresh look at the data (the batch rolled
 * back, so the rows are as the concurrent change left them).
 */
async function guardError(
  deps: Deps,
  scope: TenantScope,
  p: { apps: ManagedApp[]; nameId: string | null; exceptMember: number | null; sso: boolean; lastAdmin?: 'cannot-make-last-admin-as-non-admin'; soleMember?: number },
): Promise<never> {
  if (p.lastAdmin && (await activeAdminCount(scope)) <= 1) throw new AppError(p.lastAdmin);
  if (p.soleMember !== undefined) await assertSoleMembership(deps, p.soleMember);
  if (p.nameId) await assertFreeNameId(deps, scope, p.nameId, p.exceptMember);
  if (p.sso) {
    const fresh = await deps.db.select({ limit: tenants.featureSsoUsersLimit }).from(tenants).where(eq(tenants.id, scope.id)).get();
    if ((await ssoUsersOtherThan(deps, scope, p.exceptMember)) + 1 > Math.max(0, fresh?.limit ?? 0)) throw new AppError('sso_users_limit_exceeded');
  }
  return seatError(deps, scope, p.apps);
}

/** The address is the identity in every tenant: one tenant's admin may not change it for all. */
export async function assertSoleMembership(deps: Deps, user: User | number): Promise<void> {
  const id = typeof user === 'number' ? user : user.id;
  const row = await deps.db
    .select({ n: count(), manager: sql<number>`max(${users.isTenantManager})` })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(eq(tenantUsers.userId, id))
    .get();
  if ((row?.n ?? 0) > 1 || Boolean(row?.manager)) throw new AppError('belongs-to-multiple-tenants');
}

/** Fails the batch when the account belongs to another tenant too, or is a tenant manager. */
export function soleMembershipGuard(deps: Deps, scope: TenantScope, userId: number) {
  return rawStatement(deps.db, sql`INSERT INTO tenant_apps (tenant_id, app)
    SELECT NULL, NULL WHERE EXISTS (SELECT 1 FROM tenant_users WHERE user_id = ${userId} AND tenant_id <> ${scope.id})
      OR EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND is_tenant_manager = 1)`);
}

/**
 * Whether the account's own name is this tenant's to set: nobody has claimed it (no password,
 * not staff, no other tenant). As SQL over `users` row `u`, evaluated by the statement that writes.
 */
export const nameIsTenantsSql = (scope: TenantScope, userId: SQL) => sql`(SELECT u.password_hash IS NULL AND u.is_tenant_manager = 0
    AND NOT EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = u.id AND o.tenant_id <> ${scope.id}) FROM users u WHERE u.id = ${userId})`;

/** PATCH admin/users/{id}. */
export async function updateUser(
  deps: Deps,
  scope: TenantScope,
  userId: number,
  input: UserUpdateInput,
  actor: PeopleActor,
): Promise<{ user: AdminUser; message: 'success' | 'sent-register-mail-to-new-email-id' }> {
  const { db, clock } = deps;
  const { member, user } = await findMember(scope, userId);
  if (member.operationStatus === 'deleting') throw new AppError('not-found');
  assertAccepted(member);
  const email = input.email.toLowerCase();
  // A tenant admin never rewrites a person's own name: for an account that is the person's
  // (registered, or shared with another tenant) the name typed here is this tenant's label.
  // Decided by the statements that write, from the rows as they are then (decision 0035).
  const renames = input.name !== (member.displayName ?? user.name);
  const emailChanged = email !== user.email;
  const mainId = input.department_id === undefined ? member.departmentId : input.department_id;
  const extraIds = input.additionalDepartmentIds === undefined ? undefined : [...new Set(input.additionalDepartmentIds)].filter((d) => d !== mainId);
  await assertDepartments(scope, [...(mainId === null ? [] : [mainId]), ...(extraIds ?? [])]);

  if (emailChanged) {
    const taken = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
    if (taken) throw new AppError('duplicate-email');
    await assertSoleMembership(deps, user);
  }

  const deactivated = member.deactivatedAt !== null;
  // The dialog hides admin and apps for a deactivated user; the server ignores them too.
  const isAdmin = deactivated || input.is_admin === undefined ? member.isAdmin : input.is_admin;
  if (member.isAdmin && !isAdmin && !deactivated && (await activeAdminCount(scope)) <= 1) {
    throw new AppError('cannot-make-last-admin-as-non-admin');
  }
  const held = heldApps(member);
  const apps = deactivated || input.allowedApps === undefined ? held : [...new Set(input.allowedApps)];
  const added = apps.filter((a) => !held.includes(a));
  if (!deactivated && added.length) await assertSeats(scope, Object.fromEntries(added.map((a) => [a, 1])));

  const ssoOn = input.is_sso_enabled === undefined ? member.isSsoEnabled : input.is_sso_enabled;
  if (ssoOn && !member.isSsoEnabled && !deactivated) await assertSsoSeat(deps, scope, member.id);
  // Turning SSO off keeps the stored name id (the dialog restores it); only an SSO user's id is edited.
  const samlNameId = ssoOn && input.saml_name_id !== undefined ? input.saml_name_id || null : member.samlNameId;
  if (samlNameId !== member.samlNameId) await assertFreeNameId(deps, scope, samlNameId, member.id);

  const now = clock.now();
  const statements: unknown[] = [];
  const owns = nameIsTenantsSql(scope, sql`${user.id}`);
  // The membership first: its label is decided on the account as it was before this edit.
  statements.push(
    db
      .update(tenantUsers)
      .set({
        isAdmin,
        isSsoEnabled: ssoOn,
        samlNameId,
        departmentId: mainId,
        ...(input.name_reading !== undefined ? { nameReading: input.name_reading || null } : {}),
        ...(renames ? { displayName: sql`CASE WHEN ${owns} THEN ${tenantUsers.displayName} ELSE ${input.name} END` } : {}),
        ...appColumns(apps, { meishi: member.meishiAccessGrantedAt, scheduler: member.schedulerAccessGrantedAt }, now),
        ...(emailChanged ? { invitedAt: now, lastActiveAt: null } : {}),
        updatedAt: now,
      })
      .where(and(eq(tenantUsers.id, member.id), scope.own(tenantUsers))),
  );
  const userSet: SQLiteUpdateSetSource<typeof users> = { ...(renames ? { name: sql`CASE WHEN ${owns} THEN ${input.name} ELSE ${users.name} END` } : {}), updatedAt: now };
  if (emailChanged) {
    // The new address must prove itself: the account starts over with an invitation to it.
    Object.assign(userSet, { email, emailVerifiedAt: null, passwordHash: null, passwordChangedAt: null, passwordScore: null });
    statements.push(db.delete(sessions).where(eq(sessions.userId, user.id)));
  }
  statements.push(db.update(users).set(userSet).where(eq(users.id, user.id)));
  if (extraIds !== undefined) {
    statements.push(scope.delete(additionalDepartments, eq(additionalDepartments.tenantUserId, member.id)));
    if (extraIds.length) {
      // One JSON value, not 3 parameters per row (D1 binds at most 100 per statement).
      statements.push(rawStatement(db, sql`INSERT INTO additional_departments (tenant_id, tenant_user_id, department_id)
        SELECT ${scope.id}, ${member.id}, value FROM json_each(${JSON.stringify(extraIds)})`));
    }
  }
  if (emailChanged) statements.push(queueInvitation(deps, scope, user.id, now));
  statements.push(
    auditInsert(db, auditOf(scope, actor, 'user.updated', user.id, {
      ...(emailChanged ? { email: { from: user.email, to: email } } : {}),
      ...(isAdmin !== member.isAdmin ? { is_admin: isAdmin } : {}),
      ...(added.length || apps.length !== held.length ? { apps } : {}),
      ...(ssoOn !== member.isSsoEnabled ? { is_sso_enabled: ssoOn } : {}),
      ...(input.name_reading !== undefined && (input.name_reading || null) !== member.nameReading ? { name_reading: input.name_reading || null } : {}),
    }), now),
  );
  const ssoAdded = ssoOn && !member.isSsoEnabled && !deactivated;
  if (member.isAdmin && !isAdmin) statements.push(adminGuard(scope));
  if (added.length && !deactivated) statements.push(seatGuard(scope));
  if (ssoAdded) statements.push(ssoGuard(scope));
  if (samlNameId && samlNameId !== member.samlNameId) statements.push(nameIdGuard(scope, samlNameId));
  if (emailChanged) statements.push(soleMembershipGuard(deps, scope, user.id));
  try {
    await runGuarded(deps, scope, statements, () =>
      guardError(deps, scope, {
        apps: added,
        nameId: samlNameId !== member.samlNameId ? samlNameId : null,
        exceptMember: member.id,
        sso: ssoAdded,
        ...(member.isAdmin && !isAdmin ? { lastAdmin: 'cannot-make-last-admin-as-non-admin' as const } : {}),
        ...(emailChanged ? { soleMember: user.id } : {}),
      }),
    );
  } catch (e) {
    // Another account took the address meanwhile (users.email is unique).
    if (emailChanged && isUniqueViolation(e, 'users')) throw new AppError('duplicate-email');
    throw e;
  }
  return { user: await reload(deps, scope, user.id), message: emailChanged ? 'sent-register-mail-to-new-email-id' : 'success' };
}

/** POST admin/users/{id}/deactivate: the member's sessions on this tenant end at once. */
export async function deactivateUser(deps: Deps, scope: TenantScope, userId: number, actor: PeopleActor): Promise<void> {
  const { db, clock } = deps;
  const { member } = await findMember(scope, userId);
  if (member.operationStatus === 'deleting') throw new AppError('not-found');
  assertAccepted(member);
  if (member.deactivatedAt !== null) return;
  if (member.isAdmin && (await activeAdminCount(scope)) <= 1) throw new AppError('cannot-deactivate-last-admin');
  const now = clock.now();
  const statements: unknown[] = [
    db.update(tenantUsers).set({ deactivatedAt: now, updatedAt: now }).where(and(eq(tenantUsers.id, member.id), isNull(tenantUsers.deactivatedAt))),
    db.delete(sessions).where(and(eq(sessions.userId, userId), scope.own(sessions))),
    auditInsert(db, auditOf(scope, actor, 'user.deactivated', userId), now),
  ];
  if (member.isAdmin) statements.push(adminGuard(scope));
  await runGuarded(deps, scope, statements, async () => {
    throw new AppError('cannot-deactivate-last-admin');
  });
}

/** POST admin/users/{id}/reactivate: refused while an app the user holds has no free seat. */
export async function reactivateUser(deps: Deps, scope: TenantScope, userId: number, actor: PeopleActor): Promise<void> {
  const { db, clock } = deps;
  const { member } = await findMember(scope, userId);
  if (member.operationStatus === 'deleting') throw new AppError('not-found');
  assertAccepted(member);
  if (member.deactivatedAt === null) return;
  const apps = heldApps(member);
  await assertSeats(scope, Object.fromEntries(apps.map((a) => [a, 1])));
  // SSO users count only while active, so coming back needs a free SSO place too.
  if (member.isSsoEnabled) await assertSsoSeat(deps, scope, member.id);
  const now = clock.now();
  await runGuarded(
    deps,
    scope,
    [
      db.update(tenantUsers).set({ deactivatedAt: null, updatedAt: now }).where(eq(tenantUsers.id, member.id)),
      auditInsert(db, auditOf(scope, actor, 'user.reactivated', userId), now),
      seatGuard(scope),
      ...(member.isSsoEnabled ? [ssoGuard(scope)] : []),
    ],
    () => guardError(deps, scope, { apps, nameId: null, exceptMember: member.id, sso: member.isSsoEnabled }),
  );
}

/**
 * POST admin/users/invite: `all` queues an invitation for every active member who has not
 * registered (set a password) yet and has none waiting; ids re-send to those members. A chosen
 * member whose invitation already waits in the queue (after "resend to all", or a failed send
 * backing off) gets no second row: that row is made due now, and the caller sends it at once
 * (`sendPendingMailOf`, decision 0037).
 */
export async function inviteUsers(deps: Deps, scope: TenantScope, target: 'all' | number[], actor: PeopleActor): Promise<number> {
  const { db, clock } = deps;
  const now = clock.now();
  let ids: number[];
  if (target === 'all') {
    const rows = await db
      .select({ id: users.id })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(
        and(
          activeMember(scope),
          isNull(users.passwordHash),
          sql`NOT EXISTS (SELECT 1 FROM mail_queue q WHERE q.user_id = ${users.id} AND q.tenant_id = ${scope.id} AND q.status = 'pending')`,
        ),
      );
    ids = rows.map((r) => r.id);
  } else {
    ids = [...new Set(target)];
    const rows: MemberRow[] = [];
    for (const id of ids) rows.push(await findMember(scope, id));
    for (const r of rows) {
      if (r.member.deactivatedAt !== null || r.member.operationStatus !== null) throw new AppError('not-found');
      assertAccepted(r.member);
      if (r.user.passwordHash !== null) throw new AppError('already-registered');
    }
  }
  if (ids.length === 0) return 0;
  // Queue rows and audit entries in chunks (D1 binds at most 100 values per statement).
  const statements: unknown[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = JSON.stringify(ids.slice(i, i + 500));
    statements.push(rawStatement(db, sql`INSERT INTO mail_queue (tenant_id, user_id, kind, status, attempts, available_at, created_at)
      SELECT ${scope.id}, value, 'invitation', 'pending', 0, ${now}, ${now} FROM json_each(${chunk})
      WHERE NOT EXISTS (SELECT 1 FROM mail_queue q WHERE q.user_id = value AND q.tenant_id = ${scope.id} AND q.kind = 'invitation' AND q.status = 'pending')`));
    if (target !== 'all') {
      statements.push(rawStatement(db, sql`UPDATE mail_queue SET available_at = ${now}
        WHERE tenant_id = ${scope.id} AND kind = 'invitation' AND status = 'pending' AND available_at > ${now} AND user_id IN (SELECT value FROM json_each(${chunk}))`));
    }
    statements.push(rawStatement(db, sql`UPDATE tenant_users SET invited_at = ${now} WHERE tenant_id = ${scope.id} AND user_id IN (SELECT value FROM json_each(${chunk}))`));
  }
  const entry = ids.length === 1 ? auditOf(scope, actor, 'user.invited', ids[0]!) : { ...auditOf(scope, actor, 'users.invited', scope.id, { count: ids.length, all: target === 'all' }), targetType: 'tenant' };
  statements.push(auditInsert(db, entry, now));
  await db.batch(statements as never);
  return ids.length;
}

/** POST admin/users/enable-sso-for-all and disable-sso-for-all. */
export async function setSsoForAll(deps: Deps, scope: TenantScope, enabled: boolean, actor: PeopleActor): Promise<void> {
  const { db, clock } = deps;
  if (enabled) {
    const active = await db.select({ n: count() }).from(tenantUsers).where(activeMember(scope)).get();
    if (!scope.tenant.isSsoEnabled || scope.tenant.featureSsoUsersLimit <= 0 || (active?.n ?? 0) > scope.tenant.featureSsoUsersLimit) {
      throw new AppError('cannot-enable-sso-for-all-users');
    }
  }
  const now = clock.now();
  await runGuarded(
    deps,
    scope,
    [
      scope.update(tenantUsers, { isSsoEnabled: enabled, updatedAt: now }, isNull(tenantUsers.deactivatedAt), eq(tenantUsers.invitationPending, false)),
      auditInsert(db, { tenantId: scope.id, actorUserId: actor.userId, action: enabled ? 'users.sso_enabled_for_all' : 'users.sso_disabled_for_all', targetType: 'tenant', targetId: scope.id, ipAddress: actor.ip, userAgent: actor.userAgent }, now),
      // Members added (or the limit lowered) since the count above: the statement decides.
      ...(enabled ? [ssoGuard(scope)] : []),
    ],
    async () => {
      throw new AppError('cannot-enable-sso-for-all-users');
    },
  );
}

/** GET admin/users/{id}/cards-count and schedules-count, as the app reports them. */
export async function usageCount(deps: Deps, scope: TenantScope, userId: number, what: 'cards' | 'schedules'): Promise<number> {
  const { member, user } = await findMember(scope, userId);
  assertAccepted(member);
  const port = deps.appUsage;
  if (!port) throw new AppError('app-usage-unavailable');
  const ref = { tenantId: scope.id, tenantInitialSubdomain: scope.tenant.initialSubdomain, userId: user.id, email: user.email };
  try {
    return what === 'cards' ? await port.cardsCount(ref) : await port.schedulesCount(ref);
  } catch (e) {
    console.warn(JSON.stringify({ level: 'warn', msg: 'app usage unavailable', what, error: String(e) }));
    throw new AppError('app-usage-unavailable');
  }
}

