// The local file driver's statement cache: a statement is prepared once and reused; when more
// distinct statements than the cache holds have run, the least recently used one goes, not the one
// every request runs (a hit marks its entry instead of reordering the cache).
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteFile } from '../../src/adapters/db-sqlite-file';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the file driver\'s prepared statements', () => {
  it('prepares each text once and keeps the recently used ones when the cache is full', async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-statements-'));
    const { client, firstRow } = openSqliteFile(join(dir, 's.db'), 1_000);
    await client.execute('CREATE TABLE t (x INTEGER)');
    await client.execute({ sql: 'INSERT INTO t (x) VALUES (?)', args: [7] });
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    const prepared = (sql: string) => prepare.mock.calls.filter(([text]) => text === sql).length;
    const hot = 'SELECT x FROM t WHERE x = ?';
    const cold = 'SELECT x + 0 FROM t WHERE x = ?';

    expect(await firstRow(hot, [7])).toEqual([7]);
    expect(await client.execute({ sql: cold, args: [7] })).toMatchObject({ rows: [{ 'x + 0': 7 }] });
    for (let i = 0; i < 3; i++) expect(await firstRow(hot, [7])).toEqual([7]);
    expect(prepared(hot)).toBe(1);

    // 600 other statements (the cache holds 500), the hot one used between them.
    for (let i = 1; i <= 600; i++) {
      await client.execute({ sql: `SELECT x + ${i} FROM t WHERE x = ?`, args: [7] });
      if (i % 50 === 0) await firstRow(hot, [7]);
    }
    expect(await firstRow(hot, [7])).toEqual([7]);
    expect(prepared(hot)).toBe(1);
    // The cold one was the least recently used: prepared again.
    await client.execute({ sql: cold, args: [7] });
    expect(prepared(cold)).toBe(2);
    prepare.mockRestore();
    client.close();
  });

  it('sends a bound LIMIT as an expression, with the same rows', async () => {
    // A bare `LIMIT ?` expires the cached statement at every bind (SQLite with STAT4 reads it for
    // the plan), so each run was parsed and planned again; `LIMIT +?` is the same value.
    dir = mkdtempSync(join(tmpdir(), 'portal-statements-'));
    const { client } = openSqliteFile(join(dir, 's.db'), 1_000);
    await client.execute('CREATE TABLE t (x INTEGER)');
    for (const x of [1, 2, 3, 4, 5]) await client.execute({ sql: 'INSERT INTO t (x) VALUES (?)', args: [x] });
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    const page = await client.execute({ sql: 'select x from t order by x limit ? offset ?', args: [2, 1] });
    expect(page.rows.map((r) => r.x)).toEqual([2, 3]);
    const lower = await client.execute({ sql: 'SELECT x FROM t ORDER BY x DESC LIMIT ?', args: [1] });
    expect(lower.rows.map((r) => r.x)).toEqual([5]);
    expect(prepare.mock.calls.map(([text]) => text)).toEqual(['select x from t order by x limit +? offset ?', 'SELECT x FROM t ORDER BY x DESC limit +?']);
    // A literal LIMIT is left alone.
    await client.execute('SELECT x FROM t LIMIT 2');
    expect(prepare.mock.calls.at(-1)?.[0]).toBe('SELECT x FROM t LIMIT 2');
    prepare.mockRestore();
    client.close();
  });
});
