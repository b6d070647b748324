// What the people screens and calls read, as batchable reads (db/client.ts `read`): a screen puts
// all of them in one batch after the request's principal, so every one of these screens and calls
// costs two round trips on D1 (issue 23). Search and sort run in SQL, so a 50,000-member tenant
// answers from indexes and one sort, never by loading every row.
import { and, asc, count, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { combine, read, readOne, type Placeholders } from '../../db/client';
import { additionalDepartments, departments, importLogs, passkeys, samlSettings, tenantApps, tenantUsers, users, type AppKey } from '../../db/schema';
import type { AdminUser, AllowedApp, DepartmentRef, ManagedApp, UsersPage, UsersQuery } from '../../shared/people/schemas';
import type { ImportLog } from '../../shared/people/schemas';
import { normaliseReading } from '../../shared/people/reading';
import { ssoStatusOf } from '../sso/status';
import { memberApps } from '../tenants/memberships';
import { scopedRead, scopedShapes, type PreparedScope, type TenantScope } from '../tenants/scope';
import { activeMember, containsPattern, holdsSeat, iso } from './members';

const MANAGED: AppKey[] = ['meishi', 'scheduler'];

type TenantApp = typeof tenantApps.$inferSelect;

// What a list item shows, and nothing more (no password hash or factor secrets leave the
// database for a list): flat, with the names two tables share made distinct, so the rows read
// alike from a D1 batch (objects keyed by column name) and alone.
const item = (s: PreparedScope) => ({
  memberId: sql<number>`${tenantUsers.id}`.as('m_id'),
  displayName: tenantUsers.displayName,
  isAdmin: tenantUsers.isAdmin,
  meishiAccessGrantedAt: tenantUsers.meishiAccessGrantedAt,
  schedulerAccessGrantedAt: tenantUsers.schedulerAccessGrantedAt,
  meishiOperatorAccessGrantedAt: tenantUsers.meishiOperatorAccessGrantedAt,
  isSsoEnabled: tenantUsers.isSsoEnabled,
  samlNameId: tenantUsers.samlNameId,
  createdAt: sql<number>`${tenantUsers.createdAt}`.as('m_created_at'),
  lastActiveAt: tenantUsers.lastActiveAt,
  invitedAt: tenantUsers.invitedAt,
  deactivatedAt: tenantUsers.deactivatedAt,
  operationStatus: tenantUsers.operationStatus,
  invitationPending: tenantUsers.invitationPending,
  nameReading: tenantUsers.nameReading,
  userId: sql<number>`${users.id}`.as('u_id'),
  name: sql<string>`${users.name}`.as('u_name'),
  email: users.email,
  twofaMethod: users.twofaMethod,
  registered: sql<number>`${users.passwordHash} IS NOT NULL`.as('u_registered'),
  // Who has a passkey (decision 0039): the admin removes them for a lost device. One index probe
  // per row of the page (passkeys_user_idx), inside the same statement.
  passkeys: sql<number>`(select count(*) from ${passkeys} where ${passkeys.userId} = ${users.id})`.as('u_passkeys'),
  language: users.language,
  emailVerifiedAt: users.emailVerifiedAt,
  deptId: sql<number | null>`${departments.id}`.as('d_id'),
  deptName: sql<string | null>`${departments.name}`.as('d_name'),
  // The additional departments as JSON [[id, name], ...] by name, in the same statement: a second
  // statement repeating the page's query cost as much as the page itself (issue 23). CROSS JOIN
  // fixes SQLite's loop order: the row's few links first, each department by key; left to itself
  // it walked every department of the tenant by name for every row (half the statement's time).
  extra: sql<string>`(SELECT json_group_array(json_array(x.id, x.name)) FROM (SELECT d.id, d.name FROM ${additionalDepartments} ad
      CROSS JOIN ${departments} d ON d.id = ad.department_id AND d.tenant_id = ${s.id}
      WHERE ad.tenant_user_id = ${tenantUsers.id} AND +ad.tenant_id = ${s.id} ORDER BY d.name) x)`.as('x_departments'),
});

// The lists' reads are built once per shape and sent with new values (src/db/client.ts
// `prepared`): drizzle building them on every request was a third of the users screen's CPU.
type MemberFilter = 'active' | 'search' | 'deactivated' | 'one';
type MemberOrder = `${UsersQuery['sort']} ${'asc' | 'desc'}` | 'deactivated' | 'id';
/** Which members and in which order: one SQL each. */
type MemberShape = `${MemberFilter}/${MemberOrder}`;
type MemberValues = { pattern: string; reading: string; userId: number; limit: number; offset: number };

function memberWhere(s: PreparedScope, filter: MemberFilter, p: Placeholders<Pick<MemberValues, 'pattern' | 'reading' | 'userId'>>): SQL {
  switch (filter) {
    case 'active':
      return s.own(tenantUsers, isNull(tenantUsers.deactivatedAt));
    case 'search':
      // A pending invitation's account name is not the tenant's to search.
      return s.own(
        tenantUsers,
        isNull(tenantUsers.deactivatedAt),
        // The reading is searched as it is kept (katakana), so "やまだ" finds ヤマダ (decision 0045).
        sql`((${tenantUsers.invitationPending} = 0 AND (lower(coalesce(${tenantUsers.displayName}, ${users.name})) LIKE ${p.pattern} ESCAPE '\\' OR ${tenantUsers.nameReading} LIKE ${p.reading} ESCAPE '\\')) OR ${users.email} LIKE ${p.pattern} ESCAPE '\\')`,
      );
    case 'deactivated':
      return s.own(tenantUsers, isNotNull(tenantUsers.deactivatedAt));
    case 'one':
      return s.own(tenantUsers, eq(tenantUsers.userId, p.userId));
  }
}

function memberOrder(order: MemberOrder): SQL[] {
  if (order === 'deactivated') return [desc(tenantUsers.deactivatedAt), desc(tenantUsers.id)];
  if (order === 'id') return [asc(tenantUsers.id)];
  const [sort, way] = order.split(' ') as [UsersQuery['sort'], 'asc' | 'desc'];
  const dir = way === 'asc' ? asc : desc;
  const column = {
    created_at: tenantUsers.createdAt,
    // By the reading where the tenant keeps one (katakana sorts in gojūon order), else the name.
    name: sql`case when ${tenantUsers.invitationPending} then '' else coalesce(${tenantUsers.nameReading}, ${tenantUsers.displayName}, ${users.name}) end`,
    email: users.email,
    last_active_at: tenantUsers.lastActiveAt,
  }[sort];
  // never-active members last in either direction
  return sort === 'last_active_at' ? [sql`${tenantUsers.lastActiveAt} IS NULL`, dir(column), dir(tenantUsers.id)] : [dir(column), dir(tenantUsers.id)];
}

const shapeParts = (shape: MemberShape) => shape.split('/') as [MemberFilter, MemberOrder];

const memberRows = scopedShapes((s, shape: MemberShape, p: Placeholders<MemberValues>) => {
  const [filter, order] = shapeParts(shape);
  return s.db
    .select(item(s))
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .leftJoin(departments, and(eq(departments.id, tenantUsers.departmentId), s.own(departments)))
    .where(memberWhere(s, filter, p))
    .orderBy(...memberOrder(order))
    .limit(p.limit)
    .offset(p.offset);
});

const contractedApps = scopedRead((s) => s.db.select().from(tenantApps).where(s.own(tenantApps)));

/** One page of members (with the main and additional departments) and the contracted apps. */
function memberPage(scope: TenantScope, shape: MemberShape, values: Partial<MemberValues> & Pick<MemberValues, 'limit' | 'offset'>) {
  const v: MemberValues = { pattern: '', reading: '', userId: 0, ...values };
  return { rows: memberRows(scope, shape, v), contracted: contractedApps(scope, {}) };
}

type ItemRow = Awaited<ReturnType<typeof memberRows>>[number];

/** The additional departments' JSON, by name: SQLite does not promise an aggregate keeps its subquery's order, so sorted here too (binary, as SQLite's). */
function extraDepartments(json: string | null): DepartmentRef[] {
  const list = (JSON.parse(json ?? '[]') as [number, string][]).map(([id, name]) => ({ id, name }));
  return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** List items for a page's rows and the tenant's contracted apps. */
export function adminUsers(rows: ItemRow[], contracted: TenantApp[]): AdminUser[] {
  const apps = contracted.map((a) => a.app);
  return rows.map((m) => {
    const departmentsOf = extraDepartments(m.extra);
    const item: AdminUser = {
      id: m.userId,
      name: m.displayName ?? m.name,
      name_reading: m.nameReading,
      email: m.email,
      department: m.deptId !== null && m.deptName !== null ? { id: m.deptId, name: m.deptName } : null,
      additionalDepartments: departmentsOf,
      additional_departments_for_tenant: departmentsOf.map((d) => d.id),
      is_admin: m.isAdmin ? 1 : 0,
      role: m.isAdmin ? 'admin' : 'normal',
      allowedApps: memberApps(m, apps).filter((a) => MANAGED.includes(a)),
      is_sso_enabled: m.isSsoEnabled,
      saml_name_id: m.samlNameId,
      isTwofaEnabled: m.twofaMethod !== null,
      twofaMethod: m.twofaMethod,
      passkeys: Number(m.passkeys),
      created_at: iso(m.createdAt)!,
      last_active_at: iso(m.lastActiveAt),
      invited_at: iso(m.invitedAt),
      isRegistered: Boolean(m.registered),
      deactivated_at: iso(m.deactivatedAt),
      operationStatus: m.operationStatus,
      language: m.language,
      emailVerifiedAt: iso(m.emailVerifiedAt),
      invitation_pending: m.invitationPending,
    };
    // Until the person accepts, the tenant sees only the address it typed: nothing about the
    // account (its name, activity, factors, registration) belongs to this tenant yet.
    return m.invitationPending
      ? { ...item, name: '', name_reading: null, isTwofaEnabled: false, twofaMethod: null, passkeys: 0, last_active_at: null, isRegistered: false, language: 'ja', emailVerifiedAt: null }
      : item;
  });
}

/** The list item of one member (after a change): its page of one. */
export function memberItem(scope: TenantScope, userId: number) {
  const p = memberPage(scope, 'one/id', { userId, limit: 1, offset: 0 });
  return readOne(scope.db, read(p, ({ rows, contracted }) => adminUsers(rows, contracted)[0]));
}

const searchTotal = scopedRead((s, p: Placeholders<Pick<MemberValues, 'pattern' | 'reading' | 'userId'>>) =>
  s.db.select({ n: count() }).from(tenantUsers).innerJoin(users, eq(users.id, tenantUsers.userId)).where(memberWhere(s, 'search', p)),
);

// One pass over the tenant's members for the toolbar, the seats in use and the SSO status.
const memberCounts = scopedRead((s) =>
  s.db
    .select({
      users: count(),
      accepted: sql<number>`coalesce(sum(${tenantUsers.invitationPending} = 0), 0)`,
      neverActive: sql<number>`coalesce(sum(${tenantUsers.lastActiveAt} is null), 0)`,
      notRegistered: sql<number>`coalesce(sum(${users.passwordHash} is null or ${tenantUsers.invitationPending}), 0)`,
      // As adminGuard counts them: the edit dialog says on the admin switch why the last one stays.
      admins: sql<number>`coalesce(sum(${tenantUsers.isAdmin} = 1 and ${tenantUsers.operationStatus} is null and ${tenantUsers.invitationPending} = 0), 0)`,
      sso: sql<number>`coalesce(sum(${tenantUsers.isSsoEnabled}), 0)`,
      // Seats in use by the seat check's own rule (holdsSeat), in this pass over the members.
      meishi: sql<number>`coalesce(sum(${holdsSeat(tenantUsers.meishiAccessGrantedAt)}), 0)`,
      scheduler: sql<number>`coalesce(sum(${holdsSeat(tenantUsers.schedulerAccessGrantedAt)}), 0)`,
    })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(s.own(tenantUsers, isNull(tenantUsers.deactivatedAt))),
);

/** The users list (GET admin/users): a page, the matching total, toolbar counts, seats and SSO figures. */
export function usersRead(scope: TenantScope, q: UsersQuery) {
  const pattern = q.search ? containsPattern(q.search.toLowerCase()) : '';
  const reading = q.search ? containsPattern(normaliseReading(q.search)) : '';
  const shape: MemberShape = `${q.search ? 'search' : 'active'}/${q.sort} ${q.order === 'asc' ? 'asc' : 'desc'}`;
  return read(
    {
      ...memberPage(scope, shape, { pattern, reading, limit: q.perPage, offset: (q.page - 1) * q.perPage }),
      total: q.search ? searchTotal(scope, { pattern, reading, userId: 0 }) : undefined,
      counts: memberCounts(scope, {}),
    },
    ({ rows, contracted, total, counts: [c] }) => {
      const seats: Record<ManagedApp, number> = { meishi: Number(c?.meishi ?? 0), scheduler: Number(c?.scheduler ?? 0) };
      const sso = Number(c?.sso ?? 0);
      return {
        data: adminUsers(rows, contracted),
        total: total?.[0]?.n ?? c?.users ?? 0,
        page: q.page,
        perPage: q.perPage,
        counts: { users: c?.users ?? 0, neverActive: Number(c?.neverActive ?? 0), notRegistered: Number(c?.notRegistered ?? 0), admins: Number(c?.admins ?? 0) },
        /** none, some or all of the accepted active members with SSO on (as the login page's check). */
        ssoStatus: ssoStatusOf(scope.tenant.isSsoEnabled, sso, Number(c?.accepted ?? 0)),
        apps: seatsLeft(contracted, seats),
      };
    },
  );
}

/** GET admin/users as the API answers it and the users screen shows it (with the apps' free seats). */
export function usersPageRead(scope: TenantScope, q: UsersQuery, isManagerOnly: boolean) {
  return combine({ list: usersRead(scope, q), visible: ssoOptionsRead(scope, isManagerOnly) }, ({ list: { apps, ...page }, visible }) => ({
    page: { ...page, ssoOptionsVisible: visible, ssoUsersLimit: scope.tenant.featureSsoUsersLimit, schedulerAllowed: apps.some((a) => a.key === 'scheduler') } satisfies UsersPage,
    apps,
  }));
}

/** SSO options show when the tenant has SSO on (or, for a tenant manager, its IdP configured) and an SSO users limit. */
export function ssoOptionsRead(scope: TenantScope, isManager: boolean) {
  const needsIdp = scope.tenant.featureSsoUsersLimit > 0 && !scope.tenant.isSsoEnabled && isManager;
  return read(
    { idp: needsIdp ? scope.db.select({ on: samlSettings.isIdpConfigured }).from(samlSettings).where(scope.own(samlSettings)).limit(1) : undefined },
    ({ idp }) => scope.tenant.featureSsoUsersLimit > 0 && (scope.tenant.isSsoEnabled || Boolean(idp?.[0]?.on)),
  );
}

/** GET admin/deactivated-users: deactivated_at descending, a page at a time, and the apps' free seats. */
const deactivatedTotal = scopedRead((s) => s.db.select({ n: count() }).from(tenantUsers).where(s.own(tenantUsers, isNotNull(tenantUsers.deactivatedAt))));

export function deactivatedRead(scope: TenantScope, page: number, perPage: number) {
  return read(
    {
      ...memberPage(scope, 'deactivated/deactivated', { limit: perPage, offset: (page - 1) * perPage }),
      total: deactivatedTotal(scope, {}),
      seats: seatsInUse(scope, {}),
    },
    ({ rows, contracted, total, seats }) => ({
      list: { data: adminUsers(rows, contracted), total: total[0]?.n ?? 0, page, perPage },
      apps: seatsLeft(contracted, seatsOf(seats[0])),
    }),
  );
}

const seatsInUse = scopedRead((s) =>
  s.db
    .select({
      meishi: sql<number>`coalesce(sum(${tenantUsers.meishiAccessGrantedAt} is not null), 0)`,
      scheduler: sql<number>`coalesce(sum(${tenantUsers.schedulerAccessGrantedAt} is not null), 0)`,
    })
    .from(tenantUsers)
    .where(activeMember(s)),
);

const seatsOf = (row: { meishi: number; scheduler: number } | undefined): Record<ManagedApp, number> => ({ meishi: Number(row?.meishi ?? 0), scheduler: Number(row?.scheduler ?? 0) });

/** The contracted apps the people screens manage, meishi first, with their free seats. */
function seatsLeft(contracted: TenantApp[], used: Record<ManagedApp, number>) {
  return contracted
    .filter((a): a is TenantApp & { app: ManagedApp } => a.app === 'meishi' || a.app === 'scheduler')
    .sort((a, b) => (a.app === 'meishi' ? -1 : b.app === 'meishi' ? 1 : 0))
    .map((a) => {
      const available = a.seats === null ? null : Math.max(0, a.seats - used[a.app]);
      return { key: a.app as AppKey, seats: a.seats, availableSeats: available, isSeatAvailable: available === null || available > 0 };
    });
}

/** GET admin/apps/allowed: the contracted apps and their free seats, one batch. */
export function allowedAppsRead(scope: TenantScope) {
  return read({ contracted: contractedApps(scope, {}), seats: seatsInUse(scope, {}) }, ({ contracted, seats }) => seatsLeft(contracted, seatsOf(seats[0])));
}

/** The apps as the screens name them. */
export function allowedAppsView(apps: ReturnType<typeof seatsLeft>, t: (key: string) => string): AllowedApp[] {
  return apps.map((a) => ({ key: a.key, name: t(`apps.${a.key}`), availableSeats: a.availableSeats, isSeatAvailable: a.isSeatAvailable }));
}

/** Departments with their member counts (members not being deleted; deactivated ones still belong). */
const departmentRows = scopedRead((s) =>
  s.db
    .select({
      id: departments.id,
      name: departments.name,
      createdAt: departments.createdAt,
      users: sql<number>`(SELECT count(*) FROM tenant_users tu WHERE tu.tenant_id = ${s.id} AND tu.department_id = departments.id AND tu.operation_status IS NULL)`,
      extra: sql<number>`(SELECT count(*) FROM additional_departments ad JOIN tenant_users tu ON tu.id = ad.tenant_user_id
        WHERE ad.tenant_id = ${s.id} AND ad.department_id = departments.id AND tu.operation_status IS NULL)`,
    })
    .from(departments)
    .where(s.own(departments))
    .orderBy(asc(departments.name)),
);

/** The departments' ids and names, by name: what the users screen's dialogs and sample CSV need (no counts). */
const departmentNameRows = scopedRead((s) => s.db.select({ id: departments.id, name: departments.name }).from(departments).where(s.own(departments)).orderBy(asc(departments.name)));

export function departmentNamesRead(scope: TenantScope) {
  return read({ rows: departmentNameRows(scope, {}) }, ({ rows }): DepartmentRef[] => rows);
}

export function departmentsRead(scope: TenantScope) {
  return read(
    { rows: departmentRows(scope, {}) },
    ({ rows }) => rows.map((r) => ({ id: r.id, name: r.name, created_at: iso(r.createdAt)!, users_count: Number(r.users), additional_users_count: Number(r.extra) })),
  );
}

/** Each department with its active members (main department). */
export function departmentsWithUsersRead(scope: TenantScope) {
  const { db } = scope;
  return read(
    {
      depts: departmentNameRows(scope, {}),
      members: db
        .select({ departmentId: tenantUsers.departmentId, id: users.id, name: users.name, email: users.email })
        .from(tenantUsers)
        .innerJoin(users, eq(users.id, tenantUsers.userId))
        .where(scope.own(tenantUsers, isNull(tenantUsers.deactivatedAt), isNull(tenantUsers.operationStatus)))
        .orderBy(asc(users.name)),
    },
    ({ depts, members }) => depts.map((d) => ({ ...d, users: members.filter((m) => m.departmentId === d.id).map(({ id, name, email }) => ({ id, name, email })) })),
  );
}

/** The import log, newest first. */
const importLogRows = scopedRead((s, p: Placeholders<{ limit: number }>) =>
  s.db
    .select({ log: importLogs, name: users.name })
    .from(importLogs)
    .leftJoin(users, eq(users.id, importLogs.userId))
    .where(s.own(importLogs))
    .orderBy(desc(importLogs.startTime), desc(importLogs.id))
    .limit(p.limit),
);

export function importLogsRead(scope: TenantScope, limit = 50) {
  return read(
    { rows: importLogRows(scope, { limit }) },
    ({ rows }): ImportLog[] =>
      rows.map(({ log, name }) => ({
        id: log.id,
        filename: log.filename,
        kind: log.kind,
        start_time: iso(log.startTime)!,
        user: name === null ? null : { name },
        status: log.status,
        number_of_users_updated: log.numberOfUsersUpdated,
      })),
  );
}
