// Departments of a tenant (spec 02 "Departments screen"): names unique per tenant, a department
// with members (main or additional) cannot be deleted.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { additionalDepartments, departments, tenantUsers, users, type Tenant } from '../../db/schema';
import type { Department, DepartmentWithUsers } from '../../shared/people/schemas';
import { auditInsert } from '../audit/log';
import { AppError, isUniqueViolation, text, ValidationError } from '../errors';
import { iso, rawStatement } from './members';
import type { PeopleActor } from './users';

/** Counted over members that are not being deleted (deactivated members still belong). */
export async function listDepartments(deps: Deps, tenantId: number): Promise<Department[]> {
  const rows = await deps.db
    .select({
      id: departments.id,
      name: departments.name,
      createdAt: departments.createdAt,
      users: sql<number>`(SELECT count(*) FROM tenant_users tu WHERE tu.tenant_id = ${tenantId} AND tu.department_id = departments.id AND tu.operation_status IS NULL)`,
      extra: sql<number>`(SELECT count(*) FROM additional_departments ad JOIN tenant_users tu ON tu.id = ad.tenant_user_id
        WHERE ad.tenant_id = ${tenantId} AND ad.department_id = departments.id AND tu.operation_status IS NULL)`,
    })
    .from(departments)
    .where(eq(departments.tenantId, tenantId))
    .orderBy(asc(departments.name));
  return rows.map((r) => ({ id: r.id, name: r.name, created_at: iso(r.createdAt)!, users_count: Number(r.users), additional_users_count: Number(r.extra) }));
}

/** GET departments-with-users: each department with its active members (main department). */
export async function departmentsWithUsers(deps: Deps, tenantId: number): Promise<DepartmentWithUsers[]> {
  const [depts, members] = await Promise.all([
    deps.db.select({ id: departments.id, name: departments.name }).from(departments).where(eq(departments.tenantId, tenantId)).orderBy(asc(departments.name)),
    deps.db
      .select({ departmentId: tenantUsers.departmentId, id: users.id, name: users.name, email: users.email })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(and(eq(tenantUsers.tenantId, tenantId), isNull(tenantUsers.deactivatedAt), isNull(tenantUsers.operationStatus)))
      .orderBy(asc(users.name)),
  ]);
  return depts.map((d) => ({ ...d, users: members.filter((m) => m.departmentId === d.id).map(({ id, name, email }) => ({ id, name, email })) }));
}

async function findDepartment(deps: Deps, tenantId: number, id: number) {
  const row = await deps.db.select().from(departments).where(and(eq(departments.tenantId, tenantId), eq(departments.id, id))).get();
  if (!row) throw new AppError('not-found');
  return row;
}

function nameExists(): never {
  throw new ValidationError({ name: [text('people.departments.nameExists')] });
}

async function assertFreeName(deps: Deps, tenantId: number, name: string, exceptId: number | null) {
  const same = await deps.db.select({ id: departments.id }).from(departments).where(and(eq(departments.tenantId, tenantId), eq(departments.name, name))).get();
  if (same && same.id !== exceptId) nameExists();
}


export async function addDepartment(deps: Deps, tenant: Tenant, name: string, actor: PeopleActor): Promise<Department> {
  await assertFreeName(deps, tenant.id, name, null);
  const now = deps.clock.now();
  try {
    const [inserted] = await deps.db.batch([
      deps.db.insert(departments).values({ tenantId: tenant.id, name, createdAt: now, updatedAt: now }).returning(),
      auditInsert(deps.db, { tenantId: tenant.id, actorUserId: actor.userId, action: 'department.created', targetType: 'department', ipAddress: actor.ip, userAgent: actor.userAgent, details: { name } }, now),
    ]);
    const d = inserted[0]!;
    return { id: d.id, name: d.name, created_at: iso(d.createdAt)!, users_count: 0, additional_users_count: 0 };
  } catch (e) {
    if (isUniqueViolation(e, 'departments')) nameExists();
    throw e;
  }
}

export async function renameDepartment(deps: Deps, tenant: Tenant, id: number, name: string, actor: PeopleActor): Promise<Department> {
  const before = await findDepartment(deps, tenant.id, id);
  await assertFreeName(deps, tenant.id, name, id);
  const now = deps.clock.now();
  try {
    await deps.db.batch([
      deps.db.update(departments).set({ name, updatedAt: now }).where(and(eq(departments.id, id), eq(departments.tenantId, tenant.id))),
      auditInsert(deps.db, { tenantId: tenant.id, actorUserId: actor.userId, action: 'department.renamed', targetType: 'department', targetId: id, ipAddress: actor.ip, userAgent: actor.userAgent, details: { from: before.name, to: name } }, now),
    ]);
  } catch (e) {
    if (isUniqueViolation(e, 'departments')) nameExists();
    throw e;
  }
  return (await listDepartments(deps, tenant.id)).find((d) => d.id === id)!;
}

export async function deleteDepartment(deps: Deps, tenant: Tenant, id: number, actor: PeopleActor): Promise<void> {
  const { db } = deps;
  const dept = await findDepartment(deps, tenant.id, id);
  const used = await db
    .select({ one: sql<number>`1` })
    .from(tenantUsers)
    .where(and(eq(tenantUsers.tenantId, tenant.id), eq(tenantUsers.departmentId, id)))
    .get();
  const usedExtra = await db.select({ one: sql<number>`1` }).from(additionalDepartments).where(and(eq(additionalDepartments.tenantId, tenant.id), eq(additionalDepartments.departmentId, id))).get();
  if (used || usedExtra) throw new AppError('cannot-delete-department-with-users');
  const now = deps.clock.now();
  // The delete itself re-checks, so a member added meanwhile keeps the department.
  const [deleted] = await db.batch([
    rawStatement(db, sql`DELETE FROM departments WHERE id = ${id} AND tenant_id = ${tenant.id}
      AND NOT EXISTS (SELECT 1 FROM tenant_users WHERE department_id = ${id})
      AND NOT EXISTS (SELECT 1 FROM additional_departments WHERE department_id = ${id})`),
    auditInsert(db, { tenantId: tenant.id, actorUserId: actor.userId, action: 'department.deleted', targetType: 'department', targetId: id, ipAddress: actor.ip, userAgent: actor.userAgent, details: { name: dept.name } }, now),
  ]);
  const r = deleted as { rowsAffected?: number; meta?: { changes?: number } };
  if (Number(r.rowsAffected ?? r.meta?.changes ?? 1) === 0) throw new AppError('cannot-delete-department-with-users');
}
