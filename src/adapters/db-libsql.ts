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
  const client = createClient(authToken ? { url, authToken } : { url });
  return { client, db: drizzle(client, { schema }) };
}

/** Applies migrations/ (the same SQL wrangler applies to D1). */
export async function migrateLibsql(db: Db, migrationsFolder: string): Promise<void> {
  await db.run('PRAGMA foreign_keys = ON');
  await migrate(db, { migrationsFolder });
}
