// The database handle every layer receives. Both runtimes get the same drizzle query API;
// the entries build it from a D1 binding or a libSQL client (src/adapters/db-*.ts).
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import type * as schema from './schema';

/**
 * D1 and libSQL share drizzle's async SQLite API, including `batch`. Writes that must be
 * atomic go through `db.batch([...])`; single-use codes use compare-and-set with RETURNING.
 */
export type Db = LibSQLDatabase<typeof schema>;
