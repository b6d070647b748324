// SCIM Users (RFC 7643 section 4.1) are the tenant's memberships (decision 0040): `id` is the
// person's user id (as on the admin screens), `userName` their address, `active` whether the
// membership is deactivated, `externalId` and the rest of what the IdP sent in `scim_users`. A
// member being deleted is gone already (404, never listed).
//
// Every change is one batch that carries its audit entries (the token's name as the actor) and the
// guard statements of the people area (seats, SSO users limit, last admin, one identity per
// address), so nothing is half-written, and parallel requests (Okta's) cannot pass a rule that a
// read before the write found intact (decision 0035). A PATCH is applied to the resource as a
// GET would answer it, with scim-patch, and the result is then handled like a PUT: the portal
// changes only what differs, and a PUT that omits an attribute leaves it as it is.
import { and, asc, count, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { patchBodyValidation, ScimError as PatchError, type ScimPatchOperation } from 'scim-patch';
import { distinctColumns, rawStatement } from '../../db/client';
import { applyPatch } from './patch';
import { backgroundJobs, departments, scimUsers, sessions, tenantUsers, users, type TenantUser, type User } from '../../db/schema';
import type { Deps } from '../../deps';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from '../../shared/form-rules';
import type { Lang } from '../../shared/i18n';
import type { ScimApp } from '../../shared/scim/schemas';
import { auditInsert } from '../audit/log';
import { AppError, isUniqueViolation } from '../errors';
import { activeAdminCount, adminGuard, assertSeats, isGuardFailure, seatGuard, ssoGuard } from '../people/members';
import { assertSoleMembership, assertSsoSeat, nameIsTenantsSql, soleMembershipGuard } from '../people/users';
import type { TenantScope } from '../tenants/scope';
import type { ScimActor, ScimRead } from './auth';
import { MAX_RESULTS, URN } from './discovery';
import { fromAppError, invalidSyntax, invalidValue, notFound, ScimError, type ScimType } from './errors';
import { boolValue, compileFilter, EVERYTHING, idValue, NOTHING, text, type Comparison, type FilterTable } from './filter';
import { languageOf, NAME_MAX, portalName, type ScimName } from './names';
import { normaliseReading, readingProblem } from '../../shared/people/reading';
import { provisionedApps } from './settings';

// ---------------------------------------------------------------------------------------------
// Reading

/** What the IdP sent that the portal keeps beside the membership (scim_users.profile). */
interface Profile {
  /** The address and the portal name the IdP's values were written for: echoed only while still true. */
  userName?: string;
  portalName?: string;
  name?: ScimName;
  displayName?: string;
  emails?: Email[];
  employeeNumber?: string;
}

interface Email {
  value: string;
  type?: string;
  primary?: boolean;
}

export interface UserRecord {
  member: TenantUser;
  user: User;
  externalId: string | null;
  profile: Record<string, unknown> | null;
  departmentName: string | null;
}

export type ScimResource = Record<string, unknown>;

const iso = (ms: number) => new Date(ms).toISOString();

function recordsFrom(scope: TenantScope) {
  return scope.db
    // Joined columns aliased: these reads go in batches, and D1 answers a batch's rows by column name.
    .select({
      member: distinctColumns(tenantUsers, 'm'),
      user: distinctColumns(users, 'u'),
      externalId: scimUsers.externalId,
      profile: scimUsers.profile,
      departmentName: sql<string | null>`${departments.name}`.as('department_name'),
    })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .leftJoin(scimUsers, eq(scimUsers.tenantUserId, tenantUsers.id))
    .leftJoin(departments, eq(departments.id, tenantUsers.departmentId));
}

function countFrom(scope: TenantScope) {
  return scope.db
    .select({ n: count() })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .leftJoin(scimUsers, eq(scimUsers.tenantUserId, tenantUsers.id))
    .leftJoin(departments, eq(departments.id, tenantUsers.departmentId));
}

/** The attributes a Users filter may compare (all with `eq`); see discovery.ts. */
function userFilters(scope: TenantScope): FilterTable {
  const address = (value: Parameters<Comparison>[1]) => {
    const t = text(value);
    return t === undefined ? NOTHING : sql`${users.email} = ${t.trim().toLowerCase()}`;
  };
  const department = `${URN.enterprise.toLowerCase()}:department`;
  return {
    compare: (path, value) => {
      switch (path) {
        case 'username':
        case 'emails':
        case 'emails.value':
        case `${URN.user.toLowerCase()}:username`:
          return address(value);
        case 'id': {
          const id = idValue(value);
          return id === null ? NOTHING : sql`${tenantUsers.userId} = ${id}`;
        }
        case 'externalid': {
          const t = text(value);
          // Through the scope: the index is (tenant, externalId).
          return t === undefined ? NOTHING : scope.own(scimUsers, eq(scimUsers.externalId, t));
        }
        case 'emails.type':
          // The portal keeps one address: the work address.
          return text(value)?.toLowerCase() === 'work' ? EVERYTHING : NOTHING;
        case 'active': {
          const b = boolValue(value);
          if (b === undefined) return undefined;
          return b ? isNull(tenantUsers.deactivatedAt) : sql`${tenantUsers.deactivatedAt} IS NOT NULL`;
        }
        case department: {
          const t = text(value);
          return t === undefined ? NOTHING : eq(departments.name, t);
        }
        default:
          return undefined;
      }
    },
    valuePath: (attr) =>
      attr === 'emails'
        ? (path, value) => {
            if (path === 'type') return text(value)?.toLowerCase() === 'work' ? EVERYTHING : NOTHING;
            if (path === 'value') return address(value);
            if (path === 'primary') return boolValue(value) === true ? EVERYTHING : NOTHING;
            return undefined;
          }
        : undefined,
  };
}

/** A Users filter's text as SQL (invalidFilter when unsupported). */
export function usersFilter(scope: TenantScope, filter: string): SQL {
  return compileFilter(filter, userFilters(scope));
}

function appsOf(m: TenantUser): ScimApp[] {
  return [...(m.meishiAccessGrantedAt !== null ? (['meishi'] as const) : []), ...(m.schedulerAccessGrantedAt !== null ? (['scheduler'] as const) : [])];
}

function profileOf(r: UserRecord): Profile {
  const p = r.profile;
  return p && typeof p === 'object' ? (p as Profile) : {};
}

/** The name the tenant sees: its own label, else the account's name (none for a pending invitation, decision 0027). */
function shownName(r: UserRecord): string | null {
  return r.member.invitationPending ? r.member.displayName : (r.member.displayName ?? r.user.name);
}

/** The User resource as a GET answers it. `base` is the SCIM base URL the request came to. */
export function userResource(r: UserRecord, base: string): ScimResource {
  const p = profileOf(r);
  const name = shownName(r);
  // What the IdP sent is echoed while the portal's values are still the ones it was written for.
  const nameCurrent = name !== null && p.portalName === name;
  const addressCurrent = p.userName === r.user.email;
  const enterprise = {
    ...(r.departmentName ? { department: r.departmentName } : {}),
    ...(p.employeeNumber ? { employeeNumber: p.employeeNumber } : {}),
  };
  const resource: ScimResource = {
    schemas: [URN.user, ...(Object.keys(enterprise).length ? [URN.enterprise] : []), URN.portal],
    id: String(r.user.id),
    ...(r.externalId ? { externalId: r.externalId } : {}),
    userName: r.user.email,
    ...(name
      ? {
          name: {
            formatted: name,
            ...(nameCurrent && p.name?.familyName ? { familyName: p.name.familyName } : {}),
            ...(nameCurrent && p.name?.givenName ? { givenName: p.name.givenName } : {}),
            ...(nameCurrent && p.name?.middleName ? { middleName: p.name.middleName } : {}),
          },
          displayName: nameCurrent && p.displayName ? p.displayName : name,
        }
      : {}),
    emails: addressCurrent && p.emails?.length ? p.emails : [{ value: r.user.email, type: 'work', primary: true }],
    active: r.member.deactivatedAt === null,
    ...(Object.keys(enterprise).length ? { [URN.enterprise]: enterprise } : {}),
    [URN.portal]: {
      invitationPending: r.member.invitationPending,
      apps: appsOf(r.member),
      isAdmin: r.member.isAdmin && !r.member.invitationPending,
      ...(r.member.nameReading ? { nameReading: r.member.nameReading } : {}),
    },
    meta: {
      resourceType: 'User',
      created: iso(r.member.createdAt),
      lastModified: iso(Math.max(r.member.updatedAt, r.user.updatedAt)),
      location: `${base}/Users/${r.user.id}`,
    },
  };
  return resource;
}

export interface ListQuery {
  filter: SQL | undefined;
  /** 1-based. */
  startIndex: number;
  count: number;
}

/** GET /Users: one page, ordered by id (stable for `startIndex` paging), and the total. */
export function usersRead(scope: TenantScope, guard: SQL, q: ListQuery, base: string): ScimRead<{ resources: ScimResource[]; total: number }> {
  const where = scope.own(tenantUsers, isNull(tenantUsers.operationStatus), q.filter, guard);
  return {
    statements: [
      recordsFrom(scope)
        .where(where)
        .orderBy(asc(tenantUsers.userId))
        .limit(Math.min(q.count, MAX_RESULTS))
        .offset(q.startIndex - 1),
      countFrom(scope).where(where),
    ],
    parse: ([rows, total]) => ({
      resources: (rows as UserRecord[]).map((r) => userResource(r, base)),
      total: Number((total as { n: number }[])[0]?.n ?? 0),
    }),
  };
}

/** GET /Users/{id}. */
export function userRead(scope: TenantScope, guard: SQL, userId: number | null, base: string): ScimRead<ScimResource | null> {
  return {
    statements: [recordsFrom(scope).where(scope.own(tenantUsers, isNull(tenantUsers.operationStatus), eq(tenantUsers.userId, userId ?? 0), guard))],
    parse: ([rows]) => {
      const r = (rows as UserRecord[])[0];
      return r ? userResource(r, base) : null;
    },
  };
}

async function findRecord(scope: TenantScope, userId: number): Promise<UserRecord> {
  const r = await recordsFrom(scope).where(scope.own(tenantUsers, isNull(tenantUsers.operationStatus), eq(tenantUsers.userId, userId))).get();
  if (!r) throw notFound(`User ${userId}`);
  return r;
}

// ---------------------------------------------------------------------------------------------
// What a request asks for

/** A User as a request describes it. `undefined`: not said (left as it is); `null`: cleared. */
export interface UserInput {
  userName: string;
  /** No name, formatted name or displayName at all: the name is left as it is. */
  name: ScimName | undefined;
  displayName: string | undefined;
  emails: Email[] | null | undefined;
  active: boolean | undefined;
  externalId: string | null | undefined;
  department: string | null | undefined;
  employeeNumber: string | null | undefined;
  /** The reading (フリガナ), normalised to katakana: the portal extension's nameReading (decision 0045). */
  nameReading: string | null | undefined;
  language: Lang | null;
}

/** A body's top-level attributes by lower-cased name (attribute names are case-insensitive, RFC 7643 2.1). */
function attributes(body: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v]));
}

function str(v: unknown, what: string, max = NAME_MAX): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== 'string') throw invalidValue(`${what} must be a string`);
  const t = v.trim();
  if ([...t].length > max) throw invalidValue(`${what} is longer than ${max} characters`);
  return t === '' ? null : t;
}

function readName(v: unknown): ScimName | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidValue('name must be an object');
  const a = attributes(v as Record<string, unknown>);
  const name: ScimName = {
    givenName: str(a.get('givenname'), 'name.givenName'),
    familyName: str(a.get('familyname'), 'name.familyName'),
    middleName: str(a.get('middlename'), 'name.middleName'),
    formatted: str(a.get('formatted'), 'name.formatted'),
  };
  return Object.values(name).some((x) => x) ? name : undefined;
}

function readEmails(v: unknown): Email[] | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (!Array.isArray(v)) throw invalidValue('emails must be a list');
  if (v.length > 10) throw invalidValue('at most 10 emails');
  return v.map((e) => {
    if (!e || typeof e !== 'object') throw invalidValue('each of emails must be an object');
    const a = attributes(e as Record<string, unknown>);
    const value = str(a.get('value'), 'emails.value', EMAIL_MAX_LENGTH);
    if (!value) throw invalidValue('each of emails needs a value');
    const type = str(a.get('type'), 'emails.type', 20);
    const primary = boolValue(a.get('primary'));
    return { value, ...(type ? { type } : {}), ...(primary !== undefined ? { primary } : {}) };
  });
}

/**
 * A User from a request body (POST, PUT, or a PATCH's result). `absent: 'clear'` (a PATCH's
 * result) reads an attribute that is not there as removed; `'keep'` (POST, PUT) as not said.
 */
export function readUserInput(body: unknown, absent: 'keep' | 'clear'): UserInput {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidSyntax('the body must be a JSON object');
  const a = attributes(body as Record<string, unknown>);
  const schemas = a.get('schemas');
  if (schemas !== undefined && (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === URN.user.toLowerCase()))) {
    throw invalidSyntax(`schemas must include ${URN.user}`);
  }
  const userName = a.get('username');
  if (typeof userName !== 'string' || userName.trim() === '') throw invalidValue('userName is required');
  const address = userName.trim().toLowerCase();
  if (address.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(address)) throw invalidValue('userName must be an email address (it is the sign-in name)');
  const extRaw = a.get(URN.enterprise.toLowerCase());
  if (extRaw !== undefined && extRaw !== null && (typeof extRaw !== 'object' || Array.isArray(extRaw))) throw invalidValue(`${URN.enterprise} must be an object`);
  const ext = extRaw ? attributes(extRaw as Record<string, unknown>) : null;
  // The portal extension carries the one attribute an IdP may write there: nameReading. Entra
  // (custom extension attributes) and Okta (custom attributes with an external namespace) can both
  // send "urn:…:extension:portal:2.0:User:nameReading", built by an expression from the HR
  // system's kana fields; the rest of the extension is the portal's read-only facts.
  const portalRaw = a.get(URN.portal.toLowerCase());
  if (portalRaw !== undefined && portalRaw !== null && (typeof portalRaw !== 'object' || Array.isArray(portalRaw))) throw invalidValue(`${URN.portal} must be an object`);
  const portal = portalRaw ? attributes(portalRaw as Record<string, unknown>) : null;
  const activeRaw = a.get('active');
  const active = activeRaw === undefined || activeRaw === null ? undefined : boolValue(activeRaw);
  if (activeRaw !== undefined && activeRaw !== null && active === undefined) throw invalidValue('active must be true or false');
  const missing = absent === 'clear' ? null : undefined;
  const displayName = str(a.get('displayname'), 'displayName') ?? undefined;
  return {
    userName: address,
    name: readName(a.get('name')),
    displayName,
    emails: readEmails(a.get('emails')) ?? missing,
    active,
    externalId: a.has('externalid') ? str(a.get('externalid'), 'externalId') : missing,
    department: ext && ext.has('department') ? str(ext.get('department'), 'department') : missing,
    employeeNumber: ext && ext.has('employeenumber') ? str(ext.get('employeenumber'), 'employeeNumber', 64) : missing,
    nameReading: portal && portal.has('namereading') ? readingOf(portal.get('namereading')) : missing,
    language: languageOf(a.get('preferredlanguage'), a.get('locale')),
  };
}

/** A nameReading value as kept: normalised katakana, null for none; anything else is refused (the IdP's log shows why). */
function readingOf(v: unknown): string | null {
  const text = str(v, 'nameReading', 400);
  if (!text) return null;
  const reading = normaliseReading(text);
  if (readingProblem(reading)) throw invalidValue('nameReading must be katakana or hiragana, at most 100 characters');
  return reading || null;
}

const nameSaid = (i: UserInput) => i.name !== undefined || i.displayName !== undefined;

/** What the IdP said, to keep beside the membership. */
function profileFor(i: UserInput, portal: string | null, previous: Profile): Profile {
  const name = nameSaid(i) ? i.name : previous.name;
  const displayName = nameSaid(i) ? i.displayName : previous.displayName;
  const emails = i.emails === undefined ? previous.emails : (i.emails ?? undefined);
  const employeeNumber = i.employeeNumber === undefined ? previous.employeeNumber : (i.employeeNumber ?? undefined);
  const p: Profile = { userName: i.userName, ...(portal ? { portalName: portal } : {}) };
  if (name) p.name = Object.fromEntries(Object.entries(name).filter(([, v]) => v)) as ScimName;
  if (displayName) p.displayName = displayName;
  if (emails?.length) p.emails = emails;
  if (employeeNumber) p.employeeNumber = employeeNumber;
  return p;
}

// ---------------------------------------------------------------------------------------------
// Writing

function audit(scope: TenantScope, actor: ScimActor, action: string, targetId: number, details: Record<string, unknown>, now: number) {
  return auditInsert(
    scope.db,
    {
      tenantId: scope.id,
      actorUserId: null,
      actorName: actor.tokenName,
      action,
      targetType: 'user',
      targetId,
      ipAddress: actor.ip,
      userAgent: actor.userAgent,
      details: { ...details, via: 'scim', scimTokenId: actor.tokenId },
    },
    now,
  );
}

/** The statements that make the department `name` exist (with its audit entry) before a member is put in it. */
export function ensureDepartment(scope: TenantScope, actor: ScimActor, name: string, now: number): unknown[] {
  return [
    scope.insert(departments, { name, createdAt: now, updatedAt: now }).onConflictDoNothing(),
    rawStatement(
      scope.db,
      sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
        SELECT ${scope.id}, NULL, NULL, ${actor.tokenName}, 'department.created', 'department', CAST(d.id AS TEXT), ${actor.ip}, ${actor.userAgent?.slice(0, 512) ?? null},
          json_object('name', d.name, 'via', 'scim', 'scimTokenId', ${actor.tokenId}), ${now}
        FROM departments d WHERE d.tenant_id = ${scope.id} AND d.name = ${name} AND d.created_at = ${now}`,
    ),
  ];
}

/** The id of the department `name` of this tenant, as SQL for the statement that uses it. */
const departmentIdSql = (scope: TenantScope, name: string | null) => (name ? sql`(SELECT id FROM departments WHERE tenant_id = ${scope.id} AND name = ${name})` : sql`NULL`);

/** Runs a batch; a failed guard becomes the rule it stood for (from a fresh look at the data). */
async function runGuarded(scope: TenantScope, statements: unknown[], explain: () => Promise<never>): Promise<void> {
  try {
    await scope.db.batch(statements as never);
  } catch (e) {
    if (isGuardFailure(e)) await explain();
    throw e;
  }
}

/** Which rule a guard stood for: the SSO users limit, a seat, the last admin, or one identity per address. */
async function explainGuard(deps: Deps, scope: TenantScope, p: { apps: ScimApp[]; sso: boolean; exceptMember: number | null; lastAdmin?: boolean; soleMember?: number }): Promise<never> {
  if (p.lastAdmin && (await activeAdminCount(scope)) <= 1) throw new AppError('cannot-deactivate-last-admin');
  if (p.soleMember !== undefined) await assertSoleMembership(deps, p.soleMember);
  if (p.sso) await assertSsoSeat(deps, scope, p.exceptMember);
  await assertSeats(scope, Object.fromEntries(p.apps.map((a) => [a, 0])));
  throw new AppError('quota_finished', { app: p.apps[0] });
}

/** Seats for `apps` and, for an SSO member, a place within the SSO users limit, before a write. */
async function assertRoom(deps: Deps, scope: TenantScope, apps: ScimApp[], sso: boolean, exceptMember: number | null): Promise<void> {
  await assertSeats(scope, Object.fromEntries(apps.map((a) => [a, 1])));
  if (sso) await assertSsoSeat(deps, scope, exceptMember);
}

export interface Created {
  resource: ScimResource;
  /** The address was someone's account already: an invitation the person accepts (decision 0027). */
  invitationPending: boolean;
}

/**
 * POST /Users. The person gets the tenant's "apps for provisioned people" (within the seats), is an
 * SSO member when the tenant's SSO is on (then no invitation mail: they sign in through the IdP)
 * or gets the invitation mail to set a password when it is off. An address that is someone's
 * account already becomes an invitation the person accepts (decision 0027): SSO off for it, the
 * "accept" mail queued, `invitationPending` in the answer. Mail is queued, sent by the people sweep.
 */
export async function createScimUser(deps: Deps, scope: TenantScope, input: UserInput, actor: ScimActor, base: string): Promise<Created> {
  const { db, clock } = deps;
  const email = input.userName;
  const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  if (existing) {
    const member = await db.select({ id: tenantUsers.id }).from(tenantUsers).where(scope.own(tenantUsers, eq(tenantUsers.userId, existing.id))).get();
    if (member) throw new AppError('user_already_exists');
  }
  const apps = await provisionedApps(scope);
  if (apps.length === 0) throw new AppError('app-not-contracted', { app: 'meishi' });
  const active = input.active !== false;
  const sso = scope.tenant.isSsoEnabled;
  // Reads that give the usual refusals early; the batch's guards decide.
  if (active) await assertRoom(deps, scope, apps, sso && !existing, null);
  const lang: Lang = input.language ?? 'ja';
  const name = nameSaid(input) ? portalName({ name: input.name, displayName: input.displayName, userName: email }, lang) : portalName({ userName: email }, lang);
  const now = clock.now();
  // Someone's account already (decision 0027), decided by the statement from the rows as they are.
  const pending = sql`(u.password_hash IS NOT NULL OR u.is_tenant_manager = 1
    OR EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = u.id AND o.tenant_id <> ${scope.id}))`;
  const member = sql`users u CROSS JOIN tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = ${scope.id}`;
  const it = sql`u.email = ${email}`;
  const statements: unknown[] = [
    db.insert(users).values({ name, email, language: lang, createdAt: now, updatedAt: now }).onConflictDoNothing(),
    ...(input.department ? ensureDepartment(scope, actor, input.department, now) : []),
    rawStatement(
      db,
      sql`INSERT INTO tenant_users (tenant_id, user_id, is_admin, is_sso_enabled, department_id, name_reading, invited_at, invitation_pending, display_name,
          meishi_access_granted_at, scheduler_access_granted_at, deactivated_at, created_at, updated_at)
        SELECT ${scope.id}, u.id, 0, CASE WHEN ${pending} THEN 0 ELSE ${sso ? 1 : 0} END, ${departmentIdSql(scope, input.department ?? null)}, ${input.nameReading ?? null},
          CASE WHEN ${pending} OR ${sso ? 0 : 1} = 1 THEN ${now} ELSE NULL END, ${pending}, CASE WHEN ${pending} THEN ${name} ELSE NULL END,
          ${apps.includes('meishi') ? now : null}, ${apps.includes('scheduler') ? now : null}, ${active ? null : now}, ${now}, ${now}
        FROM users u WHERE ${it}`,
    ),
    rawStatement(
      db,
      sql`INSERT INTO scim_users (tenant_user_id, tenant_id, external_id, profile, created_at, updated_at)
        SELECT tu.id, ${scope.id}, ${input.externalId ?? null}, ${JSON.stringify(profileFor(input, name, {}))}, ${now}, ${now} FROM ${member} WHERE ${it}`,
    ),
    // An invitation to set a password when SSO is off; the "accept" mail for an invitation.
    rawStatement(
      db,
      sql`INSERT INTO mail_queue (tenant_id, user_id, kind, status, attempts, available_at, created_at)
        SELECT ${scope.id}, u.id, CASE WHEN tu.invitation_pending = 1 THEN 'added' ELSE 'invitation' END, 'pending', 0, ${now}, ${now}
        FROM ${member} WHERE ${it} AND tu.deactivated_at IS NULL AND (tu.invitation_pending = 1 OR ${sso ? 0 : 1} = 1)`,
    ),
    rawStatement(
      db,
      sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
        SELECT ${scope.id}, NULL, NULL, ${actor.tokenName}, 'user.created', 'user', CAST(u.id AS TEXT), ${actor.ip}, ${actor.userAgent?.slice(0, 512) ?? null},
          json_object('email', ${email}, 'apps', json(${JSON.stringify(apps)}), 'is_admin', json('false'), 'is_sso_enabled', json(CASE WHEN tu.is_sso_enabled = 1 THEN 'true' ELSE 'false' END),
            'invitation_pending', json(CASE WHEN tu.invitation_pending = 1 THEN 'true' ELSE 'false' END), 'active', json(${active ? 'true' : 'false'}), 'via', 'scim', 'scimTokenId', ${actor.tokenId}), ${now}
        FROM ${member} WHERE ${it}`,
    ),
    seatGuard(scope),
    ...(sso ? [ssoGuard(scope)] : []),
  ];
  try {
    await runGuarded(scope, statements, () => explainGuard(deps, scope, { apps, sso, exceptMember: null }));
  } catch (e) {
    // A parallel create of the same address (Okta sends several at once) hit the unique index.
    if (isUniqueViolation(e, 'tenant_users')) throw new AppError('user_already_exists');
    throw e;
  }
  const created = await recordsFrom(scope).where(scope.own(tenantUsers, eq(users.email, email))).get();
  if (!created) throw new AppError('server-error');
  return { resource: userResource(created, base), invitationPending: created.member.invitationPending };
}

/** The current state as a request would describe it (what PUT and PATCH are compared with). */
function currentInput(r: UserRecord, base: string): UserInput {
  return readUserInput(userResource(r, base), 'clear');
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * PUT /Users/{id} (and a PATCH's result): changes what differs from the resource as it is. An
 * attribute the request leaves out stays as it is (the IdP owns what it sends; an Okta PUT without
 * the enterprise extension does not clear the department an admin chose). `active: false`
 * deactivates the member and ends their sessions at once; the last admin stays active.
 */
export async function replaceScimUser(deps: Deps, scope: TenantScope, userId: number, input: UserInput, actor: ScimActor, base: string): Promise<ScimResource> {
  const { db, clock } = deps;
  const r = await findRecord(scope, userId);
  const before = currentInput(r, base);
  const { member, user } = r;
  const pending = member.invitationPending;
  const emailChanged = input.userName !== user.email;
  if (emailChanged) {
    if (pending) throw new AppError('invitation-pending');
    const taken = await db.select({ id: users.id }).from(users).where(eq(users.email, input.userName)).get();
    if (taken) throw new AppError('duplicate-email');
    await assertSoleMembership(deps, user.id);
  }
  const lang: Lang = user.language;
  const nameChanged = nameSaid(input) && (!same(input.name, before.name) || !same(input.displayName, before.displayName));
  const current = shownName(r);
  const newName = nameChanged ? portalName({ name: input.name, displayName: input.displayName, userName: input.userName }, lang) : current;
  const renames = nameChanged && newName !== current;
  const externalId = input.externalId === undefined ? r.externalId : input.externalId;
  const department = input.department === undefined ? r.departmentName : input.department;
  const departmentChanged = (department ?? null) !== (r.departmentName ?? null);
  const readingChanged = input.nameReading !== undefined && input.nameReading !== member.nameReading;
  const wasActive = member.deactivatedAt === null;
  const active = input.active ?? wasActive;
  const deactivating = wasActive && !active;
  const reactivating = !wasActive && active;
  const apps = appsOf(member);
  const countedAdmin = member.isAdmin && !pending;
  if (deactivating && countedAdmin && (await activeAdminCount(scope)) <= 1) throw new AppError('cannot-deactivate-last-admin');
  const ssoMember = member.isSsoEnabled && !pending;
  if (reactivating) await assertRoom(deps, scope, apps, ssoMember, member.id);

  const now = clock.now();
  const statements: unknown[] = [];
  const owns = nameIsTenantsSql(scope, sql`${user.id}`);
  if (departmentChanged && department) statements.push(...ensureDepartment(scope, actor, department, now));
  // The membership first: a label is decided on the account as it was before this change.
  statements.push(
    db
      .update(tenantUsers)
      .set({
        ...(renames && newName ? { displayName: pending ? newName : sql`CASE WHEN ${owns} THEN ${tenantUsers.displayName} ELSE ${newName} END` } : {}),
        ...(departmentChanged ? { departmentId: departmentIdSql(scope, department ?? null) } : {}),
        ...(readingChanged ? { nameReading: input.nameReading } : {}),
        ...(deactivating ? { deactivatedAt: now } : reactivating ? { deactivatedAt: null } : {}),
        ...(emailChanged ? { invitedAt: scope.tenant.isSsoEnabled && member.isSsoEnabled ? member.invitedAt : now, lastActiveAt: null } : {}),
        updatedAt: now,
      })
      .where(scope.own(tenantUsers, eq(tenantUsers.id, member.id))),
  );
  if (departmentChanged && department) {
    // Not the main and an additional department at once.
    statements.push(
      rawStatement(db, sql`DELETE FROM additional_departments WHERE tenant_id = ${scope.id} AND tenant_user_id = ${member.id} AND department_id = ${departmentIdSql(scope, department)}`),
    );
  }
  if ((renames && !pending) || emailChanged) {
    statements.push(
      db
        .update(users)
        .set({
          ...(renames && !pending && newName ? { name: sql`CASE WHEN ${owns} THEN ${newName} ELSE ${users.name} END` } : {}),
          // The new address must prove itself: the account starts over (decision 0012).
          ...(emailChanged ? { email: input.userName, emailVerifiedAt: null, passwordHash: null, passwordChangedAt: null, passwordScore: null } : {}),
          updatedAt: now,
        })
        .where(eq(users.id, user.id)),
    );
  }
  if (emailChanged || deactivating) statements.push(db.delete(sessions).where(and(eq(sessions.userId, user.id), emailChanged ? undefined : scope.own(sessions))));
  // An SSO member signs in through the IdP; anyone else gets an invitation to the new address.
  if (emailChanged && !(scope.tenant.isSsoEnabled && member.isSsoEnabled)) {
    statements.push(
      rawStatement(db, sql`INSERT INTO mail_queue (tenant_id, user_id, kind, status, attempts, available_at, created_at)
        VALUES (${scope.id}, ${user.id}, 'invitation', 'pending', 0, ${now}, ${now})`),
    );
  }
  const profile = profileFor(input, newName, profileOf(r));
  statements.push(
    scope
      .insert(scimUsers, { tenantUserId: member.id, externalId: externalId ?? null, profile: profile as Record<string, unknown>, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: scimUsers.tenantUserId, set: { externalId: externalId ?? null, profile: profile as Record<string, unknown>, updatedAt: now } }),
  );
  const details: Record<string, unknown> = {
    ...(emailChanged ? { email: { from: user.email, to: input.userName } } : {}),
    ...(renames ? { name: newName } : {}),
    ...(departmentChanged ? { department: department ?? null } : {}),
    ...(readingChanged ? { name_reading: input.nameReading } : {}),
    ...(externalId !== r.externalId ? { externalId: externalId ?? null } : {}),
  };
  // What is only kept and echoed (name parts, displayName, emails, employee number) is audited too, by name.
  const previous = profileOf(r);
  // (name.formatted is the portal's name as a GET answered it, not something the IdP chose.)
  const parts = (n: ScimName | undefined) => (n ? { givenName: n.givenName, familyName: n.familyName, middleName: n.middleName } : undefined);
  const echoed: string[] = [
    ...(same(parts(profile.name), parts(previous.name)) ? [] : ['name']),
    ...(['displayName', 'emails', 'employeeNumber'] as const).filter((k) => !same(profile[k], previous[k])),
  ];
  if (echoed.length) details.attributes = echoed;
  if (Object.keys(details).length) statements.push(audit(scope, actor, 'user.updated', user.id, details, now));
  if (deactivating) statements.push(audit(scope, actor, 'user.deactivated', user.id, {}, now));
  if (reactivating) statements.push(audit(scope, actor, 'user.reactivated', user.id, {}, now));
  if (deactivating && countedAdmin) statements.push(adminGuard(scope));
  if (reactivating) statements.push(seatGuard(scope), ...(ssoMember ? [ssoGuard(scope)] : []));
  if (emailChanged) statements.push(soleMembershipGuard(deps, scope, user.id));
  try {
    await runGuarded(scope, statements, () =>
      explainGuard(deps, scope, {
        apps: reactivating ? apps : [],
        sso: reactivating && ssoMember,
        exceptMember: member.id,
        lastAdmin: deactivating && countedAdmin,
        ...(emailChanged ? { soleMember: user.id } : {}),
      }),
    );
  } catch (e) {
    if (emailChanged && isUniqueViolation(e, 'users')) throw new AppError('duplicate-email');
    if (isUniqueViolation(e, 'departments')) throw new AppError('server-error');
    throw e;
  }
  return userResource(await findRecord(scope, user.id), base);
}

/** scim-patch's refusals in SCIM's words (its codes are RFC 7644's scimTypes). */
function patchRefusal(e: unknown): never {
  if (e instanceof PatchError) {
    const code = (e as PatchError & { scimCode?: string }).scimCode;
    throw new ScimError(400, e.message, (code as ScimType | undefined) ?? 'invalidSyntax');
  }
  if (e instanceof ScimError) throw e;
  throw new ScimError(400, `the PATCH cannot be applied: ${e instanceof Error ? e.message : String(e)}`, 'invalidSyntax');
}

/** A PatchOp body's operations, checked by scim-patch (schemas, ops in any case, values). */
export function patchOperations(body: unknown): ScimPatchOperation[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidSyntax('the body must be a JSON object');
  // "Operations" as SCIM names it; some clients send "operations".
  const a = attributes(body as Record<string, unknown>);
  const patch = { schemas: a.get('schemas'), Operations: a.get('operations') };
  try {
    patchBodyValidation(patch as never);
  } catch (e) {
    patchRefusal(e);
  }
  return patch.Operations as ScimPatchOperation[];
}

/**
 * PATCH /Users/{id}: the operations applied to the resource as it is (scim-patch: "Replace" as
 * Entra capitalises it, path-less values with dotted keys such as "name.givenName", value filters
 * such as emails[type eq "work"].value), then handled like a PUT of the result.
 */
export async function patchScimUser(deps: Deps, scope: TenantScope, userId: number, operations: ScimPatchOperation[], actor: ScimActor, base: string): Promise<ScimResource> {
  const r = await findRecord(scope, userId);
  const resource = userResource(r, base);
  let patched: ScimResource;
  try {
    patched = applyPatch(resource, operations);
  } catch (e) {
    patchRefusal(e);
  }
  if (String(patched.id) !== String(resource.id)) throw new ScimError(400, 'id cannot change', 'mutability');
  // The extension's facts are read-only; its nameReading is the one attribute a PATCH may change.
  const facts = (v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([k]) => k.toLowerCase() !== 'namereading'));
  };
  if (!same(facts(patched[URN.portal]), facts(resource[URN.portal]))) throw new ScimError(400, `${URN.portal} is read-only (except nameReading)`, 'mutability');
  return replaceScimUser(deps, scope, userId, readUserInput(patched, 'clear'), actor, base);
}

/**
 * DELETE /Users/{id}: the membership is removed as an admin's delete removes it (decision 0012):
 * marked deleting at once (gone from SCIM, sessions ended), then the durable job tells the apps and
 * removes it, and the account when no other tenant holds it. The last admin stays.
 */
export async function deleteScimUser(deps: Deps, scope: TenantScope, userId: number, actor: ScimActor): Promise<number> {
  const { db, clock } = deps;
  const { member } = await findRecord(scope, userId);
  const countedAdmin = member.isAdmin && member.deactivatedAt === null && !member.invitationPending;
  if (countedAdmin && (await activeAdminCount(scope)) <= 1) throw new AppError('cannot-delete-last-admin');
  const now = clock.now();
  try {
    const [, , inserted] = (await db.batch([
      db.update(tenantUsers).set({ operationStatus: 'deleting', updatedAt: now }).where(scope.own(tenantUsers, eq(tenantUsers.id, member.id), isNull(tenantUsers.operationStatus))),
      db.delete(sessions).where(and(eq(sessions.userId, userId), scope.own(sessions))),
      scope.insert(backgroundJobs, { kind: 'delete_user', targetId: member.id, actorUserId: null, actorName: actor.tokenName, createdAt: now }).returning({ id: backgroundJobs.id }),
      audit(scope, actor, 'user.deletion_started', userId, {}, now),
      ...(countedAdmin ? [adminGuard(scope)] : []),
    ] as never)) as [unknown, unknown, { id: number }[]];
    return inserted[0]!.id;
  } catch (e) {
    if (isGuardFailure(e)) throw new AppError('cannot-delete-last-admin');
    throw e;
  }
}

/** An AppError of the people rules, or a SCIM error, as a SCIM error. */
export function asScimError(e: unknown): unknown {
  return e instanceof AppError ? fromAppError(e) : e;
}
