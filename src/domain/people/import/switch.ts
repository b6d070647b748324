// Phase 3 of a CSV import (decision 0030): when every row is valid, the staged rows go into the
// real tables in one batch (INSERT ... SELECT from the staging table; the import log and the
// job's state flip with it), guarded for seats and the last admin; otherwise nothing changes.
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../../deps';
import type { SqlStatement } from '../../../db/client';
import { importJobs, importLogs } from '../../../db/schema';
import type { ImportRowError, ManagedApp } from '../../../shared/people/schemas';
import { actorSnapshot } from '../../audit/log';
import { AppError, isUniqueViolation } from '../../errors';
import { activeAdminCount, adminGuard, assertSeats, isGuardFailure, seatGuard } from '../members';
import { type ImportJob, SWITCH_ROWS, workOf } from './job';
import type { TenantScope } from '../../tenants/scope';
import { rawStatement } from '../../../db/client';

/** A row the switch refuses, as the import call answers it. */
const invalid = (line: number, column: ImportRowError['column'], error: string) => new AppError('invalid-csv', { rows: [{ row: line, column, error }] });

/**
 * Checks the staged rows against the tenant as it is now (the file may have taken minutes, and
 * other admins may have acted meanwhile) for clear errors; the batch's guards close the races.
 */
export async function checkBeforeSwitch(deps: Deps, scope: TenantScope, job: ImportJob): Promise<Record<ManagedApp, number>> {
  const { db } = deps;
  const T = scope.id;
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
    if (demoted > 0 && (await activeAdminCount(scope)) - demoted + Number(row?.promoted ?? 0) <= 0) {
      throw invalid(Number(row!.firstDemoted), 'is_admin', 'lastAdmin');
    }
  }
  await assertSeats(scope, { meishi: Math.max(0, extra.meishi), scheduler: Math.max(0, extra.scheduler) });
  return extra;
}

/** The one step that changes the tenant: every staged row, or none. */
export async function switchIn(deps: Deps, scope: TenantScope, job: ImportJob): Promise<ImportJob | null> {
  const { db, clock } = deps;
  const extra = await checkBeforeSwitch(deps, scope, job);
  const T = scope.id;
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
        rawStatement(db, sql`INSERT INTO tenant_users (tenant_id, user_id, is_admin, department_id, name_reading, invited_at, invitation_pending,
            meishi_access_granted_at, scheduler_access_granted_at, created_at, updated_at)
          SELECT ${T}, u.id, r.is_admin, r.department_id, nullif(r.name_reading, ''), ${now},
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
        // The reading changes only when the file has its column (null: no column; '': cleared).
        rawStatement(db, sql`UPDATE tenant_users SET is_admin = r.is_admin, department_id = r.department_id,
            name_reading = CASE WHEN r.name_reading IS NULL THEN tenant_users.name_reading ELSE nullif(r.name_reading, '') END,
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
    scope.update(importLogs, { status: 'success', numberOfUsersUpdated: count, endTime: now }, eq(importLogs.id, job.importLogId ?? -1)),
  );
  if (extra.meishi > 0 || extra.scheduler > 0) statements.push(seatGuard(scope));
  if (job.kind === 'update') statements.push(adminGuard(scope));
  try {
    // Seconds for a large file (see LONG_WORK_BYTES).
    await work.batch(statements);
  } catch (e) {
    if (isGuardFailure(e)) {
      // The lease check, seats or the last admin: tell which (the lease one ends this runner).
      const current = await db.select({ status: importJobs.status, token: importJobs.leaseToken }).from(importJobs).where(eq(importJobs.id, J)).get();
      if (current?.token !== job.leaseToken || current?.status !== 'switching') return null;
      await assertSeats(scope, { meishi: Math.max(0, extra.meishi), scheduler: Math.max(0, extra.scheduler) });
      throw new AppError('invalid-csv', { rows: [{ row: 1, column: 'is_admin', error: 'lastAdmin' }] });
    }
    if (isUniqueViolation(e, 'tenant_users')) throw new AppError('invalid-csv', { rows: [{ row: 1, column: 'email', error: 'alreadyMember' }] });
    throw e;
  }
  return { ...job, status: 'success', importedRows: count, lockedUntil: null, finishedAt: now, updatedAt: now };
}
