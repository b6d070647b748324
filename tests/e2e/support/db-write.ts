// The journeys' helpers write to the server's database file from another process. A write that
// returns rows (INSERT ... RETURNING) run on its own starts as a read and, when the server commits
// in between, fails at once with SQLITE_BUSY (a stale snapshot waits for no busy timeout). In a
// write batch the lock is taken first (BEGIN IMMEDIATE), which waits for the server's commit.
import type { Client, InStatement, ResultSet } from '@libsql/client';

export async function writeReturning(db: Client, statement: InStatement): Promise<ResultSet> {
  return (await db.batch([statement], 'write'))[0]!;
}
