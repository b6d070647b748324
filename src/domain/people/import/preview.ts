// The import dry-run (issue 26, decision 0043). A job posted with `?preview=1` stages and checks
// every row like any import (decision 0030), runs the switch's checks against the tenant as it is,
// and then waits as `previewed` instead of switching in: its staged rows ARE the preview, so
// running it applies exactly what was shown. The run refuses when a member or account the file
// touches changed after the preview (decided by the statement that starts the run), and only one
// of parallel runs starts it.
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../../deps';
import { importJobs } from '../../../db/schema';
import { IMPORT_DIFF_ROWS, type ImportDiff, type ImportDiffField } from '../../../shared/people/schemas';
import { AppError } from '../../errors';
import type { TenantScope } from '../../tenants/scope';
import { failJob, type ImportJob } from './job';
import { checkBeforeSwitch } from './switch';

/** A preview not run within this long expires (the sweep fails it and frees its staged rows). */
export const PREVIEW_TTL_MS = 60 * 60_000;

/** The runner's step for a dry run whose rows are all staged: check, then wait for the run. */
export async function holdForPreview(deps: Deps, scope: TenantScope, job: ImportJob): Promise<ImportJob | null> {
  await checkBeforeSwitch(deps, scope, job);
  const now = deps.clock.now();
  const held = await deps.db
    .update(importJobs)
    .set({ status: 'previewed', previewedAt: now, lockedUntil: null, updatedAt: now })
    .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'switching'), eq(importJobs.leaseToken, job.leaseToken!)))
    .returning()
    .get();
  return held ?? null;
}

async function ownPreviewed(deps: Deps, scope: TenantScope, userId: number, jobId: number): Promise<ImportJob> {
  const job = await deps.db.select().from(importJobs).where(and(eq(importJobs.id, jobId), scope.own(importJobs), eq(importJobs.userId, userId))).get();
  if (!job) throw new AppError('not-found');
  if (job.status !== 'previewed') throw new AppError('import-not-previewed');
  return job;
}

/**
 * Starts the run of a previewed job: one statement flips it to `switching` only while it is
 * still previewed (parallel runs: one wins) and nothing the file touches changed since the
 * preview (a member or account updated, an address that became someone's account).
 */
export async function startPreviewedRun(deps: Deps, scope: TenantScope, userId: number, jobId: number): Promise<ImportJob> {
  const job = await ownPreviewed(deps, scope, userId, jobId);
  const T = scope.id;
  const P = sql`${importJobs.previewedAt}`;
  const untouched =
    job.kind === 'update'
      ? sql`NOT EXISTS (SELECT 1 FROM import_rows r CROSS JOIN tenant_users tu ON tu.id = r.tenant_user_id CROSS JOIN users u ON u.id = r.user_id
          WHERE r.job_id = ${job.id} AND (tu.updated_at > ${P} OR u.updated_at > ${P}))`
      : sql`NOT EXISTS (SELECT 1 FROM import_rows r CROSS JOIN users u ON u.email = r.email
          WHERE r.job_id = ${job.id} AND (u.updated_at > ${P} OR EXISTS (SELECT 1 FROM tenant_users tu WHERE tu.user_id = u.id AND tu.tenant_id = ${T})))`;
  const now = deps.clock.now();
  const started = await deps.db
    .update(importJobs)
    .set({ status: 'switching', lockedUntil: null, updatedAt: now })
    .where(and(eq(importJobs.id, job.id), eq(importJobs.status, 'previewed'), untouched))
    .returning()
    .get();
  if (started) return started;
  const current = await deps.db.select({ status: importJobs.status }).from(importJobs).where(eq(importJobs.id, job.id)).get();
  if (current?.status !== 'previewed') throw new AppError('import-not-previewed');
  // Stale: the job ends, its staged rows go; the admin previews the file again.
  await failJob(deps, scope, job, new AppError('import-target-changed'));
  throw new AppError('import-target-changed');
}

interface DiffRow {
  line: number;
  email: string;
  name: string;
  department_id: number | null;
  extra: string;
  meishi: number;
  scheduler: number;
  is_admin: number;
  /** The file's reading: null when the file has no reading column (left as it is), '' to clear (decision 0045). */
  name_reading: string | null;
  // update: the member now; add: whether the address is someone's account already
  old_name: string | null;
  old_reading: string | null;
  old_department_id: number | null;
  old_extra: string | null;
  old_meishi: number | null;
  old_scheduler: number | null;
  old_admin: number | null;
  existing: number | null;
}

/** What running the previewed job would do: the staged rows against the tenant as it is now. */
export async function importDiff(deps: Deps, scope: TenantScope, userId: number, jobId: number): Promise<ImportDiff> {
  const job = await ownPreviewed(deps, scope, userId, jobId);
  const T = scope.id;
  const [rows, depts] = await Promise.all([
    job.kind === 'update'
      ? deps.db.all<DiffRow>(sql`SELECT r.line, r.email, r.name, r.department_id, r.extra, r.meishi, r.scheduler, r.is_admin, r.name_reading,
          coalesce(tu.display_name, u.name) AS old_name, tu.name_reading AS old_reading, tu.department_id AS old_department_id,
          (SELECT json_group_array(ad.department_id) FROM additional_departments ad WHERE ad.tenant_user_id = tu.id AND ad.tenant_id = ${T}) AS old_extra,
          tu.meishi_access_granted_at IS NOT NULL AS old_meishi, tu.scheduler_access_granted_at IS NOT NULL AS old_scheduler, tu.is_admin AS old_admin, 1 AS existing
        FROM import_rows r CROSS JOIN tenant_users tu ON tu.id = r.tenant_user_id AND tu.tenant_id = ${T} CROSS JOIN users u ON u.id = r.user_id
        WHERE r.job_id = ${job.id} AND r.valid = 1 ORDER BY r.line`)
      : deps.db.all<DiffRow>(sql`SELECT r.line, r.email, r.name, r.department_id, r.extra, r.meishi, r.scheduler, r.is_admin,
          (u.password_hash IS NOT NULL OR u.is_tenant_manager OR EXISTS (SELECT 1 FROM tenant_users o WHERE o.user_id = u.id AND o.tenant_id <> ${T})) AS existing
        FROM import_rows r LEFT JOIN users u ON u.email = r.email WHERE r.job_id = ${job.id} AND r.valid = 1 ORDER BY r.line`),
    deps.db.all<{ id: number; name: string }>(sql`SELECT id, name FROM departments WHERE tenant_id = ${T}`),
  ]);
  const deptName = new Map(depts.map((d) => [Number(d.id), d.name]));
  const named = (id: number | null) => (id === null ? null : (deptName.get(Number(id)) ?? null));
  const namesOf = (json: string | null) => ((JSON.parse(json ?? '[]') as (number | null)[]).filter((x): x is number => x !== null).map((id) => named(id) ?? '').sort());
  const diff: ImportDiff = {
    jobId: job.id,
    kind: job.kind,
    filename: job.filename,
    counts: { rows: rows.length, added: 0, invited: 0, changed: 0, unchanged: 0, deactivated: 0, errors: 0 },
    added: [],
    changed: [],
    truncated: false,
  };
  for (const r of rows) {
    if (job.kind === 'add') {
      const invited = Boolean(r.existing);
      diff.counts.added++;
      if (invited) diff.counts.invited++;
      if (diff.added.length < IMPORT_DIFF_ROWS) {
        diff.added.push({ line: r.line, email: r.email, name: r.name, department: named(r.department_id), additional_departments: namesOf(r.extra), meishi: Boolean(r.meishi), scheduler: Boolean(r.scheduler), is_admin: Boolean(r.is_admin), invited });
      } else diff.truncated = true;
      continue;
    }
    const changes: ImportDiff['changed'][number]['changes'] = [];
    const field = (f: ImportDiffField, before: string | boolean | string[] | null, after: string | boolean | string[] | null) => {
      if (JSON.stringify(before) !== JSON.stringify(after)) changes.push({ field: f, before, after });
    };
    field('name', r.old_name, r.name);
    // As the switch applies it: no column leaves the reading, an empty cell clears it.
    if (r.name_reading !== null) field('name_reading', r.old_reading, r.name_reading === '' ? null : r.name_reading);
    field('department', named(r.old_department_id), named(r.department_id));
    field('additional_departments', namesOf(r.old_extra), namesOf(r.extra));
    field('meishi', Boolean(r.old_meishi), Boolean(r.meishi));
    field('scheduler', Boolean(r.old_scheduler), Boolean(r.scheduler));
    field('is_admin', Boolean(r.old_admin), Boolean(r.is_admin));
    if (changes.length === 0) {
      diff.counts.unchanged++;
      continue;
    }
    diff.counts.changed++;
    if (diff.changed.length < IMPORT_DIFF_ROWS) diff.changed.push({ line: r.line, email: r.email, name: r.name, changes });
    else diff.truncated = true;
  }
  return diff;
}

/** The sweep's part: previews nobody ran within PREVIEW_TTL_MS end, and free their staged rows. */
export async function expirePreviews(deps: Deps, scopeOf: (tenantId: number) => Promise<TenantScope>, limit = 5): Promise<number> {
  const old = await deps.db
    .select()
    .from(importJobs)
    .where(and(eq(importJobs.status, 'previewed'), sql`${importJobs.previewedAt} < ${deps.clock.now() - PREVIEW_TTL_MS}`))
    .limit(limit);
  for (const job of old) await failJob(deps, await scopeOf(job.tenantId), job, new AppError('import-not-previewed'));
  return old.length;
}
