// Tenant-bound queries of the people area: every function takes the tenant's scope and queries
// through it, so another tenant's ids answer "not found" (404) and nothing else.
import { and, count, eq, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { rawStatement } from '../../db/client';
import { departments, tenantApps, tenantUsers, users, type TenantUser, type User } from '../../db/schema';
import type { ManagedApp } from '../../shared/people/schemas';
import { AppError } from '../errors';
import type { TenantScope } from '../tenants/scope';

/**
 * `column IN (ids)` with the list as one bound JSON value: D1 accepts at most 100 bound
 * parameters per statement, and a 100-row page plus the tenant id would exceed it.
 */
export function inIds(column: SQLiteColumn, ids: number[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}

export const iso = (v: number | null): string | null => (v === null ? null : new Date(v).toISOString());

/** Conditions of a member who counts: accepted, not deactivated and not being deleted. */
const ACTIVE = () => [isNull(tenantUsers.deactivatedAt), isNull(tenantUsers.operationStatus), eq(tenantUsers.invitationPending, false)];

export const activeMember = (scope: Pick<TenantScope, 'own'>) => scope.own(tenantUsers, ...ACTIVE());

/** A row that holds a seat of the app granted in `column`: an active member holding it (summed by the lists). */
export const holdsSeat = (column: SQLiteColumn) => and(...ACTIVE(), isNotNull(column))!;

/** Refuses every change to, and every read about, an account whose invitation is pending. */
export function assertAccepted(member: TenantUser): void {
  if (member.invitationPending) throw new AppError('invitation-pending');
}

/**
 * The account's name is the person's once they registered or belong to another tenant too; a
 * tenant admin sets it only for an account of its own that nobody has claimed yet.
 */
export async function nameIsTenants(scope: TenantScope, user: User): Promise<boolean> {
  if (user.passwordHash !== null || user.isTenantManager) return false;
  const other = await scope.db.select({ id: tenantUsers.id }).from(tenantUsers).where(and(eq(tenantUsers.userId, user.id), ne(tenantUsers.tenantId, scope.id))).get();
  return !other;
}

export const APP_COLUMN: Record<ManagedApp, 'meishi_access_granted_at' | 'scheduler_access_granted_at'> = {
  meishi: 'meishi_access_granted_at',
  scheduler: 'scheduler_access_granted_at',
};

export async function contractedApps(scope: TenantScope) {
  return scope.db.select().from(tenantApps).where(scope.own(tenantApps));
}

/** Seats in use per app: active members (not deactivated, not being deleted) holding the app. */
export async function seatsUsed(scope: TenantScope): Promise<Record<ManagedApp, number>> {
  const row = await scope.db
    .select({
      meishi: sql<number>`coalesce(sum(${tenantUsers.meishiAccessGrantedAt} is not null), 0)`,
      scheduler: sql<number>`coalesce(sum(${tenantUsers.schedulerAccessGrantedAt} is not null), 0)`,
    })
    .from(tenantUsers)
    .where(activeMember(scope))
    .get();
  return { meishi: Number(row?.meishi ?? 0), scheduler: Number(row?.scheduler ?? 0) };
}

/**
 * Refuses when granting `adding` apps (to members who do not hold them yet) would exceed a seat
 * count: quota_finished with the app. `extra` is how many new holders per app the change adds.
 */
export async function assertSeats(scope: TenantScope, extra: Partial<Record<ManagedApp, number>>): Promise<void> {
  const apps = await contractedApps(scope);
  const used = await seatsUsed(scope);
  for (const [app, n] of Object.entries(extra) as [ManagedApp, number][]) {
    if (!n) continue;
    const contracted = apps.find((a) => a.app === app);
    if (!contracted) throw new AppError('app-not-contracted', { app });
    if (contracted.seats !== null && used[app] + n > contracted.seats) throw new AppError('quota_finished', { app });
  }
}

/**
 * A statement to append to a batch that grants apps: it fails (NOT NULL on tenant_apps) when,
 * after the batch's own writes, some app holds more active members than its seats. D1 has no
 * interactive transactions; a failing statement rolls the whole batch back, which closes the race
 * between two admins taking the last seat at the same moment.
 */
export function seatGuard(scope: TenantScope) {
  return rawStatement(scope.db, sql`INSERT INTO tenant_apps (tenant_id, app)
    SELECT NULL, NULL FROM tenant_apps ta
    WHERE ta.tenant_id = ${scope.id} AND ta.seats IS NOT NULL AND ta.app IN ('meishi', 'scheduler')
      AND (SELECT count(*) FROM tenant_users tu
           WHERE tu.tenant_id = ta.tenant_id AND tu.deactivated_at IS NULL AND tu.operation_status IS NULL
             AND (CASE ta.app WHEN 'meishi' THEN tu.meishi_access_granted_at ELSE tu.scheduler_access_granted_at END) IS NOT NULL) > ta.seats`);
}

/** Fails the batch when the tenant would be left without an active admin. */
export function adminGuard(scope: TenantScope) {
  return rawStatement(scope.db, sql`INSERT INTO tenant_apps (tenant_id, app)
    SELECT NULL, NULL WHERE NOT EXISTS (SELECT 1 FROM tenant_users tu
      WHERE tu.tenant_id = ${scope.id} AND tu.is_admin = 1 AND tu.deactivated_at IS NULL AND tu.operation_status IS NULL AND tu.invitation_pending = 0)`);
}

/**
 * Fails the batch when, after its own writes, more active members use SSO than the tenant's SSO
 * users limit allows (read from the tenant row in the same statement, never from a copy).
 */
export function ssoGuard(scope: TenantScope) {
  return rawStatement(scope.db, sql`INSERT INTO tenant_apps (tenant_id, app)
    SELECT NULL, NULL FROM tenants t WHERE t.id = ${scope.id}
      AND (SELECT count(*) FROM tenant_users tu
           WHERE tu.tenant_id = t.id AND tu.is_sso_enabled = 1 AND tu.deactivated_at IS NULL AND tu.operation_status IS NULL AND tu.invitation_pending = 0)
        > max(t.feature_sso_users_limit, 0)`);
}

/** Fails the batch when two members of the tenant would share a SAML name id (one could sign in as the other). */
export function nameIdGuard(scope: TenantScope, nameId: string) {
  return rawStatement(scope.db, sql`INSERT INTO tenant_apps (tenant_id, app)
    SELECT NULL, NULL WHERE (SELECT count(*) FROM tenant_users WHERE tenant_id = ${scope.id} AND saml_name_id = ${nameId}) > 1`);
}

export function isGuardFailure(e: unknown): boolean {
  const text = `${String(e)} ${String((e as { cause?: unknown })?.cause ?? '')}`;
  return /NOT NULL constraint failed: tenant_apps/i.test(text);
}

export async function activeAdminCount(scope: TenantScope): Promise<number> {
  const row = await scope.db.select({ n: count() }).from(tenantUsers).where(and(activeMember(scope), eq(tenantUsers.isAdmin, true))).get();
  return row?.n ?? 0;
}

export interface MemberRow {
  member: TenantUser;
  user: User;
}

/** The member with user id `userId` in this tenant, or 404 (also for another tenant's user). */
export async function findMember(scope: TenantScope, userId: number): Promise<MemberRow> {
  const row = await scope.db
    .select({ member: tenantUsers, user: users })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(scope.own(tenantUsers, eq(tenantUsers.userId, userId)))
    .get();
  if (!row) throw new AppError('not-found');
  return row;
}

/** Departments of this tenant with these ids; 404 when one is not the tenant's. */
export async function assertDepartments(scope: TenantScope, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const rows = await scope.db.select({ id: departments.id }).from(departments).where(scope.own(departments, inIds(departments.id, unique)));
  if (rows.length !== unique.length) throw new AppError('not-found', { field: 'department' });
}

/** LIKE pattern that matches `term` literally anywhere (escape character: backslash). */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
