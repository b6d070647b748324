// Node's database: a local SQLite file through our statement-caching driver (db-sqlite-file.ts),
// or a libSQL server / Turso (libsql://, http(s)://, ws(s)://) through @libsql/client. The same
// drizzle schema, queries and migrations on both. DB_DRIVER=libsql-client sends file: URLs through
// @libsql/client as well (the integration tests run once on each driver).
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import * as schema from '../db/schema';
import { registerFirstRow, registerLongWork } from '../db/client';
import { clientFirstRow, observeBatches, observed, queryLogger, type LibsqlDatabase } from './db-libsql-core';
import { openSqliteFile } from './db-sqlite-file';

export { migrateLibsql, type LibsqlDatabase } from './db-libsql-core';

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
  const logger = queryLogger(onQuery);
  const local = url.startsWith('file:');
  if (local && driver === 'sqlite-file') {
    // file:/abs/path, file:///abs/path and file:relative/path all name a path.
    const file = openSqliteFile(url.replace(/^file:(\/\/(?=\/))?/, ''));
    const db = drizzle(observeBatches(file.client, onQuery), { schema, logger });
    if (file.longBatch && file.longRead) registerLongWork(db, file.longBatch, file.longRead);
    return { client: file.client, db: registerFirstRow(db, observed(file.firstRow, onQuery)) };
  }
  // A local file is shared by a pool of connections (and by the seed or a backup): wait for a
  // lock instead of failing at once with SQLITE_BUSY.
  const client = observeBatches(createClient({ url, ...(authToken ? { authToken } : {}), ...(local ? { timeout: 5000 } : {}) }), onQuery);
  const db = drizzle(client, { schema, logger });
  return { client, db: registerFirstRow(db, observed(clientFirstRow(client), onQuery)) };
}
