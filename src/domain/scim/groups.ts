// SCIM Groups are the tenant's departments (decision 0040). A group's members are the people whose
// main department it is and those who have it as an additional department. Adding a member makes
// it their main department when they have none, an additional one otherwise; removing it from a
// person whose main department it is promotes their first additional department (or none). A
// group the IdP deletes takes its memberships with it (the IdP owns it; the admin screen's "only
// an empty department" rule protects admins from a slip, not the IdP from itself).
//
// Member operations are applied as set operations in SQL (a department may hold 10,000 people; the
// list is never loaded to apply a PATCH); the other operations go through scim-patch like a
// User's. Member values that are no member of this tenant are ignored. Each change is one batch
// with its audit entry.
import { asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { parse as parseFilter, type Filter } from 'scim2-parse-filter';
import type { ScimPatchOperation } from 'scim-patch';
import { rawStatement } from '../../db/client';
import { applyPatch } from './patch';
import { additionalDepartments, departments, tenantUsers, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { auditInsert } from '../audit/log';
import { isUniqueViolation } from '../errors';
import type { TenantScope } from '../tenants/scope';
import type { ScimActor, ScimRead } from './auth';
import { MAX_MEMBERS_PER_REQUEST, MAX_RESULTS, URN } from './discovery';
import { invalidSyntax, invalidValue, notFound, ScimError } from './errors';
import { compileFilter, idValue, NOTHING, text, type CompValue, type FilterTable } from './filter';
import { NAME_MAX } from './names';
import type { ListQuery, ScimResource } from './users';

type Department = typeof departments.$inferSelect;
interface MemberRow {
  departmentId: number;
  userId: number;
  email: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Whether user `u` (SQL) is in department `d` (SQL): main or additional, not being deleted. */
function inDepartment(scope: TenantScope, userId: SQL, departmentId: SQL) {
  return sql`EXISTS (SELECT 1 FROM tenant_users tu WHERE tu.tenant_id = ${scope.id} AND tu.user_id = ${userId} AND tu.operation_status IS NULL
    AND (tu.department_id = ${departmentId} OR EXISTS (SELECT 1 FROM additional_departments ad WHERE ad.tenant_user_id = tu.id AND ad.department_id = ${departmentId})))`;
}

function groupFilters(scope: TenantScope): FilterTable {
  const member = (value: CompValue) => {
    const id = idValue(value);
    return id === null ? NOTHING : inDepartment(scope, sql`${id}`, sql`${departments.id}`);
  };
  return {
    compare: (path, value) => {
      switch (path) {
        case 'displayname': {
          const t = text(value);
          return t === undefined ? NOTHING : sql`lower(${departments.name}) = lower(${t})`;
        }
        case 'externalid': {
          const t = text(value);
          return t === undefined ? NOTHING : eq(departments.scimExternalId, t);
        }
        case 'id': {
          const id = idValue(value);
          return id === null ? NOTHING : eq(departments.id, id);
        }
        case 'members':
        case 'members.value':
          return member(value);
        default:
          return undefined;
      }
    },
    valuePath: (attr) => (attr === 'members' ? (path, value) => (path === 'value' ? member(value) : undefined) : undefined),
  };
}

export function groupsFilter(scope: TenantScope, filter: string): SQL {
  return compileFilter(filter, groupFilters(scope));
}

export function groupResource(d: Department, members: MemberRow[] | null, base: string): ScimResource {
  return {
    schemas: [URN.group],
    id: String(d.id),
    displayName: d.name,
    ...(d.scimExternalId ? { externalId: d.scimExternalId } : {}),
    ...(members ? { members: members.map((m) => ({ value: String(m.userId), display: m.email, $ref: `${base}/Users/${m.userId}` })) } : {}),
    meta: { resourceType: 'Group', created: iso(d.createdAt), lastModified: iso(d.updatedAt), location: `${base}/Groups/${d.id}` },
  };
}

/** The members of the departments `ids` (a subquery), main and additional, in one statement each. */
function membersOf(scope: TenantScope, ids: SQL) {
  return [
    scope.db
      .select({ departmentId: sql<number>`${tenantUsers.departmentId}`.mapWith(Number), userId: tenantUsers.userId, email: users.email })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(scope.own(tenantUsers, sql`${tenantUsers.operationStatus} IS NULL`, sql`${tenantUsers.departmentId} IN ${ids}`))
      .orderBy(asc(tenantUsers.userId)),
    scope.db
      .select({ departmentId: additionalDepartments.departmentId, userId: tenantUsers.userId, email: users.email })
      .from(additionalDepartments)
      .innerJoin(tenantUsers, eq(tenantUsers.id, additionalDepartments.tenantUserId))
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(scope.own(additionalDepartments, sql`${tenantUsers.operationStatus} IS NULL`, sql`${additionalDepartments.departmentId} IN ${ids}`))
      .orderBy(asc(tenantUsers.userId)),
  ];
}

function byDepartment(rows: MemberRow[][]): Map<number, MemberRow[]> {
  const out = new Map<number, MemberRow[]>();
  for (const r of rows.flat()) {
    const list = out.get(r.departmentId) ?? [];
    list.push(r);
    out.set(r.departmentId, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.userId - b.userId);
  return out;
}

/** GET /Groups: a page of departments by id, the total, and (unless excluded) their members. */
export function groupsRead(scope: TenantScope, guard: SQL, q: ListQuery, withMembers: boolean, base: string): ScimRead<{ resources: ScimResource[]; total: number }> {
  const where = scope.own(departments, q.filter, guard);
  const limit = Math.min(q.count, MAX_RESULTS);
  const page = scope.db.select({ id: departments.id }).from(departments).where(where).orderBy(asc(departments.id)).limit(limit).offset(q.startIndex - 1);
  return {
    statements: [
      scope.db.select().from(departments).where(where).orderBy(asc(departments.id)).limit(limit).offset(q.startIndex - 1),
      scope.db.select({ n: count() }).from(departments).where(where),
      ...(withMembers ? membersOf(scope, sql`(${page})`) : []),
    ],
    parse: ([rows, total, main, extra]) => {
      const members = withMembers ? byDepartment([main as MemberRow[], extra as MemberRow[]]) : null;
      return {
        resources: (rows as Department[]).map((d) => groupResource(d, members ? (members.get(d.id) ?? []) : null, base)),
        total: Number((total as { n: number }[])[0]?.n ?? 0),
      };
    },
  };
}

/** GET /Groups/{id}. */
export function groupRead(scope: TenantScope, guard: SQL, id: number | null, withMembers: boolean, base: string): ScimRead<ScimResource | null> {
  const where = scope.own(departments, eq(departments.id, id ?? 0), guard);
  return {
    statements: [scope.db.select().from(departments).where(where), ...(withMembers ? membersOf(scope, sql`(${id ?? 0})`) : [])],
    parse: ([rows, main, extra]) => {
      const d = (rows as Department[])[0];
      if (!d) return null;
      return groupResource(d, withMembers ? (byDepartment([main as MemberRow[], extra as MemberRow[]]).get(d.id) ?? []) : null, base);
    },
  };
}

async function findDepartment(scope: TenantScope, id: number): Promise<Department> {
  const d = await scope.db.select().from(departments).where(scope.own(departments, eq(departments.id, id))).get();
  if (!d) throw notFound(`Group ${id}`);
  return d;
}

async function readGroup(scope: TenantScope, id: number, base: string): Promise<ScimResource> {
  const d = await findDepartment(scope, id);
  const [main, extra] = (await scope.db.batch(membersOf(scope, sql`(${id})`) as never)) as [MemberRow[], MemberRow[]];
  return groupResource(d, byDepartment([main, extra]).get(id) ?? [], base);
}

// ---------------------------------------------------------------------------------------------
// What a request asks for

function attributes(body: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v]));
}

function displayName(v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '') throw invalidValue('displayName is required');
  const t = v.trim();
  if ([...t].length > NAME_MAX) throw invalidValue(`displayName is longer than ${NAME_MAX} characters`);
  return t;
}

function externalIdOf(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > NAME_MAX) throw invalidValue('externalId must be a string of at most 255 characters');
  return v;
}

/** Member values ({value: "<user id>"}) as user ids; values that are no id match nobody. */
function memberIds(v: unknown): number[] {
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : [v];
  if (list.length > MAX_MEMBERS_PER_REQUEST) throw new ScimError(400, `at most ${MAX_MEMBERS_PER_REQUEST} members per request`, 'tooMany');
  const ids: number[] = [];
  for (const m of list) {
    const value = m && typeof m === 'object' ? attributes(m as Record<string, unknown>).get('value') : m;
    const id = idValue(typeof value === 'number' ? value : typeof value === 'string' ? value : null);
    if (id !== null) ids.push(id);
  }
  return [...new Set(ids)];
}

/** The user ids a path such as members[value eq "42"] names (eq, joined by or). */
function idsInPath(path: string): number[] {
  const m = /^members\[(.*)\]$/is.exec(path.trim());
  if (!m) throw new ScimError(400, `the path "${path}" is not supported`, 'invalidPath');
  let f: Filter;
  try {
    f = parseFilter(m[1]!);
  } catch (e) {
    throw new ScimError(400, `the path "${path}" cannot be read: ${e instanceof Error ? e.message : String(e)}`, 'invalidPath');
  }
  const out: number[] = [];
  const walk = (x: Filter) => {
    if (x.op === 'or') x.filters.forEach(walk);
    else if (x.op === 'eq' && x.attrPath.toLowerCase() === 'value') {
      const id = idValue(x.compValue);
      if (id !== null) out.push(id);
    } else throw new ScimError(400, `the path "${path}" is not supported: members[value eq "<id>"]`, 'invalidPath');
  };
  walk(f);
  return out;
}

/** What a request does to a department's members, in order. */
type MemberChange = { kind: 'add'; ids: number[] } | { kind: 'remove'; ids: number[] } | { kind: 'removeAll' } | { kind: 'replace'; ids: number[] };

/** The statements of one member change of department `d`. */
function memberStatements(scope: TenantScope, d: number | SQL, change: MemberChange, now: number): unknown[] {
  const db = scope.db;
  const T = scope.id;
  const add = (ids: number[]) => {
    const list = JSON.stringify(ids);
    return [
      rawStatement(db, sql`UPDATE tenant_users SET department_id = ${d}, updated_at = ${now}
        WHERE tenant_id = ${T} AND operation_status IS NULL AND department_id IS NULL AND user_id IN (SELECT value FROM json_each(${list}))`),
      rawStatement(db, sql`INSERT INTO additional_departments (tenant_id, tenant_user_id, department_id)
        SELECT ${T}, tu.id, ${d} FROM tenant_users tu
        WHERE tu.tenant_id = ${T} AND tu.operation_status IS NULL AND tu.department_id <> ${d} AND tu.user_id IN (SELECT value FROM json_each(${list}))
        ON CONFLICT DO NOTHING`),
    ];
  };
  const remove = (selection: SQL) => [
    rawStatement(db, sql`DELETE FROM additional_departments WHERE tenant_id = ${T} AND department_id = ${d}
      AND tenant_user_id IN (SELECT id FROM tenant_users WHERE tenant_id = ${T} AND ${selection})`),
    // Their first additional department becomes the main one (or none).
    rawStatement(db, sql`UPDATE tenant_users SET department_id = (SELECT min(ad.department_id) FROM additional_departments ad WHERE ad.tenant_user_id = tenant_users.id),
        updated_at = ${now}
      WHERE tenant_id = ${T} AND department_id = ${d} AND ${selection}`),
    rawStatement(db, sql`DELETE FROM additional_departments WHERE tenant_id = ${T}
      AND EXISTS (SELECT 1 FROM tenant_users tu WHERE tu.id = additional_departments.tenant_user_id AND tu.department_id = additional_departments.department_id)`),
  ];
  switch (change.kind) {
    case 'add':
      return change.ids.length ? add(change.ids) : [];
    case 'remove':
      return change.ids.length ? remove(sql`user_id IN (SELECT value FROM json_each(${JSON.stringify(change.ids)}))`) : [];
    case 'removeAll':
      return remove(sql`1`);
    case 'replace':
      return [...remove(sql`user_id NOT IN (SELECT value FROM json_each(${JSON.stringify(change.ids)}))`), ...add(change.ids)];
  }
}

function changeSummary(changes: MemberChange[]): Record<string, unknown> {
  const head = (ids: number[]) => ids.slice(0, 100);
  return {
    members: changes.map((c) => (c.kind === 'removeAll' ? { removeAll: true } : { [c.kind]: head(c.ids), count: c.ids.length })),
  };
}

function audit(scope: TenantScope, actor: ScimActor, action: string, targetId: number | SQL, details: Record<string, unknown>, now: number) {
  return auditInsert(
    scope.db,
    {
      tenantId: scope.id,
      actorUserId: null,
      actorName: actor.tokenName,
      action,
      targetType: 'department',
      ...(typeof targetId === 'number' ? { targetId } : {}),
      ipAddress: actor.ip,
      userAgent: actor.userAgent,
      details: { ...details, via: 'scim', scimTokenId: actor.tokenId },
    },
    now,
  );
}

async function run(scope: TenantScope, statements: unknown[]): Promise<void> {
  try {
    await scope.db.batch(statements as never);
  } catch (e) {
    if (isUniqueViolation(e, 'departments')) throw new ScimError(409, 'a department of this tenant already has this displayName', 'uniqueness');
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Writing

/** POST /Groups: a department (and its first members, if any). */
export async function createScimGroup(deps: Deps, scope: TenantScope, body: unknown, actor: ScimActor, base: string): Promise<ScimResource> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidSyntax('the body must be a JSON object');
  const a = attributes(body as Record<string, unknown>);
  const name = displayName(a.get('displayname'));
  const externalId = externalIdOf(a.get('externalid'));
  const ids = memberIds(a.get('members'));
  const same = await scope.db.select({ id: departments.id }).from(departments).where(scope.own(departments, eq(departments.name, name))).get();
  if (same) throw new ScimError(409, 'a department of this tenant already has this displayName', 'uniqueness');
  const now = deps.clock.now();
  // One batch: the department, its audit entry (with the id it got) and its first members, so a
  // refusal leaves nothing behind. The new row is found by its name, unique in the tenant.
  const dept = sql`(SELECT id FROM departments WHERE tenant_id = ${scope.id} AND name = ${name})`;
  const change: MemberChange = { kind: 'add', ids };
  let id: number;
  try {
    const [inserted] = (await scope.db.batch([
      scope.insert(departments, { name, scimExternalId: externalId, createdAt: now, updatedAt: now }).returning({ id: departments.id }),
      rawStatement(
        scope.db,
        sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
          SELECT ${scope.id}, NULL, NULL, ${actor.tokenName}, 'department.created', 'department', CAST(d.id AS TEXT), ${actor.ip}, ${actor.userAgent?.slice(0, 512) ?? null},
            json_object('name', d.name, 'via', 'scim', 'scimTokenId', ${actor.tokenId}), ${now}
          FROM departments d WHERE d.tenant_id = ${scope.id} AND d.name = ${name}`,
      ),
      ...(ids.length ? [...memberStatements(scope, dept, change, now), audit(scope, actor, 'department.members_changed', dept, changeSummary([change]), now)] : []),
    ] as never)) as [{ id: number }[]];
    id = inserted[0]!.id;
  } catch (e) {
    if (isUniqueViolation(e, 'departments')) throw new ScimError(409, 'a department of this tenant already has this displayName', 'uniqueness');
    throw e;
  }
  return readGroup(scope, id, base);
}

/** The department's row changes and member changes, in one batch with the audit entries. */
async function applyGroupChanges(
  deps: Deps,
  scope: TenantScope,
  d: Department,
  next: { name: string; externalId: string | null },
  changes: MemberChange[],
  actor: ScimActor,
): Promise<void> {
  const now = deps.clock.now();
  const renamed = next.name !== d.name;
  const relinked = next.externalId !== d.scimExternalId;
  if (renamed) {
    const same = await scope.db.select({ id: departments.id }).from(departments).where(scope.own(departments, eq(departments.name, next.name))).get();
    if (same && same.id !== d.id) throw new ScimError(409, 'a department of this tenant already has this displayName', 'uniqueness');
  }
  const statements: unknown[] = [];
  if (renamed || relinked) {
    statements.push(scope.update(departments, { name: next.name, scimExternalId: next.externalId, updatedAt: now }, eq(departments.id, d.id)));
  }
  if (renamed) statements.push(audit(scope, actor, 'department.renamed', d.id, { from: d.name, to: next.name }, now));
  const memberWork = changes.flatMap((c) => memberStatements(scope, d.id, c, now));
  if (memberWork.length) {
    statements.push(...memberWork, audit(scope, actor, 'department.members_changed', d.id, changeSummary(changes), now));
    // The department itself changed (its members): its lastModified says so.
    if (!renamed && !relinked) statements.push(scope.update(departments, { updatedAt: now }, eq(departments.id, d.id)));
  }
  if (statements.length) await run(scope, statements);
}

/** PUT /Groups/{id}: name, externalId, and the whole member list when `members` is sent (left out: kept). */
export async function replaceScimGroup(deps: Deps, scope: TenantScope, id: number, body: unknown, actor: ScimActor, base: string): Promise<ScimResource> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidSyntax('the body must be a JSON object');
  const d = await findDepartment(scope, id);
  const a = attributes(body as Record<string, unknown>);
  const next = { name: displayName(a.get('displayname')), externalId: a.has('externalid') ? externalIdOf(a.get('externalid')) : d.scimExternalId };
  const changes: MemberChange[] = a.has('members') ? [{ kind: 'replace', ids: memberIds(a.get('members')) }] : [];
  await applyGroupChanges(deps, scope, d, next, changes, actor);
  return readGroup(scope, id, base);
}

/**
 * PATCH /Groups/{id}. Member operations, as Entra and Okta send them: add {path: members, value:
 * [{value}]}, remove {path: members, value: [{value}]} (Entra) or {path: members[value eq "id"]}
 * (Okta, and Entra with aadOptscim062020), replace {path: members} (the whole list), and the
 * path-less forms with a value {members: [...]}. Everything else (displayName, externalId, a
 * path-less {id, displayName}) through scim-patch.
 */
export async function patchScimGroup(deps: Deps, scope: TenantScope, id: number, operations: ScimPatchOperation[], actor: ScimActor, base: string): Promise<void> {
  const d = await findDepartment(scope, id);
  const changes: MemberChange[] = [];
  const others: ScimPatchOperation[] = [];
  for (const op of operations) {
    const kind = op.op.toLowerCase() as 'add' | 'remove' | 'replace';
    const path = typeof op.path === 'string' ? op.path.trim() : '';
    const lower = path.toLowerCase();
    if (lower === 'members' || lower.startsWith('members[')) {
      if (kind === 'remove') {
        if (lower.startsWith('members[')) changes.push({ kind: 'remove', ids: idsInPath(path) });
        else if (op.value === undefined || op.value === null) changes.push({ kind: 'removeAll' });
        else changes.push({ kind: 'remove', ids: memberIds(op.value) });
      } else if (lower.startsWith('members[')) {
        throw new ScimError(400, `${op.op} with the path "${path}" is not supported`, 'invalidPath');
      } else changes.push({ kind: kind === 'add' ? 'add' : 'replace', ids: memberIds(op.value) });
      continue;
    }
    if (!path && op.value && typeof op.value === 'object' && !Array.isArray(op.value)) {
      // A path-less operation: its members part here, the rest through scim-patch.
      const { members, ...rest } = Object.fromEntries(Object.entries(op.value as Record<string, unknown>).map(([k, v]) => [k.toLowerCase() === 'members' ? 'members' : k, v]));
      if (members !== undefined) changes.push({ kind: kind === 'add' ? 'add' : 'replace', ids: memberIds(members) });
      if (Object.keys(rest).length) others.push({ ...op, value: rest } as ScimPatchOperation);
      continue;
    }
    others.push(op);
  }
  let next = { name: d.name, externalId: d.scimExternalId };
  if (others.length) {
    const resource = groupResource(d, null, base);
    let patched: ScimResource;
    try {
      patched = applyPatch(resource, others);
    } catch (e) {
      const code = (e as { scimCode?: string }).scimCode;
      throw new ScimError(400, e instanceof Error ? e.message : String(e), (code as never) ?? 'invalidSyntax');
    }
    if (String(patched.id) !== String(d.id)) throw new ScimError(400, 'id cannot change', 'mutability');
    const a = attributes(patched);
    next = { name: displayName(a.get('displayname')), externalId: externalIdOf(a.get('externalid')) };
  }
  await applyGroupChanges(deps, scope, d, next, changes, actor);
}

/** DELETE /Groups/{id}: the department goes, and with it its memberships (main ones fall back to an additional one). */
export async function deleteScimGroup(deps: Deps, scope: TenantScope, id: number, actor: ScimActor): Promise<void> {
  const d = await findDepartment(scope, id);
  const now = deps.clock.now();
  await run(scope, [
    ...memberStatements(scope, d.id, { kind: 'removeAll' }, now),
    scope.delete(departments, eq(departments.id, d.id)),
    audit(scope, actor, 'department.deleted', d.id, { name: d.name }, now),
  ]);
}
