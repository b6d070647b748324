// A local SQLite file on Node through better-sqlite3 (SQLite's C API called directly, no async
// runtime in between: the request's authentication statement costs a third less than through the
// `libsql` package @libsql/client uses for file: URLs; built from source at install where no
// prebuilt binary can be downloaded), with what @libsql/client's file driver lacks on a hot path:
// every statement is prepared once and kept (an LRU by SQL text), rows come back as plain arrays.
//
// It answers the subset of @libsql/client's `Client` that drizzle's libsql driver calls
// (execute, batch, migrate, executeMultiple, close), so the schema, the queries and the migrations
// stay the same on every driver. One connection for requests, used synchronously: a statement or a
// whole batch runs to its end before any other request's code runs, so a batch is atomic within the
// process. Interactive transactions are not offered: D1 has none either, so the code never uses them.
//
// Locks: the connection never waits for one inside the driver (that wait would hold the event
// loop). A statement or batch that finds the file locked by another connection (the long-batch
// thread below, the seed, a backup, a CLI) is retried after a pause, up to `lockWaitMs`; a batch
// is rolled back first, so it is retried whole. Reads never wait: WAL readers see the last commit.
//
// Long work (an import's switch, seconds for a large file) runs on a second connection in a thread
// of its own, so every other request is answered meanwhile; a long batch is one transaction there.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { FirstRow, LongBatch, LongRead, SqlStatement } from '../db/client';
import { LibsqlBatchError, LibsqlError, type Client, type InArgs, type InStatement, type ResultSet, type Row } from '@libsql/client';

type Value = null | number | bigint | string | Uint8Array;
type Stmt = Database.Statement<unknown[]>;

interface Prepared {
  stmt: Stmt;
  /** Returns rows (a SELECT, or a write with RETURNING). */
  reader: boolean;
  /** Changes the database: it runs only once this connection holds the write lock. */
  writes: boolean;
  columns: string[];
  /** When it was last used (a counter): the least recently used is dropped when the cache is full. */
  used: number;
}

const CACHE_SIZE = 500;

export function openSqliteFile(path: string, lockWaitMs = 30_000): { client: Client; firstRow: FirstRow; longBatch: LongBatch | null; longRead: LongRead | null } {
  const db = new Database(path, { timeout: 0 });
  // In WAL mode NORMAL syncs at checkpoints, not at every commit: a commit no longer waits for
  // the disk on the event loop (a login's few writes each cost an fsync before). The file stays
  // consistent; a power cut (not a process crash) may lose the last commits.
  db.exec('PRAGMA synchronous = NORMAL');
  const cache = new Map<string, Prepared>();
  let clock = 0;
  // Every batch and write opens and ends a transaction: prepared once, as better-sqlite3's own
  // transaction helper does, rather than parsed by exec each time (2% of a screen's CPU).
  const control = {
    DEFERRED: db.prepare('BEGIN DEFERRED'),
    IMMEDIATE: db.prepare('BEGIN IMMEDIATE'),
    COMMIT: db.prepare('COMMIT'),
    ROLLBACK: db.prepare('ROLLBACK'),
  };

  function prepare(sql: string): Prepared {
    let p = cache.get(sql);
    if (p) {
      // A hit only marks the entry (reordering the Map on every statement cost more than the rare
      // search for the oldest below).
      p.used = ++clock;
      return p;
    }
    const stmt = db.prepare(boundLimitAsExpression(sql));
    const reader = stmt.reader;
    if (reader) stmt.raw(true);
    p = { stmt, reader, writes: writes(sql, reader), columns: reader ? stmt.columns().map((c: { name: string }) => c.name) : [], used: ++clock };
    if (cache.size >= CACHE_SIZE) {
      let oldest: string | undefined;
      let min = Infinity;
      for (const [key, entry] of cache) if (entry.used < min) [oldest, min] = [key, entry.used];
      cache.delete(oldest!);
    }
    cache.set(sql, p);
    return p;
  }

  function execute(input: InStatement): ResultSet {
    const { sql, args } = typeof input === 'string' ? { sql: input, args: [] as InArgs } : { sql: input.sql, args: input.args ?? [] };
    const params = toParams(args);
    try {
      const p = prepare(sql);
      const run = (): ResultSet => {
        if (p.reader) {
          const rows = p.stmt.all(params) as unknown[][];
          return resultSet(p.columns, rows.map((r) => namedRow(r, p.columns)), 0, undefined);
        }
        const info = p.stmt.run(params) as { changes: number; lastInsertRowid: number | bigint };
        return resultSet([], [], info.changes, BigInt(info.lastInsertRowid));
      };
      // A write of its own (a RETURNING one too: the driver calls it a reader) takes the lock first
      // (see inTransaction); reads, PRAGMAs and transaction control run as they are.
      return p.writes && !db.inTransaction ? inTransaction('IMMEDIATE', run) : run();
    } catch (e) {
      const err = asLibsqlError(e);
      // A statement that failed on a lock is prepared afresh next time.
      if (isLocked(err)) cache.delete(sql);
      throw err;
    }
  }

  /**
   * Runs `work` in a transaction whose lock is taken by BEGIN through exec, so no statement inside
   * meets a lock half-way (reads never do in WAL mode). With the `libsql` binding this driver used
   * before, a statement that failed on a lock stayed in progress and wedged the connection
   * (tests/integration/sqlite-file-locks.test.ts); taking the lock first is right on any binding.
   */
  function inTransaction<T>(kind: 'IMMEDIATE' | 'DEFERRED', work: () => T): T {
    try {
      control[kind].run();
    } catch (e) {
      throw asLibsqlError(e);
    }
    try {
      const out = work();
      control.COMMIT.run();
      return out;
    } catch (e) {
      if (db.inTransaction) control.ROLLBACK.run();
      throw e instanceof LibsqlError ? e : asLibsqlError(e);
    }
  }

  /** A batch of reads only needs no write lock. */
  const readsOnly = (stmts: InStatement[]) => stmts.every((s) => !prepare(typeof s === 'string' ? s : Array.isArray(s) ? s[0] : s.sql).writes);

  function runAll(stmts: InStatement[]): ResultSet[] {
    return stmts.map((s, i) => {
      try {
        return execute(Array.isArray(s) ? { sql: s[0], args: s[1] ?? [] } : s);
      } catch (e) {
        if (e instanceof LibsqlError) throw new LibsqlBatchError(e.message, i, e.code, e.extendedCode, e.rawCode, e);
        throw e;
      }
    });
  }

  // Writes waiting for the lock the long-work thread holds. Its steps follow one another closely
  // (an import's pieces): writes that only polled would rarely meet the moment between two steps
  // and could wait past their limit, so the thread's answer wakes them before the next step is
  // handed over.
  const released = new Set<() => void>();
  const whenFree = <T>(work: () => T) => retryWhileLocked(work, lockWaitMs, released);
  // A file of its own (not :memory:) can be opened by a second connection.
  // While the thread's long batches are in flight, this connection's commits do not checkpoint:
  // one landing between the thread's COMMIT and its own checkpoint copied the whole batch's WAL on
  // the event loop (a 131 ms COMMIT during a 50 MB import; issue 23). The thread checkpoints.
  const autoCheckpoint = (on: boolean) => db.pragma(`wal_autocheckpoint = ${on ? 1000 : 0}`);
  const longBatch = path === ':memory:' || path === '' ? null : longBatchThread(path, Boolean((db.prepare('PRAGMA foreign_keys').get() as { foreign_keys?: number })?.foreign_keys), lockWaitMs, released, autoCheckpoint);

  const client = {
    protocol: 'file',
    closed: false,
    async execute(stmt: InStatement | string, args?: InArgs) {
      return whenFree(() => execute(typeof stmt === 'string' ? { sql: stmt, args: args ?? [] } : stmt));
    },
    async batch(stmts: InStatement[], mode: 'write' | 'read' | 'deferred' = 'deferred') {
      return whenFree(() => inTransaction(mode !== 'write' && readsOnly(stmts) ? 'DEFERRED' : 'IMMEDIATE', () => runAll(stmts)));
    },
    async migrate(stmts: InStatement[]) {
      db.exec('PRAGMA foreign_keys=off');
      try {
        return inTransaction('IMMEDIATE', () => runAll(stmts));
      } finally {
        db.exec('PRAGMA foreign_keys=on');
      }
    },
    async executeMultiple(sql: string) {
      try {
        db.exec(sql);
      } catch (e) {
        throw asLibsqlError(e);
      }
    },
    async transaction(): Promise<never> {
      throw new LibsqlError('Interactive transactions are not offered (D1 has none): use batch()', 'TRANSACTION_UNSUPPORTED');
    },
    async sync() {
      return undefined;
    },
    reconnect() {
      throw new LibsqlError('A local file connection is not reopened', 'RECONNECT_UNSUPPORTED');
    },
    close() {
      client.closed = true;
      cache.clear();
      longBatch?.close();
      if (db.open) db.close();
    },
  };

  const readFirst = (text: string, args: unknown[]) => {
    try {
      return prepare(text).stmt.get(args) as unknown[] | undefined;
    } catch (e) {
      throw asLibsqlError(e);
    }
  };
  return {
    client: client as unknown as Client,
    // One native call for one row (all() iterates in batches of 100).
    firstRow: async (text, args) => {
      try {
        return readFirst(text, args);
      } catch (e) {
        if (!isLocked(e)) throw e;
        return whenFree(() => readFirst(text, args));
      }
    },
    longBatch: longBatch?.run ?? null,
    longRead: longBatch?.read ?? null,
  };
}

/**
 * `LIMIT ?` as `LIMIT +?`, the same value. SQLite (3.4x, built with STAT4 as better-sqlite3 is)
 * lets a bare bound LIMIT shape the plan, so binding it expires the statement and every run of
 * the cached statement was parsed and planned again: 22 of the 70 µs of the users page's read, 6 µs
 * of a one-table read (drizzle's `.limit(n)` always binds). An expression is not read for the plan.
 */
export function boundLimitAsExpression(sql: string): string {
  return sql.replace(/\blimit \?/gi, 'limit +?');
}

/** Transaction control and PRAGMAs: never wrapped in a transaction of ours. */
const CONTROL = /^\s*(PRAGMA|BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|VACUUM|ATTACH|DETACH)\b/i;

/**
 * Whether a statement changes the database. The driver's `reader` only says it returns rows, and an
 * INSERT ... RETURNING (the limiter's reserve) returns rows: run as a read, it met another
 * connection's lock half-way, stayed in progress, and wedged the connection (no later COMMIT
 * could succeed). A read is a SELECT, VALUES or EXPLAIN, or a WITH naming no write verb;
 * anything else that is not transaction control is a write.
 */
function writes(sql: string, reader: boolean): boolean {
  if (CONTROL.test(sql)) return false;
  if (!reader) return true;
  if (/^\s*(SELECT|VALUES|EXPLAIN)\b/i.test(sql)) return false;
  return !/^\s*WITH\b/i.test(sql) || /\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql);
}

const isLocked = (e: unknown) => e instanceof LibsqlError && /^SQLITE_(BUSY|LOCKED)/.test(e.code);

/** Runs `work` now, or again after pauses while the file is locked by another connection. */
async function retryWhileLocked<T>(work: () => T, limitMs: number, released: Set<() => void>): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      return work();
    } catch (e) {
      if (!isLocked(e) || Date.now() + pause > deadline) throw e;
      // Woken when the long-work thread lets the lock go (before it is handed more work), else
      // after the pause (another process holds it).
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          released.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, pause);
        released.add(wake);
      });
    }
  }
}

// CommonJS, evaluated in the thread; the module path comes from the main thread's resolution.
const LONG_BATCH_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: workerData.lockWaitMs });
db.exec('PRAGMA synchronous = NORMAL');
db.exec('PRAGMA foreign_keys = ' + (workerData.foreignKeys ? 'ON' : 'OFF'));
parentPort.on('message', ({ id, statements, read }) => {
  if (read) {
    try {
      parentPort.postMessage({ id, rows: db.prepare(read.sql).all(read.params) });
    } catch (e) {
      parentPort.postMessage({ id, error: { message: String(e && e.message || e), code: e && e.code, rawCode: e && e.rawCode } });
    }
    return;
  }
  try {
    const changes = [];
    db.exec('BEGIN IMMEDIATE');
    for (const s of statements) {
      const stmt = db.prepare(s.sql);
      if (stmt.reader) { stmt.all(s.params); changes.push(0); } else changes.push(stmt.run(s.params).changes);
    }
    db.exec('COMMIT');
    // A long batch leaves a large WAL. Copy it into the database here, waiting for readers as
    // long as it takes (TRUNCATE): left to the automatic checkpoint of the next small commit on
    // the main connection, hundreds of MB would be copied on the event loop (issue 23).
    try { db.pragma('wal_checkpoint(TRUNCATE)'); } catch {}
    parentPort.postMessage({ id, changes });
  } catch (e) {
    try { if (db.inTransaction) db.exec('ROLLBACK'); } catch {}
    parentPort.postMessage({ id, error: { message: String(e && e.message || e), code: e && e.code, rawCode: e && e.rawCode } });
  }
});
`;

/** A second connection on its own thread, started at the first long batch. */
function longBatchThread(path: string, foreignKeys: boolean, lockWaitMs: number, released: Set<() => void>, autoCheckpoint: (on: boolean) => void) {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const pending = new Map<number, { resolve: (m: ThreadAnswer) => void; reject: (e: unknown) => void }>();
  let worker: Worker | null = null;
  let nextId = 1;
  // Long batches in flight (reads excluded): the main connection's automatic checkpoint is off meanwhile.
  let batches = 0;
  const batchDone = () => {
    if (--batches === 0) autoCheckpoint(true);
  };

  function thread(): Worker {
    if (worker) return worker;
    const w = new Worker(LONG_BATCH_THREAD, { eval: true, workerData: { driver, path, foreignKeys, lockWaitMs } });
    w.on('message', (m: ThreadAnswer) => {
      // The lock is free now: the writes waiting for it go first (their continuations are queued
      // before the caller's, which may hand the thread its next step).
      for (const wake of [...released]) wake();
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (pending.size === 0) w.unref();
      if (!p) return;
      if (m.error) p.reject(asLibsqlError(Object.assign(new Error(m.error.message), { code: m.error.code, rawCode: m.error.rawCode })));
      else p.resolve(m);
    });
    w.on('error', (e) => {
      worker = null;
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    });
    w.unref();
    worker = w;
    return w;
  }

  function ask(message: Record<string, unknown>): Promise<ThreadAnswer> {
    return new Promise<ThreadAnswer>((resolve, reject) => {
      const id = nextId++;
      const w = thread();
      pending.set(id, { resolve, reject });
      w.ref(); // work in flight keeps the process alive until it answers
      w.postMessage({ id, ...message });
    });
  }

  return {
    run: (async (statements: SqlStatement[]) => {
      if (batches++ === 0) autoCheckpoint(false);
      try {
        return (await ask({ statements: statements.map((s) => ({ sql: s.sql, params: toParams(s.params as InArgs) })) })).changes ?? [];
      } finally {
        batchDone();
      }
    }) satisfies LongBatch,
    read: (async (statement: SqlStatement) => (await ask({ read: { sql: statement.sql, params: toParams(statement.params as InArgs) } })).rows ?? []) satisfies LongRead,
    close: () => {
      void worker?.terminate();
      worker = null;
    },
  };
}

interface ThreadAnswer {
  id: number;
  changes?: number[];
  rows?: Record<string, unknown>[];
  error?: { message: string; code?: string; rawCode?: number };
}

function toParams(args: InArgs): Value[] | Record<string, Value> {
  const conv = (v: unknown): Value => {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v instanceof Date) return v.valueOf();
    if (v instanceof ArrayBuffer) return new Uint8Array(v);
    if (v === undefined) throw new TypeError('undefined cannot be passed as argument to the database');
    return v as Value;
  };
  if (Array.isArray(args)) return args.map(conv);
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(args)) out[/^[@$:]/.test(k) ? k.slice(1) : k] = conv(v);
  return out;
}

/**
 * drizzle reads typed selects by index and raw `sql` selects by name: an array row with the
 * names added as own properties serves both (libsql's client defines each with
 * Object.defineProperty, which was a fifth of a session check's time).
 */
function namedRow(values: unknown[], columns: string[]): Row {
  const row = values as unknown as Record<string, unknown>;
  for (let i = 0; i < columns.length; i++) {
    const name = columns[i]!;
    if (!(name in row)) row[name] = values[i];
  }
  return row as unknown as Row;
}

function resultSet(columns: string[], rows: Row[], rowsAffected: number, lastInsertRowid: bigint | undefined): ResultSet {
  return {
    columns,
    columnTypes: columns.map(() => ''),
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({ columns, rows, rowsAffected, lastInsertRowid: lastInsertRowid?.toString() }),
  };
}

function asLibsqlError(e: unknown): unknown {
  if (e instanceof LibsqlError || !(e instanceof Error)) return e;
  const err = e as Error & { code?: string; rawCode?: number };
  if (err.rawCode === undefined && !err.code?.startsWith('SQLITE')) return e;
  const base = err.code?.replace(/^(SQLITE_[A-Z]+).*$/, '$1') ?? 'SQLITE_UNKNOWN';
  return new LibsqlError(err.message, base, err.code, err.rawCode, err);
}
