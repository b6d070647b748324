// CSV import as a streamed, chunked, durable job (decision 0030; spec 02 "Edit-by-import dialog",
// sections 5, 7, 8, 9). Three phases, each in bounded memory:
//  1. upload: the file's bytes are cut into pieces ending after a newline byte and stored in
//     `import_chunks` as they arrive (`receiveUpload`); the encoding is decided at the end;
//  2. staging: one piece per step is decoded, parsed (papaparse, the unfinished last record carried
//     to the next piece), checked against the tenant and written to `import_rows` together with the
//     job's cursor in one batch, so a step is all or nothing and a crash repeats only that step;
//  3. switch: when every row is valid, the staged rows go into the real tables in one batch
//     (INSERT ... SELECT from the staging table, the import log and the job's state flip with it),
//     guarded for seats and the last admin; otherwise nothing changes.
// Steps yield between each other so other requests are served; a job whose runner died is taken
// over by the people sweep once its lease has expired (resumeImportJobs).
import { and, asc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Deps, JobMessage } from '../../../deps';
import { affected, longBatch, longGet, type Db, type SqlStatement } from '../../../db/client';
import { departments, importChunks, importJobs, importLogs, type Tenant } from '../../../db/schema';
import type { Lang } from '../../../shared/i18n';
import type { ImportJobProgress, ImportRowError, ManagedApp } from '../../../shared/people/schemas';
import { actorSnapshot } from '../../audit/log';
import { AppError, isUniqueViolation } from '../../errors';
import {
  bytesToLatin1,
  checkHeader,
  decodePiece,
  guessFormat,
  latin1ToBytes,
  PieceCutter,
  readRecords,
  toRow,
  UploadInspector,
  type CsvEncoding,
  type ParsedRow,
} from './csv';
import { drainMailQueue } from '../mail-queue';
import { activeAdminCount, adminGuard, assertSeats, contractedApps, isGuardFailure, rawStatement, seatGuard } from '../members';
import type { PeopleActor } from '../users';

export type ImportKind = 'add' | 'update';
export type ImportJob = typeof importJobs.$inferSelect;

const MAX_ROW_ERRORS = 100;
/** A runner's lease; renewed by every step. */
const LEASE_MS = 60_000;
/** After an unexpected failure the job waits this long, and gives up after MAX_ATTEMPTS. */
const RETRY_MS = 30_000;
const MAX_ATTEMPTS = 5;
/** An upload that stopped sending for this long is abandoned (the sweep fails it). */
const UPLOAD_LEASE_MS = 10 * 60_000;
/** Staged rows per INSERT ... SELECT of the switch (short statements; D1 limits each one's time). */
const SWITCH_ROWS = 50_000;
/** Staged rows deleted per statement when a finished job is cleaned up. */
const CLEANUP_ROWS = 20_000;

const TERMINAL = new Set<ImportJob['status']>(['success', 'failed']);
const RUNNING: ImportJob['status'][] = ['uploading', 'queued', 'processing', 'switching'];
/** Unfinished imports a tenant may have at once (each holds its file in the database meanwhile). */
export const MAX_RUNNING_IMPORTS = 3;

/**
 * A file this large has its steps, checks, switch and cleanup run off the event loop where the
 * driver would hold it (db/client.ts): they take seconds. A smaller file's take milliseconds, less
 * than handing them to another thread costs on a busy machine, so they run in place.
 */
export const LONG_WORK_BYTES = 4 * 1024 * 1024;

interface Work {
  batch(statements: { toSQL(): SqlStatement }[]): Promise<number[]>;
  get<T>(query: SQL): Promise<T | undefined>;
}

function workFor(db: Db, big: boolean): Work {
  return big
    ? { batch: (statements) => longBatch(db, statements), get: (query) => longGet(db, query) }
    : { batch: async (statements) => ((await db.batch(statements as never)) as unknown[]).map(affected), get: (query) => db.get(query) };
}

const workOf = (db: Db, job: ImportJob) => workFor(db, job.bytes >= LONG_WORK_BYTES);

/** Lets other requests run between two steps (a macrotask, on Node and in workerd alike). */
const pause = () => new Promise<void>((r) => setTimeout(r, 0));

// ---- 1. Upload --------------------------------------------------------------------------------

export interface UploadLimits {
  /** Target piece size (IMPORT_CHUNK_BYTES). */
  chunkBytes: number;
  /** The file size limit (spec 02 section 9: 50 MB). */
  maxBytes: number;
}

/**
 * Creates the job (and its import-log row) and stores the file piece by piece as `bytes` yields
 * it; the file is never whole in memory. Refusals that the bytes alone decide (too large,
 * UTF-16, NUL bytes, a BOM on bytes that are not UTF-8, a line longer than a piece) fail the job
 * and are thrown. Returns the job, queued.
 */
export async function receiveUpload(
  deps: Deps,
  tenant: Tenant,
  kind: ImportKind,
  file: { name: string; bytes: AsyncIterable<Uint8Array> },
  lang: Lang,
  actor: PeopleActor,
  limits: UploadLimits,
): Promise<ImportJob> {
  const { db, clock } = deps;
  const running = await db.select({ id: importJobs.id }).from(importJobs).where(and(eq(importJobs.tenantId, tenant.id), inArray(importJobs.status, RUNNING))).limit(MAX_RUNNING_IMPORTS);
  if (running.length >= MAX_RUNNING_IMPORTS) throw new AppError('imports-in-progress', 409);
  const now = clock.now();
  const filename = file.name.slice(0, 255);
  const log = await db.insert(importLogs).values({ tenantId: tenant.id, userId: actor.userId, kind, filename, status: 'processing', startTime: now }).returning({ id: importLogs.id }).get();
  const job = await db
    .insert(importJobs)
    .values({
      tenantId: tenant.id,
      userId: actor.userId,
      importLogId: log!.id,
      kind,
      filename,
      lang,
      status: 'uploading',
      actorIp: actor.ip,
      actorUserAgent: actor.userAgent?.slice(0, 512) ?? null,
      lockedUntil: now + UPLOAD_LEASE_MS,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  const cutter = new PieceCutter(limits.chunkBytes, limits.chunkBytes * 2);
  const inspector = new UploadInspector();
  let seq = 0;
  const store = async (piece: Uint8Array) => {
    inspector.inspect(piece);
    // A NUL byte or UTF-16 is refused at once, without storing the rest.
    if (inspector.refused) throw new AppError('incorrect-encoding', 422);
    const t = clock.now();
    await db.batch([
      db.insert(importChunks).values({ jobId: job!.id, seq: seq++, data: bytesToLatin1(piece) }),
      db.update(importJobs).set({ lockedUntil: t + UPLOAD_LEASE_MS, updatedAt: t, bytes: inspector.bytes, chunks: seq }).where(eq(importJobs.id, job!.id)),
    ]);
  };
  const iterator = file.bytes[Symbol.asyncIterator]();
  let size = 0;
  try {
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
      size += r.value.length;
      if (size > limits.maxBytes) throw new AppError('file-too-large', 413);
      const { pieces, tooLong } = cutter.push(r.value);
      for (const p of pieces) await store(p);
      if (tooLong) throw new AppError('invalid-csv', 422, { rows: [{ row: inspector.lines + 1, column: null, error: 'parse' }] });
    }
    const last = cutter.end();
    if (last) await store(last);
    const encoding = inspector.encoding();
    const t = clock.now();
    return (await db
      .update(importJobs)
      .set({ status: 'queued', encoding, bytes: inspector.bytes, chunks: seq, totalRows: inspector.dataLines, lockedUntil: null, updatedAt: t })
      .where(eq(importJobs.id, job!.id))
      .returning()
      .get())!;
  } catch (e) {
    let failure = e instanceof AppError ? e : new AppError('upload-failed', 400);
    // A file refused for its content is still read to its end (nothing stored): the browser is
    // told once it has sent everything, and a file over the limit is told so rather than why
    // its first bytes were wrong.
    if (e instanceof AppError && e.code !== 'file-too-large') {
      try {
        for (let r = await iterator.next(); !r.done; r = await iterator.next()) {
          size += r.value.length;
          if (size > limits.maxBytes) {
            failure = new AppError('file-too-large', 413);
            break;
          }
        }
      } catch {
        /* the body ended early: the first reason stands */
      }
    }
    await failJob(deps, { ...job!, status: 'uploading' }, failure);
    await cleanupJob(deps, job!.id).catch(() => undefined); // else the sweep does it
    throw failure === e || !(e instanceof AppError) ? e : failure;
  }
}

// ---- 2. Staging -------------------------------------------------------------------------------

const emailCheck = z.email();

interface StagedRow {
  line: number;
  email: string;
  name: string;
  dept: number | null;
  extra: number[];
  meishi: 0 | 1;
  scheduler: 0 | 1;
  admin: 0 | 1;
  valid: 0 | 1;
  uid: number | null;
  tuid: number | null;
}

/**
 * Checks one piece's rows against the tenant (departments, apps, members, duplicates in the whole
 * file so far) and returns what to stage. Rows with problems are staged as invalid so a later
 * duplicate of their address is still found; their problems go to `errors`.
 */
async function checkRows(deps: Deps, job: ImportJob, rows: ParsedRow[], errors: ImportRowError[]): Promise<StagedRow[]> {
  const { db } = deps;
  if (!rows.length) return [];
  const push = (e: ImportRowError) => {
    if (errors.length < MAX_ROW_ERRORS) errors.push(e);
  };
  const emails = [...new Set(rows.map((r) => r.email).filter(Boolean))];
  const firstLine = rows[0]!.line;
  const [depts, contracted, members, earlier] = await Promise.all([
    db.select({ id: departments.id, name: departments.name }).from(departments).where(eq(departments.tenantId, job.tenantId)),
    contractedApps(db, job.tenantId),
    // Only this piece's addresses: a tenant of any size never sits in memory.
    db.all<{ email: string; uid: number; tuid: number | null; operation_status: string | null; invitation_pending: number | null }>(sql`
      SELECT u.email AS email, u.id AS uid, tu.id AS tuid, tu.operation_status AS operation_status, tu.invitation_pending AS invitation_pending
      FROM json_each(${JSON.stringify(emails)}) j CROSS JOIN users u ON u.email = j.value
        LEFT JOIN tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = ${job.tenantId}`),
    // Addresses staged by earlier pieces (line < this piece's first: a repeated step sees only those).
    db.all<{ email: string }>(sql`
      SELECT r.email AS email FROM json_each(${JSON.stringify(emails)}) j CROSS JOIN import_rows r ON r.job_id = ${job.id} AND r.email = j.value
      WHERE r.line < ${firstLine}`),
  ]);
  const deptByName = new Map(depts.map((d) => [d.name, d.id]));
  const apps = new Set(contracted.map((a) => a.app));
  const memberByEmail = new Map(members.map((m) => [m.email, m]));
  const seen = new Set(earlier.map((e) => e.email));
  const out: StagedRow[] = [];
  for (const r of rows) {
    const before = errors.length;
    if (!r.name) push({ row: r.line, column: 'name', error: 'required' });
    else if (r.name.length > 255) push({ row: r.line, column: 'name', error: 'tooLong' });
    if (!r.email) push({ row: r.line, column: 'email', error: 'required' });
    else if (r.email.length > 254 || !emailCheck.safeParse(r.email).success) push({ row: r.line, column: 'email', error: 'emailInvalid' });
    else if (seen.has(r.email)) push({ row: r.line, column: 'email', error: 'duplicateInFile' });
    const duplicate = seen.has(r.email);
    seen.add(r.email);
    const dept = r.department ? (deptByName.get(r.department) ?? null) : null;
    if (r.department && dept === null) push({ row: r.line, column: 'department', error: 'unknownDepartment' });
    const extra: number[] = [];
    for (const name of r.extra) {
      const id = deptByName.get(name);
      if (id === undefined) push({ row: r.line, column: 'additional_departments', error: 'unknownDepartment' });
      else if (id !== dept && !extra.includes(id)) extra.push(id);
    }
    if (!r.meishi && !r.scheduler) push({ row: r.line, column: 'meishi', error: 'noApp' });
    if (r.meishi && !apps.has('meishi')) push({ row: r.line, column: 'meishi', error: 'appNotContracted' });
    if (r.scheduler && !apps.has('scheduler')) push({ row: r.line, column: 'scheduler', error: 'appNotContracted' });
    const member = memberByEmail.get(r.email);
    const isMember = member !== undefined && member.tuid !== null;
    if (job.kind === 'add' && isMember) push({ row: r.line, column: 'email', error: 'alreadyMember' });
    const updatable = isMember && member.operation_status === null && !member.invitation_pending;
    if (job.kind === 'update' && r.email && !updatable) push({ row: r.line, column: 'email', error: 'notMember' });
    // The first row of an address is staged (valid or not) so later duplicates are found.
    if (r.email && !duplicate) {
      out.push({
        line: r.line,
        email: r.email,
        name: r.name.slice(0, 255),
        dept,
        extra,
        meishi: r.meishi ? 1 : 0,
        scheduler: r.scheduler ? 1 : 0,
        admin: r.isAdmin ? 1 : 0,
        valid: errors.length === before ? 1 : 0,
        uid: member?.uid ?? null,
        tuid: member?.tuid ?? null,
      });
    }
  }
  return out;
}

/** Reads one piece: decode, parse, check, stage; the cursor moves in the same batch. */
async function stagePiece(deps: Deps, job: ImportJob): Promise<ImportJob | null> {
  const { db, clock } = deps;
  const tenantLang = job.lang;
  if (job.nextChunk >= job.chunks) return finishStaging(deps, job);
  const piece = await db
    .select({ data: importChunks.data })
    .from(importChunks)
    .where(and(eq(importChunks.jobId, job.id), eq(importChunks.seq, job.nextChunk)))
    .get();
  if (!piece) throw new Error(`import job ${job.id}: chunk ${job.nextChunk} is missing`);
  const first = job.nextChunk === 0;
  const final = job.nextChunk === job.chunks - 1;
  const text = job.carry + decodePiece(latin1ToBytes(piece.data), job.encoding as CsvEncoding, first);
  const format = job.delimiter && job.newline ? { delimiter: job.delimiter, newline: job.newline } : guessFormat(text);
  const { records, consumed } = readRecords(text, format, final);
  const carry = text.slice(consumed);
  const errors = [...job.rowErrors] as ImportRowError[];
  let line = job.records;
  let headerSeen = job.headerSeen;
  const rows: ParsedRow[] = [];
  for (const record of records) {
    line++;
    if (!headerSeen) {
      checkHeader(record.cells, tenantLang);
      headerSeen = true;
      continue;
    }
    const row = toRow(record, line, errors);
    if (row) rows.push(row);
  }
  // A record that never ends (an unclosed quote) cannot be longer than a piece in a valid file.
  if (!final && carry.length > deps.config.IMPORT_CHUNK_BYTES * 2) {
    errors.push({ row: line + 1, column: null, error: 'parse' });
  }
  const staged = await checkRows(deps, job, rows, errors);
  const now = clock.now();
  const next = job.nextChunk + 1;
  const processed = job.processedRows + records.length - (headerSeen && !job.headerSeen ? 1 : 0);
  const rowErrors = errors.slice(0, MAX_ROW_ERRORS);
  const statements: { toSQL(): SqlStatement }[] = [
    db
      .update(importJobs)
      .set({
        status: 'processing',
        nextChunk: next,
        carry,
        delimiter: format.delimiter,
        newline: format.newline,
        headerSeen,
        records: line,
        processedRows: processed,
        rowErrors,
        attempts: 0,
        lockedUntil: now + LEASE_MS,
        updatedAt: now,
      })
      .where(and(eq(importJobs.id, job.id), eq(importJobs.nextChunk, job.nextChunk), eq(importJobs.leaseToken, job.leaseToken!))),
    leaseGuard(deps, job.id, job.leaseToken!, next),
  ];
  // Once the file has problems nothing will be applied: only addresses matter from then on.
  if (staged.length) {
    statements.push(
      rawStatement(db, sql`INSERT INTO import_rows (job_id, line, email, name, department_id, extra, meishi, scheduler, is_admin, valid, user_id, tenant_user_id)
        SELECT ${job.id}, j.value->>'line', j.value->>'email', j.value->>'name', j.value->>'dept', j.value->>'extra',
          j.value->>'meishi', j.value->>'scheduler', j.value->>'admin', j.value->>'valid', j.value->>'uid', j.value->>'tuid'
        FROM json_each(${JSON.stringify(staged.map((s) => ({ ...s, extra: JSON.stringify(s.extra) })))}) j WHERE true
        ON CONFLICT DO NOTHING`),
    );
  }
  try {
    await workOf(db, job).batch(statements);
  } catch (e) {
    if (isGuardFailure(e)) return null; // another runner has the job now
    throw e;
  }
  const updated: ImportJob = { ...job, status: 'processing', nextChunk: next, carry, delimiter: format.delimiter, newline: format.newline, headerSeen, records: line, processedRows: processed, rowErrors, attempts: 0, lockedUntil: now + LEASE_MS, updatedAt: now };
  if (rowErrors.length >= MAX_ROW_ERRORS || (!final && carry.length > deps.config.IMPORT_CHUNK_BYTES * 2)) {
    return failJob(deps, updated, new AppError('invalid-csv', 422, { rows: rowErrors }));
  }
  return updated;
}

/** Fails the step's batch when the job's cursor is not where this runner put it (lease lost). */
function leaseGuard(deps: Deps, jobId: number, token: string, next: number) {
  return rawStatement(deps.db, sql`INSERT INTO tenant_apps (tenant_id, app) SELECT NULL, NULL
    WHERE NOT EXISTS (SELECT 1 FROM import_jobs WHERE id = ${jobId} AND lease_token = ${token} AND next_chunk = ${next})`);
}

/** Every piece is read: refuse the file with its problems, or go on to the switch. */
async function finishStaging(deps: Deps, job: ImportJob): Promise<ImportJob | null> {
  if (!job.headerSeen) checkHeader(null, job.lang);
  if (job.rowErrors.length) throw new AppError('invalid-csv', 422, { rows: job.rowErrors as ImportRowError[] });
  if (job.processedRows === 0) throw new AppError('no_data', 422);
  const now = deps.clock.now();
  const moved = await deps.db
    .update(importJobs)
    .set({ status: 'switching', lockedUntil: now + LEASE_MS, updatedAt: now })
    .where(and(eq(importJobs.id, job.id), eq(importJobs.leaseToken, job.leaseToken!), inArray(importJobs.status, ['queued', 'processing'])))
    .returning()
    .get();
  return moved ?? null;
}

// ---- 3. Switch --------------------------------------------------------------------------------

const invalid = (line: number, column: ImportRowError['column'], error: string) => new AppError('invalid-csv', 422, { rows: [{ row: line, column, error }] });

/**
 * Checks the staged rows against the tenant as it is now (the file may have taken minutes, and
 * other admins may have acted meanwhile) for clear errors; the batch's guards close the races.
 */
async function checkBeforeSwitch(deps: Deps, job: ImportJob): Promise<Record<ManagedApp, number>> {
  const { db } = deps;
  const T = job.tenantId;
  // Each scans the staged rows (a million for a 50 MB file).
  const work = workOf(db, job);
  const first = async (query: ReturnType<typeof sql>) => (await work.get<{ line: number | null }>(query))?.line ?? null;
  if (job.kind === 'add') {
    const taken = await first(sql`SELECT min(r.line) AS line FROM import_rows r CROSS JOIN users u ON u.email = r.email
      CROSS JOIN tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = ${T} WHERE r.job_id = ${job.id}`);
    if (taken !== null) throw invalid(taken, 'email', 'alreadyMember');
  } else {
    const gone = await first(sql`SELECT min(r.line) AS line FROM import_rows r WHERE r.job_id = ${job.id} AND NOT EXISTS (
      SELECT 1 FROM tenant_users tu WHERE tu.id = r.tenant_user_id AND tu.tenant_id = ${T} AND tu.user_id = r.user_id
        AND tu.operation_status IS NULL AND tu.invitation_pending = 0)`);
    if (gone !== null) throw invalid(gone, 'email', 'notMember');
  }
  const deptGone = await first(sql`SELECT min(r.line) AS line FROM import_rows r WHERE r.job_id = ${job.id}
    AND r.department_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM departments d WHERE d.id = r.department_id AND d.tenant_id = ${T})`);
  if (deptGone !== null) throw invalid(deptGone, 'department', 'unknownDepartment');
  const extraGone = await first(sql`SELECT min(r.line) AS line FROM import_rows r CROSS JOIN json_each(r.extra) x WHERE r.job_id = ${job.id}
    AND NOT EXISTS (SELECT 1 FROM departments d WHERE d.id = x.value AND d.tenant_id = ${T})`);
  if (extraGone !== null) throw invalid(extraGone, 'additional_departments', 'unknownDepartment');

  // Seats: new holders per app among members who stay active.
  let extra: Record<ManagedApp, number>;
  if (job.kind === 'add') {
    const row = await work.get<{ meishi: number | null; scheduler: number | null }>(sql`SELECT sum(meishi) AS meishi, sum(scheduler) AS scheduler FROM import_rows WHERE job_id = ${job.id}`);
    extra = { meishi: Number(row?.meishi ?? 0), scheduler: Number(row?.scheduler ?? 0) };
  } else {
    const row = await work.get<{ meishi: number | null; scheduler: number | null; demoted: number | null; promoted: number | null; firstDemoted: number | null }>(sql`
      SELECT sum(CASE WHEN r.meishi = 1 AND tu.meishi_access_granted_at IS NULL THEN 1 WHEN r.meishi = 0 AND tu.meishi_access_granted_at IS NOT NULL THEN -1 ELSE 0 END) AS meishi,
        sum(CASE WHEN r.scheduler = 1 AND tu.scheduler_access_granted_at IS NULL THEN 1 WHEN r.scheduler = 0 AND tu.scheduler_access_granted_at IS NOT NULL THEN -1 ELSE 0 END) AS scheduler,
        sum(tu.is_admin = 1 AND r.is_admin = 0) AS demoted, sum(tu.is_admin = 0 AND r.is_admin = 1) AS promoted,
        min(CASE WHEN tu.is_admin = 1 AND r.is_admin = 0 THEN r.line END) AS firstDemoted
      FROM import_rows r CROSS JOIN tenant_users tu ON tu.id = r.tenant_user_id
      WHERE r.job_id = ${job.id} AND tu.deactivated_at IS NULL`);
    extra = { meishi: Number(row?.meishi ?? 0), scheduler: Number(row?.scheduler ?? 0) };
    const demoted = Number(row?.demoted ?? 0);
    if (demoted > 0 && (await activeAdminCount(db, T)) - demoted + Number(row?.promoted ?? 0) <= 0) {
      throw invalid(Number(row!.firstDemoted), 'is_admin', 'lastAdmin');
    }
  }
  await assertSeats(db, T, { meishi: Math.max(0, extra.meishi), scheduler: Math.max(0, extra.scheduler) });
  return extra;
}

/** The one step that changes the tenant: every staged row, or none. */
async function switchIn(deps: Deps, job: ImportJob): Promise<ImportJob | null> {
  const { db, clock } = deps;
  const extra = await checkBeforeSwitch(deps, job);
  const T = job.tenantId;
  const J = job.id;
  const now = clock.now();
  const ua = job.actorUserAgent;
  const actor = job.userId;
  const work = workOf(db, job);
  const range = await work.get<{ lo: number | null; hi: number | null; n: number }>(sql`SELECT min(line) AS lo, max(line) AS hi, count(*) AS n FROM import_rows WHERE job_id = ${J}`);
  const count = Number(range?.n ?? 0);
  const statements: { toSQL(): SqlStatement }[] = [
    // The state flip first: a runner that lost the job fails here, before anything else.
    db
      .update(importJobs)
      .set({ status: 'success', importedRows: count, lockedUntil: null, finishedAt: now, updatedAt: now })
      .where(and(eq(importJobs.id, J), eq(importJobs.status, 'switching'), eq(importJobs.leaseToken, job.leaseToken!))),
    rawStatement(db, sql`INSERT INTO tenant_apps (tenant_id, app) SELECT NULL, NULL
      WHERE NOT EXISTS (SELECT 1 FROM import_jobs WHERE id = ${J} AND status = 'success' AND lease_token = ${job.leaseToken})`),
  ];
  // Join order is forced (CROSS JOIN, `+column`) so SQLite walks the staged rows by their key and
  // looks each one up by index; left to itself it may scan the tenant's members once per row.
  for (let lo = Number(range?.lo ?? 0); count && lo <= Number(range!.hi); lo += SWITCH_ROWS) {
    const hi = lo + SWITCH_ROWS - 1;
    const rows = sql`import_rows r`;
    const within = sql`r.job_id = ${J} AND r.line BETWEEN ${lo} AND ${hi} AND r.valid = 1`;
    if (job.kind === 'add') {
      statements.push(
        rawStatement(db, sql`INSERT INTO users (name, email, language, created_at, updated_at)
          SELECT r.name, r.email, 'ja', ${now}, ${now} FROM ${rows} WHERE ${within}
          ON CONFLICT(email) DO NOTHING`),
        // An account that is someone's already (registered, or a member of another tenant) is
        // invited and counts for nothing until the person accepts (decision 0027).
        rawStatement(db, sql`INSERT INTO tenant_users (tenant_id, user_id, is_admin, department_id, invited_at, invitation_pending,
            meishi_access_granted_at, scheduler_access_granted_at, created_at, updated_at)
          SELECT ${T}, u.id, r.is_admin, r.department_id, ${now},
            u.password_hash IS NOT NULL OR u.is_tenant_manager OR EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = u.id AND o.tenant_id <> ${T}),
            CASE WHEN r.meishi = 1 THEN ${now} END, CASE WHEN r.scheduler = 1 THEN ${now} END, ${now}, ${now}
          FROM ${rows} CROSS JOIN users u ON u.email = r.email WHERE ${within}`),
        // New people get a registration invitation; invited existing accounts the "accept" mail.
        rawStatement(db, sql`INSERT INTO mail_queue (tenant_id, user_id, kind, status, attempts, available_at, created_at)
          SELECT ${T}, u.id, CASE WHEN tu.invitation_pending THEN 'added' ELSE 'invitation' END, 'pending', 0, ${now}, ${now}
          FROM ${rows} CROSS JOIN users u ON u.email = r.email CROSS JOIN tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = ${T}
          WHERE ${within}`),
        rawStatement(db, sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
          SELECT ${T}, ${actor}, ${actorSnapshot(actor)}, 'user.created', 'user', CAST(u.id AS TEXT), ${job.actorIp}, ${ua},
            json_object('email', u.email, 'import_log_id', ${job.importLogId}), ${now}
          FROM ${rows} CROSS JOIN users u ON u.email = r.email WHERE ${within}`),
      );
    } else {
      statements.push(
        // A person's own name (registered, or shared with another tenant) is never rewritten: the
        // file's name becomes this tenant's label for them instead (decision 0027).
        rawStatement(db, sql`UPDATE tenant_users SET display_name = CASE WHEN u.password_hash IS NULL AND NOT u.is_tenant_manager
              AND NOT EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = u.id AND o.tenant_id <> ${T}) THEN NULL ELSE r.name END
          FROM ${rows} CROSS JOIN users u ON u.id = r.user_id
          WHERE ${within} AND tenant_users.id = r.tenant_user_id AND +tenant_users.tenant_id = ${T}`),
        rawStatement(db, sql`UPDATE users SET name = r.name, updated_at = ${now}
          FROM ${rows} WHERE ${within} AND users.id = r.user_id AND users.password_hash IS NULL AND NOT users.is_tenant_manager
            AND NOT EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = users.id AND o.tenant_id <> ${T})`),
        rawStatement(db, sql`UPDATE tenant_users SET is_admin = r.is_admin, department_id = r.department_id,
            meishi_access_granted_at = CASE WHEN r.meishi = 1 THEN coalesce(tenant_users.meishi_access_granted_at, ${now}) END,
            scheduler_access_granted_at = CASE WHEN r.scheduler = 1 THEN coalesce(tenant_users.scheduler_access_granted_at, ${now}) END,
            updated_at = ${now}
          FROM ${rows} WHERE ${within} AND tenant_users.id = r.tenant_user_id AND +tenant_users.tenant_id = ${T}`),
        rawStatement(db, sql`DELETE FROM additional_departments WHERE +tenant_id = ${T}
          AND tenant_user_id IN (SELECT r.tenant_user_id FROM ${rows} WHERE ${within})`),
        rawStatement(db, sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
          SELECT ${T}, ${actor}, ${actorSnapshot(actor)}, 'user.updated', 'user', CAST(r.user_id AS TEXT), ${job.actorIp}, ${ua},
            json_object('import_log_id', ${job.importLogId}), ${now}
          FROM ${rows} WHERE ${within}`),
      );
    }
    statements.push(
      rawStatement(db, sql`INSERT INTO additional_departments (tenant_id, tenant_user_id, department_id)
        SELECT ${T}, tu.id, d.value
        FROM ${rows} CROSS JOIN json_each(r.extra) d
          CROSS JOIN users u ON u.email = r.email CROSS JOIN tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = ${T}
        WHERE ${within}`),
    );
  }
  statements.push(
    rawStatement(db, sql`INSERT INTO activity_logs (tenant_id, actor_user_id, actor_email, actor_name, action, target_type, target_id, ip_address, user_agent, details, created_at)
      VALUES (${T}, ${actor}, ${actorSnapshot(actor)}, ${job.kind === 'add' ? 'users.imported' : 'users.import_updated'}, 'import_log', ${String(job.importLogId)}, ${job.actorIp}, ${ua},
        ${JSON.stringify({ filename: job.filename, count })}, ${now})`),
    db.update(importLogs).set({ status: 'success', numberOfUsersUpdated: count, endTime: now }).where(and(eq(importLogs.id, job.importLogId ?? -1), eq(importLogs.tenantId, T))),
  );
  if (extra.meishi > 0 || extra.scheduler > 0) statements.push(seatGuard(db, T));
  if (job.kind === 'update') statements.push(adminGuard(db, T));
  try {
    // Seconds for a large file (see LONG_WORK_BYTES).
    await work.batch(statements);
  } catch (e) {
    if (isGuardFailure(e)) {
      // The lease check, seats or the last admin: tell which (the lease one ends this runner).
      const current = await db.select({ status: importJobs.status, token: importJobs.leaseToken }).from(importJobs).where(eq(importJobs.id, J)).get();
      if (current?.token !== job.leaseToken || current?.status !== 'switching') return null;
      await assertSeats(db, T, { meishi: Math.max(0, extra.meishi), scheduler: Math.max(0, extra.scheduler) });
      throw new AppError('invalid-csv', 422, { rows: [{ row: 1, column: 'is_admin', error: 'lastAdmin' }] });
    }
    if (isUniqueViolation(e, 'tenant_users')) throw new AppError('invalid-csv', 422, { rows: [{ row: 1, column: 'email', error: 'alreadyMember' }] });
    throw e;
  }
  return { ...job, status: 'success', importedRows: count, lockedUntil: null, finishedAt: now, updatedAt: now };
}

// ---- Running ----------------------------------------------------------------------------------

/** Ends the job with `error` (the answer the import call gives for it) and logs it as failed. */
async function failJob(deps: Deps, job: ImportJob, error: AppError): Promise<ImportJob> {
  const { db, clock } = deps;
  const now = clock.now();
  const fields = { status: 'failed' as const, errorCode: error.code, errorStatus: error.status, errorDetails: error.details, lockedUntil: null, finishedAt: now, updatedAt: now };
  await db.batch([
    db.update(importJobs).set(fields).where(and(eq(importJobs.id, job.id), inArray(importJobs.status, ['uploading', 'queued', 'processing', 'switching']))),
    db
      .update(importLogs)
      .set({ status: 'failed', endTime: now, error: error.code })
      .where(and(eq(importLogs.id, job.importLogId ?? -1), eq(importLogs.tenantId, job.tenantId))),
  ]);
  return { ...job, ...fields };
}

async function claim(deps: Deps, jobId: number): Promise<ImportJob | undefined> {
  const now = deps.clock.now();
  return deps.db
    .update(importJobs)
    .set({ lockedUntil: now + LEASE_MS, leaseToken: crypto.randomUUID(), attempts: sql`${importJobs.attempts} + 1` })
    .where(
      and(
        eq(importJobs.id, jobId),
        inArray(importJobs.status, ['queued', 'processing', 'switching']),
        or(isNull(importJobs.lockedUntil), lt(importJobs.lockedUntil, now)),
      ),
    )
    .returning()
    .get();
}

export interface RunOptions {
  /** Stop after about this many milliseconds of wall time (the job stays claimable). */
  budgetMs?: number;
}

/**
 * Runs a job step by step until it is finished, the budget is spent, or another runner holds
 * it. Returns the status it left the job in ('busy' when it could not claim it).
 */
export async function runImportJob(deps: Deps, jobId: number, opts: RunOptions = {}): Promise<ImportJob['status'] | 'busy'> {
  let job = await claim(deps, jobId);
  if (!job) return 'busy';
  const started = Date.now();
  try {
    for (;;) {
      let next: ImportJob | null;
      try {
        next = job.status === 'switching' ? await switchIn(deps, job) : await stagePiece(deps, job);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        next = await failJob(deps, job, e);
      }
      if (!next) return 'busy'; // lost the lease
      job = next;
      if (TERMINAL.has(job.status)) {
        // The outcome stands; tidying up may fail without changing it (the sweep tidies later).
        await cleanupJob(deps, job.id, job.bytes >= LONG_WORK_BYTES).catch((e) => console.warn(JSON.stringify({ level: 'warn', msg: 'import job cleanup failed; the sweep retries', jobId, error: String(e) })));
        return job.status;
      }
      if (opts.budgetMs !== undefined && Date.now() - started >= opts.budgetMs) {
        await deps.db.update(importJobs).set({ lockedUntil: null }).where(and(eq(importJobs.id, job.id), eq(importJobs.leaseToken, job.leaseToken!)));
        return job.status;
      }
      await pause();
    }
  } catch (e) {
    // A database or runtime failure: retry later (the sweep), give up after a few attempts.
    const final = job.attempts >= MAX_ATTEMPTS;
    if (final) await failJob(deps, job, new AppError('server-error', 500));
    else await deps.db.update(importJobs).set({ lockedUntil: deps.clock.now() + RETRY_MS, lastError: String(e).slice(0, 500) }).where(eq(importJobs.id, job.id));
    (final ? console.error : console.warn)(JSON.stringify({ level: final ? 'error' : 'warn', msg: final ? 'import job gave up' : 'import job step failed; will retry', jobId, error: String(e) }));
    return final ? 'failed' : job.status;
  }
}

/** Removes a finished job's stored pieces and staged rows, a slice at a time. */
export async function cleanupJob(deps: Deps, jobId: number, big = true): Promise<void> {
  const { db } = deps;
  const work = workFor(db, big);
  for (;;) {
    const [deleted] = await work.batch([rawStatement(db, sql`DELETE FROM import_rows WHERE job_id = ${jobId} AND line IN (SELECT line FROM import_rows WHERE job_id = ${jobId} LIMIT ${CLEANUP_ROWS})`)]);
    if ((deleted ?? 0) < CLEANUP_ROWS) break;
    await pause();
  }
  // The file's pieces: up to 50 MB of text to free.
  await work.batch([db.delete(importChunks).where(eq(importChunks.jobId, jobId))]);
  await db.update(importJobs).set({ cleanedAt: deps.clock.now(), carry: '' }).where(eq(importJobs.id, jobId));
}


/**
 * The sweep's part: jobs whose runner went away (restart, evicted isolate, failure) are run on,
 * uploads that stopped are failed, finished jobs left uncleaned are cleaned. `run` decides how a
 * job continues (a queue message on Workers, or in place with a time budget).
 */
export async function resumeImportJobs(deps: Deps, run: (jobId: number) => Promise<unknown>, limit = 5): Promise<number> {
  const { db } = deps;
  const now = deps.clock.now();
  const stale = await db
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.status, 'uploading'), lt(importJobs.lockedUntil, now)))
    .limit(limit);
  for (const job of stale) await failJob(deps, job, new AppError('upload-failed', 400));
  const due = await db
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(and(inArray(importJobs.status, ['queued', 'processing', 'switching']), or(isNull(importJobs.lockedUntil), lt(importJobs.lockedUntil, now))))
    .orderBy(asc(importJobs.id))
    .limit(limit);
  for (const { id } of due) await run(id);
  const unclean = await db
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(and(inArray(importJobs.status, ['success', 'failed']), isNull(importJobs.cleanedAt), or(isNull(importJobs.lockedUntil), lt(importJobs.lockedUntil, now))))
    .limit(limit);
  for (const { id } of unclean) await cleanupJob(deps, id);
  return due.length;
}

// ---- Reading ----------------------------------------------------------------------------------

/** The job as the progress call answers it: only to the member who started it, on its tenant. */
export async function getImportJob(deps: Deps, tenantId: number, userId: number, jobId: number): Promise<ImportJobProgress> {
  const job = await deps.db
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.id, jobId), eq(importJobs.tenantId, tenantId), eq(importJobs.userId, userId)))
    .get();
  if (!job) throw new AppError('not-found', 404);
  return progressOf(job);
}

export function progressOf(job: ImportJob): ImportJobProgress {
  const done = job.status === 'success';
  return {
    id: job.id,
    kind: job.kind,
    filename: job.filename,
    status: job.status,
    processed_rows: done ? Math.max(job.processedRows, job.importedRows ?? 0) : job.processedRows,
    // The estimate from the newline count, never below what has been read.
    total_rows: done ? Math.max(job.processedRows, job.importedRows ?? 0) : Math.max(job.totalRows, job.processedRows),
    count: done ? (job.importedRows ?? 0) : null,
    error: job.status === 'failed' ? { status: job.errorStatus ?? 500, message: job.errorCode ?? 'server-error', ...(job.errorDetails ?? {}) } : null,
  };
}

/** A job's final answer as the import call gives it (inline runs): success or the AppError. */
export async function outcomeOf(deps: Deps, jobId: number): Promise<ImportJob> {
  const job = await deps.db.select().from(importJobs).where(eq(importJobs.id, jobId)).get();
  if (!job) throw new AppError('not-found', 404);
  return job;
}

// ---- Where a job runs -------------------------------------------------------------------------

/** One invocation's share of a job when it runs from a queue message or the sweep. */
export const JOB_BUDGET_MS = 20_000;

/** Runs (part of) a job, then sends an applied import's invitations on their way. */
async function runAndNotify(deps: Deps, jobId: number, opts: RunOptions = {}): Promise<ImportJob['status'] | 'busy'> {
  const status = await runImportJob(deps, jobId, opts);
  if (status === 'success') {
    const job = await deps.db.select({ kind: importJobs.kind }).from(importJobs).where(eq(importJobs.id, jobId)).get();
    if (job?.kind === 'add') await drainMailQueue(deps);
  }
  return status;
}

/**
 * Continues a job after its request has answered: a queue message when there is a queue,
 * otherwise right here (`background` keeps the promise alive: waitUntil on Workers, a detached
 * promise on Node). Either way the sweep takes over if this runner goes away.
 */
export function continueImportJob(deps: Deps, jobId: number, background: (work: Promise<unknown>) => void): void {
  if (deps.jobs) background(deps.jobs.send({ kind: 'import', jobId }));
  else background(runAndNotify(deps, jobId));
}

/**
 * A queue message: one budget's worth of the job, then a new message for the rest. A job
 * another runner holds is left to it (its lease expiring brings it back through the sweep).
 */
const jobMessageSchema = z.object({ kind: z.literal('import'), jobId: z.number().check(z.int(), z.gte(1)) });

export async function handleJobMessage(deps: Deps, body: unknown): Promise<void> {
  const parsed = jobMessageSchema.safeParse(body);
  if (!parsed.success) {
    console.warn(JSON.stringify({ level: 'warn', msg: 'job message of an unknown shape dropped' }));
    return;
  }
  const message: JobMessage = parsed.data;
  const status = await runAndNotify(deps, message.jobId, { budgetMs: JOB_BUDGET_MS });
  if (status !== 'busy' && !TERMINAL.has(status)) await deps.jobs?.send(message);
}

/** The sweep's entry: stale jobs continue through the queue, or here within a budget. */
export function resumeImportJobsNow(deps: Deps): Promise<number> {
  return resumeImportJobs(deps, (jobId) => (deps.jobs ? deps.jobs.send({ kind: 'import', jobId }) : runAndNotify(deps, jobId, { budgetMs: JOB_BUDGET_MS })));
}

/** Runs a small job within its request; the answer is the job as it ended. */
export async function runInline(deps: Deps, jobId: number): Promise<ImportJob> {
  await runImportJob(deps, jobId);
  return outcomeOf(deps, jobId);
}
