// One CSV import job (decision 0030): its row, limits and lease, where its heavy statements run,
// how it fails, how its staged rows are cleaned up, and how its progress reads. The phases are
// upload.ts, staging.ts and switch.ts; runner.ts runs them.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../../../deps';
import { affected, type Db, longBatch, longGet, rawStatement, type SqlStatement } from '../../../db/client';
import { importChunks, importJobs, importLogs } from '../../../db/schema';
import type { ImportJobProgress } from '../../../shared/people/schemas';
import { AppError } from '../../errors';
import type { TenantScope } from '../../tenants/scope';

export type ImportKind = 'add' | 'update';
export type ImportJob = typeof importJobs.$inferSelect;

export const MAX_ROW_ERRORS = 100;
/** A runner's lease; renewed by every step. */
export const LEASE_MS = 60_000;
/** After an unexpected failure the job waits this long, and gives up after MAX_ATTEMPTS. */
export const RETRY_MS = 30_000;
export const MAX_ATTEMPTS = 5;
/** An upload that stopped sending for this long is abandoned (the sweep fails it). */
export const UPLOAD_LEASE_MS = 10 * 60_000;
/** Staged rows per INSERT ... SELECT of the switch (short statements; D1 limits each one's time). */
export const SWITCH_ROWS = 50_000;
/** Staged rows deleted per statement when a finished job is cleaned up. */
const CLEANUP_ROWS = 20_000;

export const TERMINAL = new Set<ImportJob['status']>(['success', 'failed']);
export const RUNNING: ImportJob['status'][] = ['uploading', 'queued', 'processing', 'switching'];
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

export const workOf = (db: Db, job: ImportJob) => workFor(db, job.bytes >= LONG_WORK_BYTES);

/** Lets other requests run between two steps (a macrotask, on Node and in workerd alike). */
export const pause = () => new Promise<void>((r) => setTimeout(r, 0));

/** Ends the job with `error` (the answer the import call gives for it) and logs it as failed. */
export async function failJob(deps: Deps, scope: TenantScope, job: ImportJob, error: AppError): Promise<ImportJob> {
  const { db, clock } = deps;
  const now = clock.now();
  const fields = { status: 'failed' as const, errorCode: error.code, errorStatus: error.status, errorDetails: error.details, lockedUntil: null, finishedAt: now, updatedAt: now };
  await db.batch([
    db.update(importJobs).set(fields).where(and(eq(importJobs.id, job.id), inArray(importJobs.status, ['uploading', 'queued', 'processing', 'switching', 'previewed']))),
    scope.update(importLogs, { status: 'failed', endTime: now, error: error.code }, eq(importLogs.id, job.importLogId ?? -1)),
  ]);
  return { ...job, ...fields };
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

/** The job as the progress call answers it: only to the member who started it, on its tenant. */
export async function getImportJob(deps: Deps, scope: TenantScope, userId: number, jobId: number): Promise<ImportJobProgress> {
  const job = await deps.db
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.id, jobId), scope.own(importJobs), eq(importJobs.userId, userId)))
    .get();
  if (!job) throw new AppError('not-found');
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
  if (!job) throw new AppError('not-found');
  return job;
}

