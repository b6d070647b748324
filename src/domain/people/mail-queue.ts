// The throttled mail queue (docs/decisions/0012-people-administration.md): bulk invitations and
// CSV imports queue rows; each drain sends at most MAIL_QUEUE_BATCH of them. Drains run after the
// request that queued (waitUntil on Workers, a detached promise on Node), every minute from the
// Workers cron and every 10 s from the Node timer, so a 10,000-user import reaches the SMTP
// server at a steady rate instead of all at once. Mail for chosen people (one added, a resend to
// a few) skips the line: `sendPendingMailOf` sends their rows in the request.
import { and, asc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { mailQueue, tenants, tenantUsers, users } from '../../db/schema';
import { sendInvitation } from '../account/registration';
import { sendAddedToTenant } from './users';
import type { TenantScope } from '../tenants/scope';

const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;

/** Ids per statement: D1 binds at most 100 values in one. */
const IDS_PER_STATEMENT = 90;
const chunks = <T>(list: T[]) => Array.from({ length: Math.ceil(list.length / IDS_PER_STATEMENT) }, (_, i) => list.slice(i * IDS_PER_STATEMENT, (i + 1) * IDS_PER_STATEMENT));

/**
 * Sends the pending mail of chosen members now, ahead of the queue's older rows (a single add, an
 * email change, or a resend to chosen people answers with the mail already sent, decision 0037).
 * It goes through their queue rows and the same compare-and-set claim as a drain, so a failure
 * leaves the row for the sweep and parallel calls send each row once. At most MAIL_QUEUE_BATCH
 * rows per call (no request sends more than a drain would); the rest wait in the queue.
 */
export async function sendPendingMailOf(deps: Deps, scope: TenantScope, userIds: number | number[]): Promise<number> {
  const ids: number[] = [];
  for (const part of chunks([...new Set(Array.isArray(userIds) ? userIds : [userIds])])) {
    const rows = await deps.db
      .select({ id: mailQueue.id })
      .from(mailQueue)
      .where(and(inArray(mailQueue.userId, part), scope.own(mailQueue), eq(mailQueue.status, 'pending')));
    ids.push(...rows.map((r) => r.id));
  }
  let sent = 0;
  let room = deps.config.MAIL_QUEUE_BATCH;
  for (const part of chunks(ids.sort((a, b) => a - b))) {
    if (room <= 0) break;
    const batch = part.slice(0, room);
    room -= batch.length;
    sent += await drainMailQueue(deps, { ids: batch, limit: batch.length });
  }
  return sent;
}

/** Sends up to `limit` due rows (or only `ids`); returns how many were sent. */
export async function drainMailQueue(deps: Deps, opts: { limit?: number; ids?: number[] } = {}): Promise<number> {
  const { db, clock } = deps;
  const now = clock.now();
  const limit = opts.limit ?? deps.config.MAIL_QUEUE_BATCH;
  const due = await db
    .select({ id: mailQueue.id })
    .from(mailQueue)
    .where(
      and(
        eq(mailQueue.status, 'pending'),
        lte(mailQueue.availableAt, now),
        or(isNull(mailQueue.lockedUntil), lt(mailQueue.lockedUntil, now)),
        opts.ids ? inArray(mailQueue.id, opts.ids) : undefined,
      ),
    )
    // Oldest due first, in the order of the (status, available_at) index: ordered by id alone,
    // SQLite sorted every due row first (223 ms on the event loop with the million invitations a
    // 50 MB import queues); this way it reads `limit` rows of the index and stops.
    .orderBy(asc(mailQueue.availableAt), asc(mailQueue.id))
    .limit(limit);
  let sent = 0;
  for (const { id } of due) {
    // Claim by compare-and-set: another drainer that read the same row gets no row back.
    const claimed = await db
      .update(mailQueue)
      .set({ lockedUntil: now + LEASE_MS })
      .where(and(eq(mailQueue.id, id), eq(mailQueue.status, 'pending'), or(isNull(mailQueue.lockedUntil), lt(mailQueue.lockedUntil, now))))
      .returning()
      .get();
    if (!claimed) continue;
    try {
      const row = await db
        .select({ user: users, tenant: tenants, member: tenantUsers })
        .from(users)
        // The queue drains every tenant's rows: each row names its own tenant.
        // eslint-disable-next-line no-restricted-syntax
        .innerJoin(tenantUsers, and(eq(tenantUsers.userId, users.id), eq(tenantUsers.tenantId, claimed.tenantId!)))
        .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
        .where(eq(users.id, claimed.userId))
        .get();
      // Nothing is sent (the row is done) when the member left or was deactivated meanwhile, or,
      // for an invitation, has registered meanwhile.
      const member = row && row.member.deactivatedAt === null && row.member.operationStatus === null;
      if (member && claimed.kind === 'added') {
        await sendAddedToTenant(deps, row.user, row.tenant);
        sent++;
      } else if (member && claimed.kind === 'invitation' && row.user.passwordHash === null) {
        await sendInvitation(deps, row.user, row.tenant);
        sent++;
      }
      await db.update(mailQueue).set({ status: 'sent', sentAt: clock.now(), lockedUntil: null }).where(eq(mailQueue.id, id));
    } catch (e) {
      const attempts = claimed.attempts + 1;
      await db
        .update(mailQueue)
        .set({
          attempts,
          status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
          // Back off 1, 2, 4, 8 minutes.
          availableAt: clock.now() + 60_000 * 2 ** (attempts - 1),
          lockedUntil: null,
          lastError: String(e).slice(0, 500),
        })
        .where(eq(mailQueue.id, id));
    }
  }
  return sent;
}
