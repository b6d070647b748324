// Deleting a member (DELETE admin/users/{id}): a durable job. The request marks the member
// "deleting" and writes the job row in one batch; the work (telling the apps, then removing the
// membership, and the user when no other tenant holds them) runs in the background and is
// idempotent, so a restart mid-deletion is finished by the sweep (resumeDeletionJobs), which the
// Workers cron and the Node timer call. See docs/decisions/0012-people-administration.md.
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { additionalDepartments, backgroundJobs, mailQueue, sessions, tenants, tenantUsers, users } from '../../db/schema';
import { auditInsert } from '../audit/log';
import { AppError } from '../errors';
import { activeAdminCount, adminGuard, findMember, isGuardFailure } from './members';
import type { PeopleActor } from './users';
import { tenantScope, type TenantScope } from '../tenants/scope';
import { rawStatement } from '../../db/client';

const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 10;

/** Marks the member deleting and records the job; an existing job for the member is reused. */
export async function startUserDeletion(deps: Deps, scope: TenantScope, userId: number, actor: PeopleActor): Promise<number> {
  const { db, clock } = deps;
  const { member } = await findMember(scope, userId);
  if (member.operationStatus === 'deleting') {
    const job = await db
      .select({ id: backgroundJobs.id })
      .from(backgroundJobs)
      .where(and(eq(backgroundJobs.kind, 'delete_user'), eq(backgroundJobs.targetId, member.id), eq(backgroundJobs.status, 'pending')))
      .get();
    if (job) return job.id;
  }
  // A pending invitation never counted as an admin: cancelling it is always possible.
  const countedAdmin = member.isAdmin && member.deactivatedAt === null && !member.invitationPending;
  if (countedAdmin && (await activeAdminCount(scope)) <= 1) {
    throw new AppError('cannot-delete-last-admin');
  }
  const now = clock.now();
  try {
    const [, , inserted] = await db.batch([
      db.update(tenantUsers).set({ operationStatus: 'deleting', updatedAt: now }).where(eq(tenantUsers.id, member.id)),
      db.delete(sessions).where(and(eq(sessions.userId, userId), scope.own(sessions))),
      scope.insert(backgroundJobs, { kind: 'delete_user', targetId: member.id, actorUserId: actor.userId, createdAt: now }).returning({ id: backgroundJobs.id }),
      auditInsert(db, { tenantId: scope.id, actorUserId: actor.userId, action: 'user.deletion_started', targetType: 'user', targetId: userId, ipAddress: actor.ip, userAgent: actor.userAgent }, now),
      ...(countedAdmin ? [adminGuard(scope)] : []),
    ]);
    return inserted[0]!.id;
  } catch (e) {
    if (isGuardFailure(e)) throw new AppError('cannot-delete-last-admin');
    throw e;
  }
}

/** Runs one job if it can claim it; true when the job is done (now or before). */
export async function runDeletionJob(deps: Deps, jobId: number): Promise<boolean> {
  const { db, clock } = deps;
  const now = clock.now();
  const job = await db
    .update(backgroundJobs)
    .set({ lockedUntil: now + LEASE_MS, attempts: sql`${backgroundJobs.attempts} + 1` })
    .where(and(eq(backgroundJobs.id, jobId), eq(backgroundJobs.status, 'pending'), or(isNull(backgroundJobs.lockedUntil), lt(backgroundJobs.lockedUntil, now))))
    .returning()
    .get();
  if (!job) {
    const current = await db.select({ status: backgroundJobs.status }).from(backgroundJobs).where(eq(backgroundJobs.id, jobId)).get();
    return current?.status === 'done';
  }
  try {
    const row = await db
      .select({ member: tenantUsers, user: users, tenant: tenants })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
      .where(eq(tenantUsers.id, job.targetId))
      .get();
    if (row) {
      const scope = tenantScope(db, row.tenant);
      const apps: ('meishi' | 'scheduler')[] = [];
      if (row.member.meishiAccessGrantedAt !== null) apps.push('meishi');
      if (row.member.schedulerAccessGrantedAt !== null) apps.push('scheduler');
      // The apps first: if this fails the membership is still here and the job retries.
      if (deps.appUsage && apps.length) {
        await deps.appUsage.userRemoved({ tenantId: scope.id, tenantInitialSubdomain: row.tenant.initialSubdomain, userId: row.user.id, email: row.user.email }, apps);
      }
      const done = clock.now();
      await db.batch([
        scope.delete(additionalDepartments, eq(additionalDepartments.tenantUserId, row.member.id)),
        scope.delete(sessions, eq(sessions.userId, row.user.id)),
        scope.delete(mailQueue, eq(mailQueue.userId, row.user.id)),
        scope.delete(tenantUsers, eq(tenantUsers.id, row.member.id)),
        // The identity goes too when no tenant holds it any more (staff accounts stay).
        rawStatement(db, sql`DELETE FROM users WHERE id = ${row.user.id} AND is_tenant_manager = 0
          AND NOT EXISTS (SELECT 1 FROM tenant_users WHERE user_id = ${row.user.id})`),
        db.update(backgroundJobs).set({ status: 'done', finishedAt: done, lockedUntil: null }).where(eq(backgroundJobs.id, job.id)),
        auditInsert(db, { tenantId: scope.id, actorUserId: job.actorUserId, actorName: job.actorName, action: 'user.deleted', targetType: 'user', targetId: row.user.id, details: { email: row.user.email } }, done),
      ]);
    } else {
      await db.update(backgroundJobs).set({ status: 'done', finishedAt: clock.now(), lockedUntil: null }).where(eq(backgroundJobs.id, job.id));
    }
    return true;
  } catch (e) {
    await db
      .update(backgroundJobs)
      .set({
        status: job.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        // Retry after a short pause (the lease is shortened to 30 s).
        lockedUntil: clock.now() + 30_000,
        lastError: String(e).slice(0, 500),
      })
      .where(eq(backgroundJobs.id, job.id));
    // A retry is routine (an app was briefly down); giving up is an error someone must look at.
    const final = job.attempts >= MAX_ATTEMPTS;
    (final ? console.error : console.warn)(JSON.stringify({ level: final ? 'error' : 'warn', msg: final ? 'user deletion gave up' : 'user deletion failed; will retry', jobId: job.id, error: String(e) }));
    return false;
  }
}

/** The sweep: finishes deletion jobs left unfinished (restart, evicted isolate, app outage). */
export async function resumeDeletionJobs(deps: Deps, limit = 20): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .select({ id: backgroundJobs.id })
    .from(backgroundJobs)
    .where(and(eq(backgroundJobs.kind, 'delete_user'), eq(backgroundJobs.status, 'pending'), or(isNull(backgroundJobs.lockedUntil), lt(backgroundJobs.lockedUntil, now))))
    .orderBy(asc(backgroundJobs.id))
    .limit(limit);
  let done = 0;
  for (const { id } of due) if (await runDeletionJob(deps, id)) done++;
  return done;
}
