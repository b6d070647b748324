// The journeys' helpers write to the server's database file from another process. A write that
// returns rows (INSERT ... RETURNING) run on its own starts as a read and, when the server commits
// in between, fails at once with SQLITE_BUSY (a stale snapshot waits for no busy timeout). In a
// write batch the lock is taken first (BEGIN IMMEDIATE), which waits for the server's commit.
import { createClient, type Client, type InStatement, type ResultSet } from '@libsql/client';
import { join } from 'node:path';

/** The e2e server's database file (E2E_DB_DIR, set by playwright.config.ts), opened from the test process. */
export function openServerDb(): Client {
  const dir = process.env.E2E_DB_DIR;
  if (!dir) throw new Error('E2E_DB_DIR is set by playwright.config.ts');
  return createClient({ url: `file:${join(dir, 'portal.db')}`, timeout: 5000 });
}

export async function writeReturning(db: Client, statement: InStatement): Promise<ResultSet> {
  return (await db.batch([statement], 'write'))[0]!;
}
