// The local file driver and another connection's write lock (a long import switch, the seed, a
// backup): a write waits without holding the event loop, gives up after its limit, and a write
// that gave up leaves the connection healthy. The `libsql` binding the driver used before left a
// statement that failed on a lock in progress, and with it the connection's transaction: every
// later write failed (SQLITE_BUSY_SNAPSHOT) until the driver took the write lock with BEGIN first.
// A write that returns rows (INSERT ... RETURNING: the limiter's reserve) once ran as a read and
// met the lock half-way; under load in CI that wedged the browser journeys' server for good.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteFile } from '../../src/adapters/db-sqlite-file';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function files() {
  dir = mkdtempSync(join(tmpdir(), 'portal-locks-'));
  const path = join(dir, 'locks.db');
  // The same SQLite library as the driver's: POSIX locks do not separate two copies of SQLite in one process.
  const other = new Database(path, { timeout: 0 });
  other.exec('PRAGMA journal_mode = WAL');
  other.exec('CREATE TABLE t (x INTEGER)');
  other.exec('INSERT INTO t (x) VALUES (1), (2), (3)');
  return { path, other };
}

const count = (other: InstanceType<typeof Database>) => (other.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;

describe('the file driver meets another connection\'s lock', () => {
  it('waits for it without holding the event loop, then writes', async () => {
    const { path, other } = files();
    const { client } = openSqliteFile(path, 5_000);
    other.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const write = client.batch([{ sql: 'SELECT count(*) FROM t', args: [] }, { sql: 'INSERT INTO t (x) VALUES (?)', args: [4] }], 'deferred');
    await new Promise((r) => setTimeout(r, 100));
    other.exec('COMMIT');
    await write;
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5); // the loop ran while the write waited
    expect(count(other)).toBe(4);
    client.close();
    other.close();
  });

  it('a write that gave up leaves the connection able to write, and its later writes commit', async () => {
    const { path, other } = files();
    const { client } = openSqliteFile(path, 100);
    // Reads first, so the failing write holds a snapshot, as a request's batch does.
    await client.execute('SELECT count(*) FROM t');
    other.exec('BEGIN IMMEDIATE');
    other.exec('INSERT INTO t (x) VALUES (10)');
    await expect(client.batch([{ sql: 'SELECT count(*) FROM t', args: [] }, { sql: 'UPDATE t SET x = x + 1', args: [] }], 'deferred')).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    await expect(client.execute({ sql: 'INSERT INTO t (x) VALUES (?)', args: [11] })).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    other.exec('COMMIT');
    // The same statements again, and others: all commit, and another connection sees them.
    await client.batch([{ sql: 'SELECT count(*) FROM t', args: [] }, { sql: 'UPDATE t SET x = x + 1', args: [] }], 'deferred');
    await client.execute({ sql: 'INSERT INTO t (x) VALUES (?)', args: [11] });
    await client.execute({ sql: 'INSERT INTO t (x) VALUES (?)', args: [12] });
    expect(count(other)).toBe(6);
    // The update ran once (after the lock was free), on the four rows there were then.
    expect((other.prepare('SELECT sum(x) AS s FROM t').get() as { s: number }).s).toBe(2 + 3 + 4 + 11 + 11 + 12);
    other.exec('BEGIN IMMEDIATE'); // nothing of ours holds the lock
    other.exec('ROLLBACK');
    client.close();
    other.close();
  });

  for (const via of ['execute', 'batch'] as const) {
    it(`a write that returns rows waits for the lock like any write and leaves the connection healthy (${via})`, async () => {
      const { path, other } = files();
      other.exec('CREATE TABLE hits (k TEXT PRIMARY KEY, n INTEGER)');
      // A second of patience: the lock is let go after 100 ms (a wedged connection never gets it).
      const { client } = openSqliteFile(path, 1_000);
      // A snapshot of this connection's, from before the other connection's write.
      await client.execute('SELECT count(*) FROM t');
      other.exec('BEGIN IMMEDIATE');
      other.exec("INSERT INTO hits (k, n) VALUES ('a', 1)");
      const upsert = { sql: 'INSERT INTO hits (k, n) VALUES (?, 1) ON CONFLICT (k) DO UPDATE SET n = n + 1 RETURNING n', args: ['a'] };
      const reserved = via === 'execute' ? client.execute(upsert) : client.batch([upsert, { ...upsert, args: ['b'] }]).then((r) => r[0]!);
      await new Promise((r) => setTimeout(r, 100));
      other.exec('COMMIT');
      // Counted after the other connection's row: 2, not a second 1 from a stale snapshot.
      expect((await reserved).rows[0]![0]).toBe(2);
      // Later writes of this connection commit, and nothing of ours holds a lock.
      await client.execute({ sql: 'UPDATE t SET x = x + 1', args: [] });
      await client.batch([{ sql: 'INSERT INTO t (x) VALUES (?)', args: [9] }], 'write');
      expect(count(other)).toBe(4);
      other.exec('BEGIN IMMEDIATE');
      other.exec('ROLLBACK');
      client.close();
      other.close();
    });
  }

  it('while a long batch runs on its thread, this connection\'s commits leave the checkpoint to it', async () => {
    const { path, other } = files();
    const { client, longBatch } = openSqliteFile(path, 5_000);
    const autoCheckpoint = async () => Number((await client.execute('PRAGMA wal_autocheckpoint')).rows[0]![0]);
    expect(await autoCheckpoint()).toBe(1000);
    // Enough rows for a WAL of many pages; a commit of this connection's own would have copied them on the event loop.
    const batch = longBatch!([{ sql: 'WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 20000) INSERT INTO t (x) SELECT i FROM c', params: [] }]);
    expect(await autoCheckpoint()).toBe(0);
    await batch;
    expect(await autoCheckpoint()).toBe(1000);
    // The thread copied its WAL into the database and truncated it.
    expect(statSync(`${path}-wal`).size).toBe(0);
    expect(count(other)).toBe(20003);
    client.close();
    other.close();
  });
});
