// Node's database: a local SQLite file through our statement-caching driver (db-sqlite-file.ts),
// or a libSQL server / Turso (libsql://, http(s)://, ws(s)://) through @libsql/client. The same
// drizzle schema, queries and migrations on both. DB_DRIVER=libsql-client sends file: URLs through
// @libsql/client as well (the integration tests run once on each driver).
import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import * as schema from '../db/schema';
import { registerFirstRow, registerLongBatch, type Db, type FirstRow } from '../db/client';
import { openSqliteFile } from './db-sqlite-file';

export interface LibsqlDatabase {
  db: Db;
  client: Client;
}

export type NodeDbDriver = 'sqlite-file' | 'libsql-client';

export interface OpenOptions {
  authToken?: string;
  driver?: NodeDbDriver;
  /** Sees every statement drizzle sends (tests count round trips with it). */
  onQuery?: (sql: string) => void;
}

export function openLibsql(url: string, opts: OpenOptions = {}): LibsqlDatabase {
  const { authToken, onQuery } = opts;
  const driver = opts.driver ?? (process.env.DB_DRIVER as NodeDbDriver | undefined) ?? 'sqlite-file';
  const logger = onQuery ? { logQuery: (sql: string) => onQuery(sql) } : undefined;
  const local = url.startsWith('file:');
  if (local && driver === 'sqlite-file') {
    // file:/abs/path, file:///abs/path and file:relative/path all name a path.
    const file = openSqliteFile(url.replace(/^file:(\/\/(?=\/))?/, ''));
    const db = drizzle(file.client, { schema, logger });
    if (file.longBatch) registerLongBatch(db, file.longBatch);
    return { client: file.client, db: registerFirstRow(db, observed(file.firstRow, onQuery)) };
  }
  // A local file is shared by a pool of connections (and by the seed or a backup): wait for a
  // lock instead of failing at once with SQLITE_BUSY.
  const client = createClient({ url, ...(authToken ? { authToken } : {}), ...(local ? { timeout: 5000 } : {}) });
  const db = drizzle(client, { schema, logger });
  const read = (sql: string, args: (string | number | null)[]) => client.execute({ sql, args }).then((r) => (r.rows[0] ? Array.from(r.rows[0] as ArrayLike<unknown>) : undefined));
  return { client, db: registerFirstRow(db, observed(read, onQuery)) };
}

const observed = (read: FirstRow, onQuery?: (sql: string) => void): FirstRow =>
  onQuery
    ? (sql, args) => {
        onQuery(sql);
        return read(sql, args);
      }
    : read;

/** Applies migrations/ (the same SQL wrangler applies to D1). */
export async function migrateLibsql(db: Db, migrationsFolder: string): Promise<void> {
  await db.run('PRAGMA foreign_keys = ON');
  // Readers do not block the writer (and vice versa) in a local file; kept in the file itself.
  await db.run('PRAGMA journal_mode = WAL').catch(() => undefined);
  await migrate(db, { migrationsFolder });
}
