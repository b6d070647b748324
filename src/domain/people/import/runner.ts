// Running a CSV import job (decision 0030): claiming it, its steps until done or out of budget,
// retries, and where it runs: a Workers queue consumer, a promise after the answer, the people
// sweep for a job whose runner went away, or inline in tests. Steps yield between each other so
// other requests are served.
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Deps, JobMessage } from '../../../deps';
import { importJobs } from '../../../db/schema';
import { AppError } from '../../errors';
import { scopeOf } from '../../tenants/scope';
import { drainMailQueue } from '../mail-queue';
import { type ImportJob, LEASE_MS, LONG_WORK_BYTES, MAX_ATTEMPTS, RETRY_MS, TERMINAL, cleanupJob, failJob, outcomeOf, pause } from './job';
import { stagePiece } from './staging';
import { switchIn } from './switch';
import { expirePreviews, holdForPreview } from './preview';

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
  const scope = await scopeOf(deps.db, job.tenantId);
  const started = Date.now();
  try {
    for (;;) {
      let next: ImportJob | null;
      try {
        // A dry run stops before the switch, as a preview (decision 0043); its run switches it in.
        next =
          job.status !== 'switching'
            ? await stagePiece(deps, scope, job)
            : job.dryRun && job.previewedAt === null
              ? await holdForPreview(deps, scope, job)
              : await switchIn(deps, scope, job);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        next = await failJob(deps, scope, job, e);
      }
      if (!next) return 'busy'; // lost the lease
      job = next;
      // Its staged rows wait for the run (or the sweep's expiry).
      if (job.status === 'previewed') return job.status;
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
    if (final) await failJob(deps, scope, job, new AppError('server-error'));
    else await deps.db.update(importJobs).set({ lockedUntil: deps.clock.now() + RETRY_MS, lastError: String(e).slice(0, 500) }).where(eq(importJobs.id, job.id));
    (final ? console.error : console.warn)(JSON.stringify({ level: final ? 'error' : 'warn', msg: final ? 'import job gave up' : 'import job step failed; will retry', jobId, error: String(e) }));
    return final ? 'failed' : job.status;
  }
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
  for (const job of stale) await failJob(deps, await scopeOf(deps.db, job.tenantId), job, new AppError('upload-failed'));
  const due = await db
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(and(inArray(importJobs.status, ['queued', 'processing', 'switching']), or(isNull(importJobs.lockedUntil), lt(importJobs.lockedUntil, now))))
    .orderBy(asc(importJobs.id))
    .limit(limit);
  for (const { id } of due) await run(id);
  await expirePreviews(deps, (tenantId) => scopeOf(deps.db, tenantId), limit);
  const unclean = await db
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(and(inArray(importJobs.status, ['success', 'failed']), isNull(importJobs.cleanedAt), or(isNull(importJobs.lockedUntil), lt(importJobs.lockedUntil, now))))
    .limit(limit);
  for (const { id } of unclean) await cleanupJob(deps, id);
  return due.length;
}

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
