import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import * as schema from '../db/schema';
import type { Db } from '../db/client';

export interface LibsqlDatabase {
  db: Db;
  client: Client;
}

export function openLibsql(url: string, authToken?: string): LibsqlDatabase {
  // A local file is shared by a pool of connections (and by the seed or a backup): wait for a
  // lock instead of failing at once with SQLITE_BUSY.
  const local = url.startsWith('file:');
  const client = createClient({ url, ...(authToken ? { authToken } : {}), ...(local ? { timeout: 5000 } : {}) });
  return { client, db: drizzle(client, { schema }) };
}

/** Applies migrations/ (the same SQL wrangler applies to D1). */
export async function migrateLibsql(db: Db, migrationsFolder: string): Promise<void> {
  await db.run('PRAGMA foreign_keys = ON');
  // Readers do not block the writer (and vice versa) in a local file; kept in the file itself.
  await db.run('PRAGMA journal_mode = WAL').catch(() => undefined);
  await migrate(db, { migrationsFolder });
}
