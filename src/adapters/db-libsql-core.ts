// What every libSQL opening shares, with no native module behind it: the drizzle handle's shape,
// the direct first-row reader over a @libsql/client, the migrations, and a network-only opening
// (Turso, sqld) through @libsql/client's web build, pure JavaScript, for runtimes without
// Node-API (Deno Deploy). db-libsql.ts adds the local-file drivers on top.
import type { Client } from '@libsql/client';
import { createClient } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import { migrate } from 'drizzle-orm/libsql/migrator';
import * as schema from '../db/schema';
import { registerFirstRow, type Db, type FirstRow } from '../db/client';

export interface LibsqlDatabase {
  db: Db;
  client: Client;
}

export const queryLogger = (onQuery?: (sql: string) => void) => (onQuery ? { logQuery: (sql: string) => onQuery(sql) } : undefined);

export const observed = (read: FirstRow, onQuery?: (sql: string) => void): FirstRow =>
  onQuery
    ? (sql, args) => {
        onQuery(sql);
        return read(sql, args);
      }
    : read;

/** Lets `onQuery` see the statements of every batch too (drizzle's logger sees single statements only). */
export function observeBatches<C extends Pick<Client, 'batch'>>(client: C, onQuery?: (sql: string) => void): C {
  if (!onQuery) return client;
  const batch = client.batch.bind(client);
  client.batch = ((stmts: Parameters<Client['batch']>[0], mode?: Parameters<Client['batch']>[1]) => {
    for (const s of stmts) onQuery(typeof s === 'string' ? s : Array.isArray(s) ? s[0] : s.sql);
    return batch(stmts, mode);
  }) as C['batch'];
  return client;
}

/** The first row of a statement through a @libsql/client, as its values in order. */
export const clientFirstRow =
  (client: Client): FirstRow =>
  (sql, args) =>
    client.execute({ sql, args }).then((r) => (r.rows[0] ? Array.from(r.rows[0] as ArrayLike<unknown>) : undefined));

/** A libSQL server or Turso (libsql://, https://, wss://) without loading any native module. */
export function openLibsqlRemote(url: string, opts: { authToken?: string; onQuery?: (sql: string) => void } = {}): LibsqlDatabase {
  if (url.startsWith('file:')) throw new Error('openLibsqlRemote: a file: URL needs a local driver (db-libsql.ts)');
  const client = observeBatches(createClient({ url, ...(opts.authToken ? { authToken: opts.authToken } : {}) }), opts.onQuery);
  const db = drizzle(client, { schema, logger: queryLogger(opts.onQuery) }) as unknown as Db;
  return { client, db: registerFirstRow(db, observed(clientFirstRow(client), opts.onQuery)) };
}

/** Applies migrations/ (the same SQL wrangler applies to D1). */
export async function migrateLibsql(db: Db, migrationsFolder: string): Promise<void> {
  await db.run('PRAGMA foreign_keys = ON');
  // Readers do not block the writer (and vice versa) in a local file; kept in the file itself.
  await db.run('PRAGMA journal_mode = WAL').catch(() => undefined);
  await migrate(db, { migrationsFolder });
}
