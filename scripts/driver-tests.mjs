// The integration files `npm test` runs a second time through @libsql/client's file driver
// (DB_DRIVER=libsql-client, decision 0031). The two drivers share drizzle, the schema and every
// query; where they can differ is how a statement reaches SQLite: batches (and their rollback),
// rowsAffected / RETURNING that a guard decides on, prepared and batched reads, values read by position,
// unique-violation errors, parallel writers and locks, error codes,
// migrations, statement counts, and code that opens a driver itself. A file that does none of these
// reads and writes through the same drizzle calls on either driver, and its second pass repeated
// the first (docs/TESTING.md has the figures). Chosen by content, so a new file that does one of
// these joins the second pass without a list to keep; `// driver-sensitive` in a file adds it by hand.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../tests/integration/', import.meta.url));

export const DRIVER_SENSITIVE =
  /driver-sensitive|DB_DRIVER|openLibsql|db-libsql|db-sqlite-file|createClient|\.batch\(|rowsAffected|lastInsertRowid|RETURNING|SQLITE_|migrat|onQuery|roundTrip|round trip|firstRow|readTogether|prepared|readRequestAuth|getTableColumns|isUniqueViolation|Promise\.all(Settled)?\(|concurren|parallel/i;

/** Paths (relative to the repository) of the integration files the second driver runs. */
export function driverSensitiveFiles() {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.test.ts') && DRIVER_SENSITIVE.test(readFileSync(join(DIR, f), 'utf8')))
    .sort()
    .map((f) => `tests/integration/${f}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(driverSensitiveFiles().join('\n'));
