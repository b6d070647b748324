// Loads the demo data (DESIGN.md section 7) when the database has no tenant yet.
//   tsx scripts/seed.ts --d1      the local D1 that `wrangler dev` uses (via getPlatformProxy)
//   tsx scripts/seed.ts --d1 --persist-to DIR   the local D1 of `wrangler dev --persist-to DIR`
//   tsx scripts/seed.ts           the Node entry's libSQL database (LIBSQL_URL or .data/portal.db)
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadArgon2Node } from '../src/adapters/argon2-node';
import { openD1 } from '../src/adapters/db-d1';
import { migrateLibsql, openLibsql } from '../src/adapters/db-libsql';
import { readConfig } from '../src/config';
import type { Db } from '../src/db/client';
import { isEmpty, seedDemo } from '../src/db/seed';
import { demoSeedTools } from '../src/domain/operations/demo-data';
import { createPasswordHasher } from '../src/domain/security/password-hashing';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = readConfig({ DEV_MODE: 'true', ...process.env });
const passwords = createPasswordHasher(loadArgon2Node);

async function withDb(run: (db: Db) => Promise<void>) {
  if (process.argv.includes('--d1')) {
    const { getPlatformProxy } = await import('wrangler');
    // wrangler's --persist-to DIR keeps its data in DIR/v3; getPlatformProxy takes that v3 path.
    const i = process.argv.indexOf('--persist-to');
    const persistTo = i > 0 ? process.argv[i + 1] : undefined;
    if (i > 0 && !persistTo) throw new Error('--persist-to needs a directory');
    const persist = persistTo ? { path: join(resolve(persistTo), 'v3') } : true;
    const proxy = await getPlatformProxy<{ DB: Parameters<typeof openD1>[0] }>({ persist });
    try {
      await run(openD1(proxy.env.DB));
    } finally {
      await proxy.dispose();
    }
    return;
  }
  const url = process.env.LIBSQL_URL ?? `file:${root}.data/portal.db`;
  if (!process.env.LIBSQL_URL) mkdirSync(`${root}.data`, { recursive: true });
  const { db, client } = openLibsql(url, { authToken: process.env.LIBSQL_AUTH_TOKEN });
  try {
    await migrateLibsql(db, `${root}migrations`);
    await run(db);
  } finally {
    client.close();
  }
}

await withDb(async (db) => {
  if (!(await isEmpty(db))) {
    console.log('Demo data: the database already has tenants; left as it is.');
    return;
  }
  await seedDemo(db, demoSeedTools(passwords, config.DATA_ENCRYPTION_KEY), Date.now());
  console.log('Demo data loaded (DESIGN.md section 7). Every demo password is Portal-Demo-2026!');
});
