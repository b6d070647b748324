// Phase 2 of a CSV import (decision 0030): one piece per step is decoded, parsed (papaparse, the
// unfinished last record carried to the next piece), checked against the tenant and written to
// `import_rows` together with the job's cursor in one batch, so a step is all or nothing and a
// crash repeats only that step.
import { and, eq, inArray, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Deps } from '../../../deps';
import { rawStatement, type SqlStatement } from '../../../db/client';
import { departments, importChunks, importJobs } from '../../../db/schema';
import { inFileOrder, type ImportRowError } from '../../../shared/people/schemas';
import { AppError } from '../../errors';
import { checkHeader, decodePiece, guessFormat, latin1ToBytes, readRecords, toRow, type CsvEncoding, type ParsedRow } from './csv';
import { contractedApps, isGuardFailure } from '../members';
import { failJob, type ImportJob, LEASE_MS, MAX_ROW_ERRORS, workOf } from './job';
import type { TenantScope } from '../../tenants/scope';

const emailCheck = z.email();

interface StagedRow {
  line: number;
  email: string;
  name: string;
  reading: string | null;
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
async function checkRows(deps: Deps, scope: TenantScope, job: ImportJob, rows: ParsedRow[], errors: ImportRowError[]): Promise<StagedRow[]> {
  const { db } = deps;
  if (!rows.length) return [];
  const push = (e: ImportRowError) => {
    if (errors.length < MAX_ROW_ERRORS) errors.push(e);
  };
  const emails = [...new Set(rows.map((r) => r.email).filter(Boolean))];
  const firstLine = rows[0]!.line;
  const [depts, contracted, members, earlier] = await Promise.all([
    db.select({ id: departments.id, name: departments.name }).from(departments).where(scope.own(departments)),
    contractedApps(scope),
    // Only this piece's addresses: a tenant of any size never sits in memory.
    db.all<{ email: string; uid: number; tuid: number | null; operation_status: string | null; invitation_pending: number | null }>(sql`
      SELECT u.email AS email, u.id AS uid, tu.id AS tuid, tu.operation_status AS operation_status, tu.invitation_pending AS invitation_pending
      FROM json_each(${JSON.stringify(emails)}) j CROSS JOIN users u ON u.email = j.value
        LEFT JOIN tenant_users tu ON tu.user_id = u.id AND tu.tenant_id = ${scope.id}`),
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
    else if (r.name.length > 255) push({ row: r.line, column: 'name', error: 'tooLong', value: r.name.slice(0, 40) });
    if (!r.email) push({ row: r.line, column: 'email', error: 'required' });
    else if (r.email.length > 254 || !emailCheck.safeParse(r.email).success) push({ row: r.line, column: 'email', error: 'emailInvalid', value: r.email.slice(0, 80) });
    else if (seen.has(r.email)) push({ row: r.line, column: 'email', error: 'duplicateInFile', value: r.email });
    const duplicate = seen.has(r.email);
    seen.add(r.email);
    const dept = r.department ? (deptByName.get(r.department) ?? null) : null;
    if (r.department && dept === null) push({ row: r.line, column: 'department', error: 'unknownDepartment', value: r.department });
    const extra: number[] = [];
    for (const name of r.extra) {
      const id = deptByName.get(name);
      if (id === undefined) push({ row: r.line, column: 'additional_departments', error: 'unknownDepartment', value: name });
      else if (id !== dept && !extra.includes(id)) extra.push(id);
    }
    if (!r.meishi && !r.scheduler) push({ row: r.line, column: 'meishi', error: 'noApp' });
    if (r.meishi && !apps.has('meishi')) push({ row: r.line, column: 'meishi', error: 'appNotContracted' });
    if (r.scheduler && !apps.has('scheduler')) push({ row: r.line, column: 'scheduler', error: 'appNotContracted' });
    const member = memberByEmail.get(r.email);
    const isMember = member !== undefined && member.tuid !== null;
    if (job.kind === 'add' && isMember) push({ row: r.line, column: 'email', error: 'alreadyMember', value: r.email });
    const updatable = isMember && member.operation_status === null && !member.invitation_pending;
    if (job.kind === 'update' && r.email && !updatable) push({ row: r.line, column: 'email', error: 'notMember', value: r.email });
    // The first row of an address is staged (valid or not) so later duplicates are found.
    if (r.email && !duplicate) {
      out.push({
        line: r.line,
        email: r.email,
        name: r.name.slice(0, 255),
        reading: r.nameReading,
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
export async function stagePiece(deps: Deps, scope: TenantScope, job: ImportJob): Promise<ImportJob | null> {
  const { db, clock } = deps;
  const tenantLang = job.lang;
  if (job.nextChunk >= job.chunks) return finishStaging(deps, scope, job);
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
  let hasReading = job.hasReading;
  const rows: ParsedRow[] = [];
  for (const record of records) {
    line++;
    if (!headerSeen) {
      hasReading = checkHeader(record.cells, tenantLang).hasReading;
      headerSeen = true;
      continue;
    }
    const row = toRow(record, line, errors, { hasReading });
    if (row) rows.push(row);
  }
  // A record that never ends (an unclosed quote) cannot be longer than a piece in a valid file.
  if (!final && carry.length > deps.config.IMPORT_CHUNK_BYTES * 2) {
    errors.push({ row: line + 1, column: null, error: 'parse' });
  }
  const staged = await checkRows(deps, scope, job, rows, errors);
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
        hasReading,
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
      rawStatement(db, sql`INSERT INTO import_rows (job_id, line, email, name, name_reading, department_id, extra, meishi, scheduler, is_admin, valid, user_id, tenant_user_id)
        SELECT ${job.id}, j.value->>'line', j.value->>'email', j.value->>'name', j.value->>'reading', j.value->>'dept', j.value->>'extra',
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
  const updated: ImportJob = { ...job, status: 'processing', nextChunk: next, carry, delimiter: format.delimiter, newline: format.newline, headerSeen, hasReading, records: line, processedRows: processed, rowErrors, attempts: 0, lockedUntil: now + LEASE_MS, updatedAt: now };
  if (rowErrors.length >= MAX_ROW_ERRORS || (!final && carry.length > deps.config.IMPORT_CHUNK_BYTES * 2)) {
    return failJob(deps, scope, updated, new AppError('invalid-csv', { rows: inFileOrder(rowErrors) }));
  }
  return updated;
}

/** Fails the step's batch when the job's cursor is not where this runner put it (lease lost). */
function leaseGuard(deps: Deps, jobId: number, token: string, next: number) {
  return rawStatement(deps.db, sql`INSERT INTO tenant_apps (tenant_id, app) SELECT NULL, NULL
    WHERE NOT EXISTS (SELECT 1 FROM import_jobs WHERE id = ${jobId} AND lease_token = ${token} AND next_chunk = ${next})`);
}

/** Every piece is read: refuse the file with its problems, or go on to the switch. */
async function finishStaging(deps: Deps, scope: TenantScope, job: ImportJob): Promise<ImportJob | null> {
  if (!job.headerSeen) checkHeader(null, job.lang);
  if (job.rowErrors.length) throw new AppError('invalid-csv', { rows: inFileOrder(job.rowErrors as ImportRowError[]) });
  if (job.processedRows === 0) throw new AppError('no_data');
  const now = deps.clock.now();
  const moved = await deps.db
    .update(importJobs)
    .set({ status: 'switching', lockedUntil: now + LEASE_MS, updatedAt: now })
    .where(and(eq(importJobs.id, job.id), eq(importJobs.leaseToken, job.leaseToken!), inArray(importJobs.status, ['queued', 'processing'])))
    .returning()
    .get();
  return moved ?? null;
}
