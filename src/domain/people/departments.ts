// Departments of a tenant (spec 02 "Departments screen"): names unique per tenant, a department
// with members (main or additional) cannot be deleted.
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { additionalDepartments, departments, tenantUsers } from '../../db/schema';
import type { Department } from '../../shared/people/schemas';
import { auditInsert } from '../audit/log';
import { AppError, isUniqueViolation, text, ValidationError } from '../errors';
import { iso } from './members';
import type { PeopleActor } from './users';
import type { TenantScope } from '../tenants/scope';
import { rawStatement, readOne } from '../../db/client';
import { departmentsRead } from './lists';

async function findDepartment(deps: Deps, scope: TenantScope, id: number) {
  const row = await deps.db.select().from(departments).where(scope.own(departments, eq(departments.id, id))).get();
  if (!row) throw new AppError('not-found');
  return row;
}

function nameExists(): never {
  throw new ValidationError({ name: [text('people.departments.nameExists')] });
}

async function assertFreeName(deps: Deps, scope: TenantScope, name: string, exceptId: number | null) {
  const same = await deps.db.select({ id: departments.id }).from(departments).where(scope.own(departments, eq(departments.name, name))).get();
  if (same && same.id !== exceptId) nameExists();
}


export async function addDepartment(deps: Deps, scope: TenantScope, name: string, actor: PeopleActor): Promise<Department> {
  await assertFreeName(deps, scope, name, null);
  const now = deps.clock.now();
  try {
    const [inserted] = await deps.db.batch([
      scope.insert(departments, { name, createdAt: now, updatedAt: now }).returning(),
      auditInsert(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: 'department.created', targetType: 'department', ipAddress: actor.ip, userAgent: actor.userAgent, details: { name } }, now),
    ]);
    const d = inserted[0]!;
    return { id: d.id, name: d.name, created_at: iso(d.createdAt)!, users_count: 0, additional_users_count: 0 };
  } catch (e) {
    if (isUniqueViolation(e, 'departments')) nameExists();
    throw e;
  }
}

export async function renameDepartment(deps: Deps, scope: TenantScope, id: number, name: string, actor: PeopleActor): Promise<Department> {
  const before = await findDepartment(deps, scope, id);
  await assertFreeName(deps, scope, name, id);
  const now = deps.clock.now();
  try {
    await deps.db.batch([
      deps.db.update(departments).set({ name, updatedAt: now }).where(and(eq(departments.id, id), scope.own(departments))),
      auditInsert(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: 'department.renamed', targetType: 'department', targetId: id, ipAddress: actor.ip, userAgent: actor.userAgent, details: { from: before.name, to: name } }, now),
    ]);
  } catch (e) {
    if (isUniqueViolation(e, 'departments')) nameExists();
    throw e;
  }
  return (await readOne(scope.db, departmentsRead(scope))).find((d) => d.id === id)!;
}

export async function deleteDepartment(deps: Deps, scope: TenantScope, id: number, actor: PeopleActor): Promise<void> {
  const { db } = deps;
  const dept = await findDepartment(deps, scope, id);
  const used = await db
    .select({ one: sql<number>`1` })
    .from(tenantUsers)
    .where(scope.own(tenantUsers, eq(tenantUsers.departmentId, id)))
    .get();
  const usedExtra = await db.select({ one: sql<number>`1` }).from(additionalDepartments).where(scope.own(additionalDepartments, eq(additionalDepartments.departmentId, id))).get();
  if (used || usedExtra) throw new AppError('cannot-delete-department-with-users');
  const now = deps.clock.now();
  // The delete itself re-checks, so a member added meanwhile keeps the department.
  const [deleted] = await db.batch([
    rawStatement(db, sql`DELETE FROM departments WHERE id = ${id} AND tenant_id = ${scope.id}
      AND NOT EXISTS (SELECT 1 FROM tenant_users WHERE department_id = ${id})
      AND NOT EXISTS (SELECT 1 FROM additional_departments WHERE department_id = ${id})`),
    auditInsert(db, { tenantId: scope.id, actorUserId: actor.userId, action: 'department.deleted', targetType: 'department', targetId: id, ipAddress: actor.ip, userAgent: actor.userAgent, details: { name: dept.name } }, now),
  ]);
  const r = deleted as { rowsAffected?: number; meta?: { changes?: number } };
  if (Number(r.rowsAffected ?? r.meta?.changes ?? 1) === 0) throw new AppError('cannot-delete-department-with-users');
}
