// Fixed-window counters in the database (never process memory: Workers isolates share nothing).
// Each hit is one atomic upsert, so concurrent requests cannot slip past the limit.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { throttles } from '../../db/schema';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

/** Seconds until the key may be used again, or 0 when it is under its limit. */
export async function retryAfter(db: Db, limit: Limit, now: number): Promise<number> {
  const row = await db.select().from(throttles).where(eq(throttles.key, limit.key)).get();
  if (!row || row.resetAt <= now || row.hits < limit.max) return 0;
  return Math.max(1, Math.ceil((row.resetAt - now) / 1000));
}

/** Counts one event; returns the hits in the current window. */
export async function hit(db: Db, limit: Limit, now: number): Promise<number> {
  const resetAt = now + limit.windowMs;
  const row = await db
    .insert(throttles)
    .values({ key: limit.key, hits: 1, resetAt })
    .onConflictDoUpdate({
      target: throttles.key,
      set: {
        hits: sql`case when ${throttles.resetAt} <= ${now} then 1 else ${throttles.hits} + 1 end`,
        resetAt: sql`case when ${throttles.resetAt} <= ${now} then ${resetAt} else ${throttles.resetAt} end`,
      },
    })
    .returning({ hits: throttles.hits })
    .get();
  return row?.hits ?? 1;
}

export async function clear(db: Db, key: string): Promise<void> {
  await db.delete(throttles).where(eq(throttles.key, key));
}

/** The longest wait among several limits (0 = none exceeded). */
export async function longestRetryAfter(db: Db, limits: Limit[], now: number): Promise<number> {
  const waits = await Promise.all(limits.map((l) => retryAfter(db, l, now)));
  return Math.max(0, ...waits);
}
