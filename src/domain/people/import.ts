// CSV import of users (spec 02 "Edit-by-import dialog", sections 5, 8, 9): add new members, or
// update existing ones, from one file. The bytes are decoded by the platform's WHATWG Encoding
// decoder (UTF-8 with or without BOM, else Shift_JIS, which is Windows-31J/CP932 in that
// standard), parsed by papaparse, checked row by row, and applied all or nothing in one batch.
// Rows travel to SQLite as JSON (json_each), so a 100,000-row file is a handful of statements
// instead of 100,000 round trips, and D1's 100-bound-parameter limit never binds.
import Papa from 'papaparse';
import { desc, eq, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Deps } from '../../deps';
import { departments, importLogs, tenantUsers, users, type Tenant } from '../../db/schema';
import type { Lang } from '../../shared/i18n';
import {
  IMPORT_COLUMNS,
  IMPORT_HEADERS,
  IMPORT_LIST_SEPARATOR,
  IMPORT_TRUE,
  type ImportLog,
  type ImportRowError,
  type ManagedApp,
} from '../../shared/people-schemas';
import { AppError, isUniqueViolation } from '../errors';
import { actorSnapshot } from '../audit/log';
import { activeAdminCount, adminGuard, assertSeats, contractedApps, iso, isGuardFailure, seatGuard, rawStatement } from './members';
import type { PeopleActor } from './users';

export type ImportKind = 'add' | 'update';

/** Rows per JSON chunk: about 0.5 MB per bound value, well under D1's 2 MB value limit. */
const CHUNK_ROWS = 4000;
const MAX_ROW_ERRORS = 100;

/** UTF-8 (BOM optional) or Shift_JIS; anything else is incorrect-encoding. */
export function decodeCsv(bytes: Uint8Array): string {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw new AppError('incorrect-encoding', 422); // UTF-16
  }
  const hasBom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    if (hasBom) throw new AppError('incorrect-encoding', 422);
    try {
      // Whole buffer at once (streaming Shift_JIS decoding had a chunk-boundary bug in workerd).
      text = new TextDecoder('shift_jis', { fatal: true }).decode(bytes);
    } catch {
      throw new AppError('incorrect-encoding', 422);
    }
  }
  if (text.includes('\u0000')) throw new AppError('incorrect-encoding', 422);
  return text;
}

export interface ParsedRow {
  line: number;
  name: string;
  email: string;
  department: string;
  extra: string[];
  meishi: boolean;
  scheduler: boolean;
  isAdmin: boolean;
}

const normalise = (h: string) => h.replace(/^\uFEFF/, '').trim().toLowerCase();

/** Parses the text; the header row must be the sample's (in either language). */
export function parseCsv(text: string, lang: Lang): { rows: ParsedRow[]; errors: ImportRowError[] } {
  const errors: ImportRowError[] = [];
  const rows: ParsedRow[] = [];
  let header: string[] | null = null;
  let index = 0;
  const flag = (v: string | undefined, line: number, column: (typeof IMPORT_COLUMNS)[number]): boolean => {
    const s = (v ?? '').trim();
    if (s === '' || s === '0') return false;
    if (s === IMPORT_TRUE) return true;
    errors.push({ row: line, column, error: 'badFlag' });
    return false;
  };
  // Row by row (step): papaparse's whole-file result would keep every row's cells alive next to
  // the rows built from them, about doubling the memory of a large import.
  Papa.parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    step(result, parser) {
      const cells = result.data;
      const line = ++index;
      if (header === null) {
        header = cells.map((h) => String(h).replace(/^\uFEFF/, '').trim());
        const given = header;
        const matches = (['ja', 'en'] as const).some((l) => IMPORT_HEADERS[l].length === given.length && IMPORT_HEADERS[l].every((h, i) => normalise(h) === normalise(given[i] ?? '')));
        if (!matches) parser.abort();
        return;
      }
      // Quote errors make papaparse guess; a file it could not read cleanly is refused.
      if (result.errors.some((e) => e.type === 'Quotes')) {
        errors.push({ row: line, column: null, error: 'parse' });
        return;
      }
      if (cells.length !== IMPORT_COLUMNS.length) {
        errors.push({ row: line, column: null, error: 'columns' });
        return;
      }
      const [name, email, department, extra] = cells.map((c) => String(c ?? '').trim());
      rows.push({
        line,
        name: name!,
        email: email!.toLowerCase(),
        department: department!,
        extra: extra ? extra.split(IMPORT_LIST_SEPARATOR).map((x) => x.trim()).filter(Boolean) : [],
        meishi: flag(cells[4], line, 'meishi'),
        scheduler: flag(cells[5], line, 'scheduler'),
        isAdmin: flag(cells[6], line, 'is_admin'),
      });
    },
  });
  const given: string[] = header ?? [];
  const matches = (['ja', 'en'] as const).some((l) => IMPORT_HEADERS[l].length === given.length && IMPORT_HEADERS[l].every((h, i) => normalise(h) === normalise(given[i] ?? '')));
  if (!matches) throw new AppError('unexpected_format', 422, { expected_format: [...IMPORT_HEADERS[lang]], given_format: given });
  return { rows, errors };
}

const emailCheck = z.email();

interface ResolvedRow extends ParsedRow {
  departmentId: number | null;
  extraIds: number[];
  userId?: number;
  tenantUserId?: number;
  hadApps?: { meishi: boolean; scheduler: boolean; admin: boolean; active: boolean };
}

/** Validates every row against the tenant; returns resolved rows or throws invalid-csv. */
async function resolveRows(deps: Deps, tenant: Tenant, kind: ImportKind, parsed: { rows: ParsedRow[]; errors: ImportRowError[] }): Promise<ResolvedRow[]> {
  const { db } = deps;
  const errors = [...parsed.errors];
  const push = (e: ImportRowError) => {
    if (errors.length < MAX_ROW_ERRORS) errors.push(e);
  };
  const depts = new Map((await db.select({ id: departments.id, name: departments.name }).from(departments).where(eq(departments.tenantId, tenant.id))).map((d) => [d.name, d.id]));
  const contracted = new Set((await contractedApps(db, tenant.id)).map((a) => a.app));
  const members = new Map(
    (
      await db
        .select({ email: users.email, userId: users.id, tu: tenantUsers })
        .from(tenantUsers)
        .innerJoin(users, eq(users.id, tenantUsers.userId))
        .where(eq(tenantUsers.tenantId, tenant.id))
    ).map((m) => [m.email, m]),
  );
  const seen = new Set<string>();
  const out: ResolvedRow[] = [];
  for (const r of parsed.rows) {
    const before = errors.length;
    if (!r.name) push({ row: r.line, column: 'name', error: 'required' });
    else if (r.name.length > 255) push({ row: r.line, column: 'name', error: 'tooLong' });
    if (!r.email) push({ row: r.line, column: 'email', error: 'required' });
    else if (r.email.length > 254 || !emailCheck.safeParse(r.email).success) push({ row: r.line, column: 'email', error: 'emailInvalid' });
    else if (seen.has(r.email)) push({ row: r.line, column: 'email', error: 'duplicateInFile' });
    seen.add(r.email);
    const departmentId = r.department ? (depts.get(r.department) ?? null) : null;
    if (r.department && departmentId === null) push({ row: r.line, column: 'department', error: 'unknownDepartment' });
    const extraIds: number[] = [];
    for (const name of r.extra) {
      const id = depts.get(name);
      if (id === undefined) push({ row: r.line, column: 'additional_departments', error: 'unknownDepartment' });
      else if (id !== departmentId && !extraIds.includes(id)) extraIds.push(id);
    }
    if (!r.meishi && !r.scheduler) push({ row: r.line, column: 'meishi', error: 'noApp' });
    if (r.meishi && !contracted.has('meishi')) push({ row: r.line, column: 'meishi', error: 'appNotContracted' });
    if (r.scheduler && !contracted.has('scheduler')) push({ row: r.line, column: 'scheduler', error: 'appNotContracted' });
    const member = members.get(r.email);
    if (kind === 'add' && member) push({ row: r.line, column: 'email', error: 'alreadyMember' });
    if (kind === 'update' && r.email && (!member || member.tu.operationStatus !== null || member.tu.invitationPending)) push({ row: r.line, column: 'email', error: 'notMember' });
    if (errors.length === before) {
      // Completed in place (no copy per row: large files).
      const resolved = r as ResolvedRow;
      resolved.departmentId = departmentId;
      resolved.extraIds = extraIds;
      if (member) {
        resolved.userId = member.userId;
        resolved.tenantUserId = member.tu.id;
        resolved.hadApps = { meishi: member.tu.meishiAccessGrantedAt !== null, scheduler: member.tu.schedulerAccessGrantedAt !== null, admin: member.tu.isAdmin, active: member.tu.deactivatedAt === null };
      }
      out.push(resolved);
    }
  }
  if (errors.length) throw new AppError('invalid-csv', 422, { rows: errors.sort((a, b) => a.row - b.row).slice(0, MAX_ROW_ERRORS) });
  return out;
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK_ROWS) out.push(items.slice(i, i + CHUNK_ROWS));
  return out;
}

/** POST admin/users/import and import/update: the whole file or nothing. Returns the row count. */
export async function importUsers(
  deps: Deps,
  tenant: Tenant,
  kind: ImportKind,
  file: { name: string; bytes: Uint8Array },
  lang: Lang,
  actor: PeopleActor,
): Promise<number> {
  const { db, clock } = deps;
  const text = decodeCsv(file.bytes);
  const parsed = parseCsv(text, lang);
  if (parsed.rows.length === 0 && parsed.errors.length === 0) throw new AppError('no_data', 422);
  const rows = await resolveRows(deps, tenant, kind, parsed);

  // Seats: new holders per app (among members who stay active).
  const extra: Record<ManagedApp, number> = { meishi: 0, scheduler: 0 };
  for (const r of rows) {
    const active = r.hadApps ? r.hadApps.active : true;
    if (!active) continue;
    for (const app of ['meishi', 'scheduler'] as const) {
      const had = r.hadApps?.[app] ?? false;
      if (r[app] && !had) extra[app]++;
      if (!r[app] && had) extra[app]--;
    }
  }
  await assertSeats(db, tenant.id, { meishi: Math.max(0, extra.meishi), scheduler: Math.max(0, extra.scheduler) });
  if (kind === 'update') {
    const demoted = rows.filter((r) => r.hadApps?.admin && r.hadApps.active && !r.isAdmin).length;
    const promoted = rows.filter((r) => !r.hadApps?.admin && r.hadApps?.active && r.isAdmin).length;
    if (demoted > 0 && (await activeAdminCount(db, tenant.id)) - demoted + promoted <= 0) {
      throw new AppError('invalid-csv', 422, { rows: [{ row: rows.find((r) => r.hadApps?.admin && !r.isAdmin)!.line, column: 'is_admin', error: 'lastAdmin' }] });
    }
  }

  const now = clock.now();
  const log = await db
    .insert(importLogs)
    .values({ tenantId: tenant.id, userId: actor.userId, kind, filename: file.name.slice(0, 255), status: 'processing', startTime: now })
    .returning({ id: importLogs.id })
    .get();
  // Join order is forced (CROSS JOIN, `+column`) so SQLite walks the JSON rows and looks each one
  // up by index; left to itself it may scan the tenant's members once per JSON row (quadratic).
  const statements: unknown[] = [];
  const ua = actor.userAgent?.slice(0, 512) ?? null;
  for (const part of chunks(rows)) {
    const json = JSON.stringify(
      part.map((r) => ({
        name: r.name,
        email: r.email,
        dept: r.departmentId,
        extra: r.extraIds,
        meishi: r.meishi ? 1 : 0,
        scheduler: r.scheduler ? 1 : 0,
        admin: r.isAdmin ? 1 : 0,
        tuid: r.tenantUserId ?? null,
        uid: r.userId ?? null,
      })),
    );
    if (kind === 'add') {
      statements.push(
        rawStatement(db, sql`INSERT INTO users (name, email, language, created_at, updated_at)
          SELECT j.value->>'name', j.value->>'email', 'ja', ${now}, ${now} FROM json_each(${json}) j WHERE true
          ON CONFLICT(email) DO NOTHING`),
        // An account that is someone's already (registered, or a member of another tenant) is
        // invited and counts for nothing until the person accepts (decision 0027).
        rawStatement(db, sql`INSERT INTO tenant_users (tenant_id, user_id, is_admin, department_id, invited_at, invitation_pending,
            meishi_access_granted_at, scheduler_access_granted_at, created_at, updated_at)
          SELECT ${tenant.id}, u.id, j.value->>'admin', j.value->>'dept', ${now},
            u.password_hash IS NOT NULL OR u.is_tenant_manager OR EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = u.id AND o.tenant_id <> ${tenant.id}),
            CASE WHEN j.value->>'meishi' = 1 THEN ${now} END, CASE WHEN j.value->>'scheduler' = 1 THEN ${now} END, ${now}, ${now}
          FROM json_each(${json}) j CROSS JOIN users u ON u.email = j.value->>'email'`),
        // New people get a registration invitation; invited existing accounts the "accept" mail.
        rawStatement(db, sql`INSERT INTO mail_queue (tenant_id, user_id, kind, status, attempts, available_at, created_at)
          SELECT ${tenant.id}, u.id, CASE WHEN tu.invitation_pending THEN 'added' ELSE 'invitation' END, 'pending', 0, ${now}, ${now}
          FROM json_each(${json}) j CROSS JOIN users u ON u.email = j.value->>'email'
            CROSS JOIN tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = ${tenant.id}`),
        rawStatement(db, sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
          SELECT ${tenant.id}, ${actor.userId}, ${actorSnapshot(actor.userId)}, 'user.created', 'user', CAST(u.id AS TEXT), ${actor.ip}, ${ua},
            json_object('email', u.email, 'import_log_id', ${log!.id}), ${now}
          FROM json_each(${json}) j CROSS JOIN users u ON u.email = j.value->>'email'`),
      );
    } else {
      statements.push(
        // A person's own name (registered, or shared with another tenant) is never rewritten: the
        // file's name becomes this tenant's label for them instead (decision 0027).
        rawStatement(db, sql`UPDATE tenant_users SET display_name = CASE WHEN u.password_hash IS NULL AND NOT u.is_tenant_manager
              AND NOT EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = u.id AND o.tenant_id <> ${tenant.id}) THEN NULL ELSE j.value->>'name' END
          FROM json_each(${json}) j CROSS JOIN users u ON u.id = j.value->>'uid'
          WHERE tenant_users.id = j.value->>'tuid' AND +tenant_users.tenant_id = ${tenant.id}`),
        rawStatement(db, sql`UPDATE users SET name = j.value->>'name', updated_at = ${now}
          FROM json_each(${json}) j WHERE users.id = j.value->>'uid' AND users.password_hash IS NULL AND NOT users.is_tenant_manager
            AND NOT EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = users.id AND o.tenant_id <> ${tenant.id})`),
        rawStatement(db, sql`UPDATE tenant_users SET is_admin = j.value->>'admin', department_id = j.value->>'dept',
            meishi_access_granted_at = CASE WHEN j.value->>'meishi' = 1 THEN coalesce(tenant_users.meishi_access_granted_at, ${now}) END,
            scheduler_access_granted_at = CASE WHEN j.value->>'scheduler' = 1 THEN coalesce(tenant_users.scheduler_access_granted_at, ${now}) END,
            updated_at = ${now}
          FROM json_each(${json}) j WHERE tenant_users.id = j.value->>'tuid' AND +tenant_users.tenant_id = ${tenant.id}`),
        rawStatement(db, sql`DELETE FROM additional_departments WHERE +tenant_id = ${tenant.id}
          AND tenant_user_id IN (SELECT j.value->>'tuid' FROM json_each(${json}) j)`),
        rawStatement(db, sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
          SELECT ${tenant.id}, ${actor.userId}, ${actorSnapshot(actor.userId)}, 'user.updated', 'user', CAST(j.value->>'uid' AS TEXT), ${actor.ip}, ${ua},
            json_object('import_log_id', ${log!.id}), ${now}
          FROM json_each(${json}) j`),
      );
    }
    statements.push(
      rawStatement(db, sql`INSERT INTO additional_departments (tenant_id, tenant_user_id, department_id)
        SELECT ${tenant.id}, tu.id, d.value
        FROM json_each(${json}) j CROSS JOIN json_each(j.value->'extra') d
          CROSS JOIN users u ON u.email = j.value->>'email' CROSS JOIN tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = ${tenant.id}`),
    );
  }
  statements.push(
    rawStatement(db, sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
      VALUES (${tenant.id}, ${actor.userId}, ${actorSnapshot(actor.userId)}, ${kind === 'add' ? 'users.imported' : 'users.import_updated'}, 'import_log', ${String(log!.id)}, ${actor.ip}, ${ua},
        ${JSON.stringify({ filename: file.name, count: rows.length })}, ${now})`),
    db.update(importLogs).set({ status: 'success', numberOfUsersUpdated: rows.length, endTime: now }).where(eq(importLogs.id, log!.id)),
  );
  if (extra.meishi > 0 || extra.scheduler > 0) statements.push(seatGuard(db, tenant.id));
  if (kind === 'update') statements.push(adminGuard(db, tenant.id));
  try {
    await db.batch(statements as never);
  } catch (e) {
    await db.update(importLogs).set({ status: 'failed', endTime: clock.now(), error: String(e).slice(0, 500) }).where(eq(importLogs.id, log!.id));
    if (isGuardFailure(e)) {
      await assertSeats(db, tenant.id, { meishi: Math.max(0, extra.meishi), scheduler: Math.max(0, extra.scheduler) });
      throw new AppError('invalid-csv', 422, { rows: [{ row: 1, column: 'is_admin', error: 'lastAdmin' }] });
    }
    if (isUniqueViolation(e, 'tenant_users')) {
      throw new AppError('invalid-csv', 422, { rows: [{ row: 1, column: 'email', error: 'alreadyMember' }] });
    }
    throw e;
  }
  return rows.length;
}

/** Records a refused upload in the import log (the table shows failures too). */
export async function logFailedImport(deps: Deps, tenant: Tenant, kind: ImportKind, filename: string, actor: PeopleActor, error: string): Promise<void> {
  const now = deps.clock.now();
  await deps.db.insert(importLogs).values({ tenantId: tenant.id, userId: actor.userId, kind, filename: filename.slice(0, 255), status: 'failed', startTime: now, endTime: now, error });
}

/** GET admin/users/import/update/logs: newest first. */
export async function listImportLogs(deps: Deps, tenantId: number, limit = 50): Promise<ImportLog[]> {
  const rows = await deps.db
    .select({ log: importLogs, name: users.name })
    .from(importLogs)
    .leftJoin(users, eq(users.id, importLogs.userId))
    .where(eq(importLogs.tenantId, tenantId))
    .orderBy(desc(importLogs.startTime), desc(importLogs.id))
    .limit(limit);
  return rows.map(({ log, name }) => ({
    id: log.id,
    filename: log.filename,
    kind: log.kind,
    start_time: iso(log.startTime)!,
    user: name === null ? null : { name },
    status: log.status,
    number_of_users_updated: log.numberOfUsersUpdated,
  }));
}

/** The sample file: header row in the caller's language and two example rows. */
export function sampleCsv(lang: Lang): string {
  const example =
    lang === 'ja'
      ? [['山田 太郎', 'taro.yamada@example.com', '営業部', '開発部|総務部', '1', '0', '0'], ['佐藤 花子', 'hanako.sato@example.com', '', '', '1', '1', '1']]
      : [['Taro Yamada', 'taro.yamada@example.com', 'Sales', 'Development|General affairs', '1', '0', '0'], ['Hanako Sato', 'hanako.sato@example.com', '', '', '1', '1', '1']];
  return Papa.unparse([[...IMPORT_HEADERS[lang]], ...example], { newline: '\r\n' }) + '\r\n';
}

