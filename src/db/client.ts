// The database handle every layer receives. Both runtimes get the same drizzle query API;
// the entries build it from a D1 binding or a libSQL client (src/adapters/db-*.ts).
import { fillPlaceholders, getTableColumns, sql, type Placeholder, type SQL, type Table } from 'drizzle-orm';
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import { rowsMapper } from './row-mapper';
import type * as schema from './schema';

/**
 * D1 and libSQL share drizzle's async SQLite API, including `batch`. Writes that must be
 * atomic go through `db.batch([...])`; single-use codes use compare-and-set with RETURNING.
 */
export type Db = LibSQLDatabase<typeof schema>;

export type SqlArg = string | number | null;
/** The first row of a hand-written statement (`?` placeholders), as its column values in order. */
export type FirstRow = (text: string, args: SqlArg[]) => Promise<unknown[] | undefined>;

const firstRowReaders = new WeakMap<object, FirstRow>();

/**
 * An adapter may give its handle a direct reader, so the hottest statement (the request's
 * authentication) skips drizzle's query building and row mapping. Without one, drizzle runs it.
 */
export function registerFirstRow(db: Db, read: FirstRow): Db {
  firstRowReaders.set(db, read);
  return db;
}

/** A hand-written statement (`?` placeholders) as drizzle SQL with its arguments bound. */
export function bound(text: string, args: SqlArg[]): SQL {
  const parts = text.split('?');
  return sql.join(parts.map((p, i) => (i === 0 ? sql.raw(p) : sql`${args[i - 1]}${sql.raw(p)}`)));
}

export function firstRow(db: Db, text: string, args: SqlArg[]): Promise<unknown[] | undefined> {
  const read = firstRowReaders.get(db);
  if (read) return read(text, args);
  return db.values<unknown[]>(bound(text, args)).then((rows) => rows[0]);
}

/** Every row of a hand-written statement (`?` placeholders; a write with RETURNING too), keyed by column name. */
export function allRows(db: Db, text: string, args: SqlArg[]): Promise<Record<string, unknown>[]> {
  return db.all<Record<string, unknown>>(bound(text, args));
}

/** A read that can go in a batch: a drizzle select (or a write with RETURNING), not yet awaited. */
export type BatchRead = Parameters<Db['batch']>[0][number];
/** Reads by name; a name may hold no read (a condition left it out), and then answers undefined. */
export type Reads = Record<string, BatchRead | undefined>;
export type ReadResults<R extends Reads> = { [K in keyof R]: R[K] extends BatchRead ? Awaited<R[K]> : Awaited<Exclude<R[K], undefined>> | undefined };

/**
 * Several reads in one round trip: one `db.batch` (on D1 one request to the database; elsewhere one
 * transaction, so the reads also see one state), answered by the same names. A screen reads its
 * data this way after the request's principal: two round trips in all (issue 23).
 */
export async function readTogether<R extends Reads>(db: Db, reads: R): Promise<ReadResults<R>> {
  const keys = Object.keys(reads).filter((k) => reads[k] !== undefined);
  const [first, ...rest] = keys.map((k) => reads[k]!);
  const results: unknown[] = first ? await db.batch([first, ...rest]) : [];
  const out: Record<string, unknown> = Object.fromEntries(Object.keys(reads).map((k) => [k, undefined]));
  keys.forEach((k, i) => (out[k] = results[i]));
  return out as ReadResults<R>;
}

/** A prepared read's values, as the driver stores them (a timestamp column's number, not a Date). */
export type Values = Record<string, SqlArg>;
/** A prepared read's placeholders, one per value, by the value's name. */
export type Placeholders<V extends Values> = { readonly [K in keyof V]: Placeholder<K & string, V[K]> };

const placeholders = new Proxy({}, { get: (_, name) => sql.placeholder(String(name)) });

/** What a select builder makes of itself, kept so it is made once (see `prepared`). */
interface Made {
  query: SqlStatement;
  fields: unknown;
  method: string;
  arrayMode: boolean;
  mapper: unknown;
  joins: unknown;
}

interface PreparedLike {
  query: SqlStatement;
  fields: unknown;
  executeMethod: string;
  _isResponseInArrayMode: boolean;
  customResultMapper: unknown;
  joinsNotNullableMap: unknown;
}

function made(builder: BatchRead): Made {
  const p = (builder as unknown as { _prepare(): PreparedLike })._prepare();
  // A select's rows (arrays of column values) are decoded by a plan made here, once (db/row-mapper.ts).
  const mapper = p.customResultMapper ?? (Array.isArray(p.fields) && p._isResponseInArrayMode ? rowsMapper(p.fields, p.joinsNotNullableMap as Record<string, boolean> | undefined, p.executeMethod) : undefined);
  return { query: p.query, fields: p.fields, method: p.executeMethod, arrayMode: p._isResponseInArrayMode, mapper, joins: p.joinsNotNullableMap };
}

/** A made read with its values, on this request's handle: a batch item (and awaitable alone). */
function sendable<B extends BatchRead>(db: Db, m: Made, values: Values): B {
  const query = { sql: m.query.sql, params: fillPlaceholders(m.query.params, values) };
  const item = {
    _prepare() {
      const p = internals(db).session.prepareQuery(query, m.fields, m.method, m.arrayMode, m.mapper) as PreparedLike;
      p.joinsNotNullableMap = m.joins;
      return p;
    },
    then<A, E>(ok?: (v: unknown) => A, bad?: (e: unknown) => E) {
      return db.batch([item as unknown as BatchRead]).then((r) => r[0]).then(ok, bad);
    },
  };
  return item as unknown as B;
}

/**
 * A read whose SQL is built once and sent with new values each time. drizzle builds a select's
 * SQL on every call (walking its columns, `is()` on each part): a fifth of a small screen's CPU
 * and more on a list (issue 23). `build` makes the select with placeholders (`p.userId`) on the
 * first call; later calls fill the placeholders and hand the same SQL to the request's handle
 * (its D1 session), so it goes in a batch like any select. Values are the driver's (placeholders
 * skip a column's encoding).
 */
export function prepared<V extends Values, B extends BatchRead>(build: (db: Db, p: Placeholders<V>) => B): (db: Db, values: V) => B {
  let once: Made | undefined;
  return (db, values) => sendable<B>(db, (once ??= made(build(db, placeholders as Placeholders<V>))), values);
}

/** As `prepared`, for a read of a few shapes (a sort, an optional filter): made once per shape. */
export function preparedShapes<S extends string, V extends Values, B extends BatchRead>(build: (db: Db, shape: S, p: Placeholders<V>) => B): (db: Db, shape: S, values: V) => B {
  const shapes = new Map<S, Made>();
  return (db, shape, values) => {
    let m = shapes.get(shape);
    if (!m) shapes.set(shape, (m = made(build(db, shape, placeholders as Placeholders<V>))));
    return sendable<B>(db, m, values);
  };
}

/**
 * A table's columns for a joined select that goes in a batch, each under a name of its own
 * (`<prefix>_<column>`) and decoded as the column is. D1 answers a batch's rows as objects keyed
 * by column name, which drizzle reads back by position: two joined tables' `id`s would fold into
 * one and shift every later value. Alone (not in a batch) drizzle asks D1 for arrays instead.
 */
export function distinctColumns<T extends Table>(table: T, prefix: string): { [K in keyof T['_']['columns']]: SQL.Aliased<T['_']['columns'][K]['_']['data'] | (T['_']['columns'][K]['_']['notNull'] extends true ? never : null)> } {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, col]) => [key, sql`${col}`.mapWith(col).as(`${prefix}_${col.name}`)]),
  ) as never;
}

/**
 * A domain read made of batchable parts and how to shape their rows, so a screen can put the
 * reads of several domain functions into one batch (`readAll`) while the API calls each alone
 * (`readOne`).
 */
export interface Read<R extends Reads, T> {
  reads: R;
  shape(rows: ReadResults<R>): T;
}

export const read = <R extends Reads, T>(reads: R, shape: (rows: ReadResults<R>) => T): Read<R, T> => ({ reads, shape });

export async function readOne<R extends Reads, T>(db: Db, r: Read<R, T>): Promise<T> {
  return r.shape(await readTogether(db, r.reads));
}

type Shaped<P extends Record<string, Read<any, unknown>>> = { [K in keyof P]: ReturnType<P[K]['shape']> };

/** Several reads as one: their reads side by side (one batch), each shaped, then `shape` over them. */
export function combine<P extends Record<string, Read<any, unknown>>, T>(parts: P, shape: (parts: Shaped<P>) => T): Read<Reads, T> {
  const reads: Reads = {};
  for (const [name, part] of Object.entries(parts)) for (const [k, q] of Object.entries(part.reads)) reads[`${name}.${k}`] = q as BatchRead | undefined;
  return read(reads, (rows) => {
    const out: Record<string, unknown> = {};
    for (const [name, part] of Object.entries(parts)) {
      const own: Record<string, unknown> = {};
      for (const k of Object.keys(part.reads)) own[k] = rows[`${name}.${k}`];
      out[name] = part.shape(own as never);
    }
    return shape(out as Shaped<P>);
  });
}

/** Every part's reads in one batch, each part shaped: what a screen shows, in one round trip. */
export function readAll<P extends Record<string, Read<any, unknown>>>(db: Db, parts: P): Promise<Shaped<P>> {
  return readOne(db, combine(parts, (shaped) => shaped));
}

const scopeRoots = new WeakMap<object, Db>();

/**
 * A per-request handle (a D1 session) answers to the database it was opened on: state kept per
 * database in the process (the host cache) must outlive the request's handle.
 */
export function linkScope(scoped: Db, root: Db): Db {
  scopeRoots.set(scoped, root);
  return scoped;
}

export function rootOf(db: Db): Db {
  return scopeRoots.get(db) ?? db;
}

/** A statement of a batch as SQL text and driver values. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}
/** Runs statements in one transaction, all or nothing, without holding the caller's event loop; answers each one's changed rows. */
export type LongBatch = (statements: SqlStatement[]) => Promise<number[]>;
/** Runs one long read (a scan of a large table) without holding the caller's event loop. */
export type LongRead = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;

const longRunners = new WeakMap<object, { batch: LongBatch; read: LongRead }>();

/** An adapter whose statements would hold the event loop (a synchronous driver) offers another way. */
export function registerLongWork(db: Db, batch: LongBatch, read: LongRead): Db {
  longRunners.set(db, { batch, read });
  return db;
}

/** Rows a statement changed (libSQL: rowsAffected; D1: meta.changes). */
export function affected(res: unknown): number {
  const r = res as { rowsAffected?: number; meta?: { changes?: number } };
  return Number(r.rowsAffected ?? r.meta?.changes ?? 0);
}

/** The rows a raw statement of a batch answered (RETURNING, or a read): libSQL `rows`, D1 `results`. */
export function rowsOf(res: unknown): Record<string, unknown>[] {
  const r = res as { rows?: Record<string, unknown>[]; results?: Record<string, unknown>[] };
  return r.rows ?? r.results ?? [];
}

/**
 * A batch that may take seconds (an import's switch of a million rows): all or nothing as
 * `db.batch`, but where the driver is synchronous it runs on a connection and thread of its own,
 * so other requests keep being answered meanwhile. Elsewhere (D1, a remote libSQL) it is `db.batch`.
 * Answers each statement's changed rows.
 */
export async function longBatch(db: Db, statements: { toSQL(): SqlStatement }[]): Promise<number[]> {
  const run = longRunners.get(rootOf(db));
  if (run) return run.batch(statements.map((s) => s.toSQL()));
  return ((await db.batch(statements as never)) as unknown[]).map(affected);
}

/** The first row of a read that may scan a large table, off the event loop where that matters (see longBatch). */
export async function longGet<T>(db: Db, query: SQL): Promise<T | undefined> {
  const run = longRunners.get(rootOf(db));
  if (!run) return db.get<T>(query);
  return (await run.read(internals(db).dialect.sqlToQuery(query)))[0] as T | undefined;
}

/**
 * drizzle's session and SQL dialect, which its types mark internal. This file and src/adapters
 * are where the drivers' own types meet ours; casts through `unknown` stay here (ESLint).
 */
function internals(db: Db) {
  return db as unknown as {
    session: { prepareQuery(q: SqlStatement, fields: unknown, method: string, arrayMode: boolean, mapper?: unknown): unknown };
    dialect: { sqlToQuery(q: SQL): SqlStatement };
  };
}

/**
 * A raw SQL statement for `db.batch([...])` on both drivers. drizzle's `db.run(sql)` works in a
 * libSQL batch but not in a D1 batch (its item has no prepared D1 statement, so binding fails), so
 * the statement is prepared through the session like any query builder's.
 */
export function rawStatement(db: Db, query: SQL) {
  const { session, dialect } = internals(db);
  const prepared = () => session.prepareQuery(dialect.sqlToQuery(query), undefined, 'run', false);
  return { _prepare: prepared, toSQL: () => dialect.sqlToQuery(query) } as unknown as ReturnType<Db['run']> & { toSQL(): SqlStatement };
}

