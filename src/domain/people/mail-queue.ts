// The throttled mail queue (docs/decisions/0012-people-administration.md): bulk invitations and
// CSV imports queue rows; each drain sends at most MAIL_QUEUE_BATCH of them. Drains run after the
// request that queued (waitUntil on Workers, a detached promise on Node), every minute from the
// Workers cron and every 10 s from the Node timer, so a 10,000-user import reaches the SMTP
// server at a steady rate instead of all at once.
import { and, asc, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { mailQueue, tenants, tenantUsers, users } from '../../db/schema';
import { sendInvitation } from '../auth/registration';
import { sendAddedToTenant } from './users';

const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;

/**
 * Sends the pending mail of one member now (a single add or an email change answers with its
 * invitation already sent); a failure leaves the row queued for the sweep.
 */
export async function sendPendingMailOf(deps: Deps, tenantId: number, userId: number): Promise<void> {
  const rows = await deps.db
    .select({ id: mailQueue.id })
    .from(mailQueue)
    .where(and(eq(mailQueue.userId, userId), eq(mailQueue.tenantId, tenantId), eq(mailQueue.status, 'pending')));
  if (rows.length) await drainMailQueue(deps, { ids: rows.map((r) => r.id) });
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
    .orderBy(asc(mailQueue.id))
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
