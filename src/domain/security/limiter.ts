// Limits that hold under concurrency (docs/decisions/0026-one-way-in-and-reserved-limits.md).
// Reserve first: one atomic upsert counts the attempt *before* the work and returns the count, so
// N parallel requests see N distinct counts and only those within the limit do the work. Success
// then clears the counter (a lock-out that only failures should build) or refunds the one
// attempt (a budget that successes should not spend). Fixed windows, rows in the database:
// Workers isolates share no memory, and one statement is atomic on D1 and libSQL alike.
import { and, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { BatchRead, Db } from '../../db/client';
import { throttles } from '../../db/schema';
import { AppError } from '../errors';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
  /**
   * Count the attempt here only while this other limit, reserved before it in the same call, is
   * within its maximum: attempts an inner limit already refuses do not spend the outer budget
   * (one client locked out by its own key cannot lock out its neighbours).
   */
  onlyWithin?: Limit;
  /**
   * A key decided inside the counting statement: `key` when `when` holds, this limit's own key
   * otherwise (the password login's per-account bucket, which a browser the account knows gets
   * to itself, decided in the same batch that reads the account). Not with `onlyWithin`.
   */
  choose?: { when: SQL; key: SQL | string };
}

/** The limits as counted: each with the key its statement chose. */
export type Reserved = Limit[];

export type LimitCode = 'too-many-attempts' | 'locked-out' | 'Too Many Attempts.';

function reserveStatement(db: Db, limit: Limit, now: number, when?: SQL) {
  const resetAt = now + limit.windowMs;
  const gate = limit.onlyWithin;
  const key = limit.choose ? sql`case when ${limit.choose.when} then ${limit.choose.key} else ${limit.key} end` : limit.key;
  // The gate is read inside the same statement (after the earlier statement of the batch wrote
  // it), so no request can slip between the check and the count. SQLite needs the WHERE for an
  // upsert from a SELECT.
  const conditions = [
    ...(gate ? [sql`(select g.hits from throttles g where g.key = ${gate.key}) <= ${gate.max}`] : []),
    ...(when ? [when] : []),
  ];
  const insert = conditions.length
    ? db.insert(throttles).select(sql`select ${key}, 1, ${resetAt} where ${sql.join(conditions, sql` and `)}`)
    : db.insert(throttles).values({ key, hits: 1, resetAt });
  return insert
    .onConflictDoUpdate({
      target: throttles.key,
      set: {
        hits: sql`case when ${throttles.resetAt} <= ${now} then 1 else ${throttles.hits} + 1 end`,
        resetAt: sql`case when ${throttles.resetAt} <= ${now} then ${resetAt} else ${throttles.resetAt} end`,
      },
    })
    .returning({ key: throttles.key, hits: throttles.hits, resetAt: throttles.resetAt });
}

/** The counting statements of `reserve`, to go in a batch with other reads (see `reserved`). */
export function reserveStatements(db: Db, limits: [Limit, ...Limit[]], now: number): [BatchRead, ...BatchRead[]] {
  const [first, ...rest] = limits.map((l) => reserveStatement(db, l, now));
  return [first!, ...rest];
}

/**
 * Reads the counts `reserveStatements` returned: throws `code` (429, with the seconds to wait)
 * when any limit is now over its maximum, else answers the limits with the keys counted.
 */
export function reserved(limits: Limit[], results: unknown[], now: number, code: LimitCode = 'too-many-attempts'): Reserved {
  let wait = 0;
  const counted = limits.map((limit, i) => {
    const row = (results[i] as { key: string; hits: number; resetAt: number }[])[0];
    if (row && row.hits > limit.max) wait = Math.max(wait, Math.max(1, Math.ceil((row.resetAt - now) / 1000)));
    return row ? { ...limit, key: row.key, choose: undefined } : limit;
  });
  if (wait > 0) throw new AppError(code, { duration: wait });
  return counted;
}

/**
 * Counts one attempt against every limit (one batch: one round trip, atomic per statement) and
 * throws `code` (429, with the seconds to wait) when any of them is now over its maximum. The
 * caller does its work only after this returns. A limit with `onlyWithin` must come after the
 * limit it names.
 */
export async function reserve(db: Db, limits: Limit[], now: number, code: LimitCode = 'too-many-attempts'): Promise<Reserved> {
  if (limits.length === 0) return [];
  const results = await db.batch(reserveStatements(db, limits as [Limit, ...Limit[]], now));
  return reserved(limits, results, now, code);
}

/** The statement that gives back one reserved attempt of each limit (to batch with other writes). */
export function refundStatement(db: Db, limits: [Limit, ...Limit[]], now: number) {
  return db
    .update(throttles)
    .set({ hits: sql`max(${throttles.hits} - 1, 0)` })
    .where(and(inArray(throttles.key, limits.map((l) => l.key)), gt(throttles.resetAt, now)));
}

/** The statement that forgets the counters (to batch with other writes). */
export function clearStatement(db: Db, limits: [Limit, ...Limit[]]) {
  return db.delete(throttles).where(limits.length === 1 ? eq(throttles.key, limits[0].key) : inArray(throttles.key, limits.map((l) => l.key)));
}

/** Gives back one reserved attempt (the work succeeded and should not spend the budget). */
export async function refund(db: Db, limits: Limit[], now: number): Promise<void> {
  if (limits.length > 0) await refundStatement(db, limits as [Limit, ...Limit[]], now);
}

/** Forgets the counters (a success ends a run of failures). */
export async function clear(db: Db, limits: Limit[]): Promise<void> {
  if (limits.length > 0) await clearStatement(db, limits as [Limit, ...Limit[]]);
}

/**
 * The statement that counts one attempt against `limit` only when `when` holds, read inside the
 * same statement (for a batch that also does the check itself: attempts that fail cost, ones that
 * pass do not, with nothing between the check and the count; SCIM tokens, decision 0040). Returns
 * the count when it counted. Its `onlyWithin` is honoured as in `reserve`.
 */
export function reserveWhenStatement(db: Db, limit: Limit, now: number, when: SQL) {
  return reserveStatement(db, limit, now, when);
}

/** The statement that reads the hits of these limits within their current windows (rows of key, hits, resetAt). */
export function hitsStatement(db: Db, limits: [Limit, ...Limit[]], now: number) {
  return db
    .select({ key: throttles.key, hits: throttles.hits, resetAt: throttles.resetAt })
    .from(throttles)
    .where(and(inArray(throttles.key, limits.map((l) => l.key)), gt(throttles.resetAt, now)));
}

/** Seconds to wait when any of `limits` is over its maximum in `rows` (from hitsStatement), else 0. */
export function waitFor(limits: Limit[], rows: { key: string; hits: number; resetAt: number }[], now: number): number {
  let wait = 0;
  for (const row of rows) {
    const limit = limits.find((l) => l.key === row.key);
    if (limit && row.hits > limit.max) wait = Math.max(wait, Math.max(1, Math.ceil((row.resetAt - now) / 1000)));
  }
  return wait;
}
