// A long batch (an import's switch) on the Node file driver runs on a connection and thread of
// its own: other requests are answered while it runs, writes wait for its lock without holding
// the event loop, and it is still all or nothing (decision 0031).
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { longBatch, longGet, type SqlStatement } from '../../src/db/client';
import { isGuardFailure } from '../../src/domain/people/members';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
afterEach(() => h?.close());

const ACME = 'acme.localhost:8787';
const stmt = (text: string, params: unknown[] = []): { toSQL(): SqlStatement } => ({ toSQL: () => ({ sql: text, params }) });
// Seconds of work for SQLite in one statement (three million rows).
const SLOW_CTE = stmt(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) INSERT INTO scratch (x) SELECT x FROM c`);

async function scratchRows(): Promise<number | null> {
  try {
    const row = await h.deps.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM scratch`);
    return Number(row?.n);
  } catch {
    return null; // no such table: nothing of the batch was applied
  }
}

describe.skipIf(process.env.DB_DRIVER === 'libsql-client')('a long batch on the file driver', () => {
  it('reads are answered and writes complete while it runs; its rows appear all at once', async () => {
    h = await createHarness();
    const b = h.client(ACME);
    expect((await b.login('admin@acme.test')).body.message).toBe('success');
    let settled = false;
    const running = longBatch(h.deps.db, [stmt('CREATE TABLE scratch (x INTEGER)'), SLOW_CTE]).finally(() => {
      settled = true;
    });
    // The event loop is free: a signed-in read answers before the batch ends, and sees none of it.
    const read = await b.get('/accounts/api/user');
    expect(read.status).toBe(200);
    expect(settled).toBe(false);
    expect(await scratchRows()).toBeNull();
    // A write (a sign-in records a session) waits for the batch's lock without failing.
    const other = h.client(ACME, { otherBrowser: true });
    const login = await other.login('user@acme.test');
    expect(login.body.message).toBe('success');
    await running;
    expect(await scratchRows()).toBe(3_000_000);
  });

  it('while it holds the lock, a session seen by many requests is touched once, after it', async () => {
    h = await createHarness();
    const b = h.client(ACME);
    expect((await b.login('admin@acme.test')).body.message).toBe('success');
    h.clock.advance(5 * 60_000); // the session's activity is due to be recorded
    // Rows this process's connection changed: a touch changes two (the session, the membership).
    const changed = async () => Number((await h.deps.db.get<{ n: number }>(sql`SELECT total_changes() AS n`))!.n);
    const before = await changed();
    const running = longBatch(h.deps.db, [stmt('CREATE TABLE scratch (x INTEGER)'), SLOW_CTE]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => b.get('/accounts/api/user')));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    await running;
    await vi.waitFor(async () => expect(await changed()).toBe(before + 2));
    // And no second touch follows: the row now says the activity is recorded.
    await new Promise((r) => setTimeout(r, 200));
    expect(await changed()).toBe(before + 2);
  });

  it('writes that met its lock leave this connection able to write: what they wrote is committed for every connection', async () => {
    h = await createHarness();
    const db = h.deps.db;
    await db.run(sql`CREATE TABLE marks (x INTEGER)`);
    const running = longBatch(db, [stmt('CREATE TABLE scratch (x INTEGER)'), SLOW_CTE]);
    // A write of its own and a batch that reads, then writes: both meet the lock and wait.
    const single = db.run(sql`INSERT INTO marks (x) VALUES (1)`);
    const batch = db.batch([db.run(sql`SELECT count(*) FROM marks`), db.run(sql`INSERT INTO marks (x) VALUES (2)`)]);
    await Promise.all([running, single, batch]);
    await db.run(sql`INSERT INTO marks (x) VALUES (3)`);
    // Read on the long-work thread's own connection: only committed rows are there.
    expect(await longGet(db, sql`SELECT count(*) AS n, sum(x) AS total FROM marks`)).toEqual({ n: 3, total: 6 });
  });

  it('a write waiting for the lock gets it between two long steps, not after all of them', async () => {
    h = await createHarness();
    const db = h.deps.db;
    await db.run(sql`CREATE TABLE marks (x INTEGER)`);
    await longBatch(db, [stmt('CREATE TABLE scratch (x INTEGER)')]);
    // Steps back to back, each holding the lock for a while (as an import's pieces do).
    const step = stmt(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) INSERT INTO scratch (x) SELECT x FROM c`);
    const STEPS = 20;
    let done = 0;
    const steps = (async () => {
      for (let i = 0; i < STEPS; i++) {
        await longBatch(db, [step]);
        done++;
      }
    })();
    await new Promise((r) => setTimeout(r, 50)); // the thread is in its first steps
    await db.run(sql`INSERT INTO marks (x) VALUES (1)`);
    const doneWhenWritten = done;
    await steps;
    expect(doneWhenWritten).toBeLessThan(STEPS / 2);
  });

  it('all or nothing: a failing statement at the end leaves nothing of the batch, with the error the guards look for', async () => {
    h = await createHarness();
    const failing = longBatch(h.deps.db, [
      stmt('CREATE TABLE scratch (x INTEGER)'),
      stmt('INSERT INTO scratch (x) VALUES (?), (?)', [1, true]),
      stmt('INSERT INTO tenant_apps (tenant_id, app) SELECT NULL, NULL'),
    ]);
    const error = await failing.then(() => null, (e: unknown) => e);
    expect(isGuardFailure(error)).toBe(true);
    expect(await scratchRows()).toBeNull();
    // The thread is still there for the next batch.
    // It answers each statement's changed rows, as db.batch's results tell them.
    expect(await longBatch(h.deps.db, [stmt('CREATE TABLE scratch (x INTEGER)'), stmt('INSERT INTO scratch (x) VALUES (?), (?)', [7, 8])])).toEqual([0, 2]);
    expect(await scratchRows()).toBe(2);
    // A long read runs there too and answers named columns.
    expect(await longGet(h.deps.db, sql`SELECT sum(x) AS total FROM scratch`)).toEqual({ total: 15 });
  });
});
