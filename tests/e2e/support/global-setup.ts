// Runs after the web server has started (and so has migrated and seeded the fresh database) and
// before any test: starts the SMTP receiver the server sends its mail to (until the run ends),
// writes the language copies of the demo accounts (support/accounts.ts) and the accounts of the
// password journeys (support/password-accounts.ts), whose invitation and verification mail it sends.
import { createClient, type Client } from '@libsql/client';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COPIES, copyEmail } from './accounts';
import { mailDir } from './mail';
import { startMailReceiver } from './mail-receiver';
import { startIdpServer } from './idp-server';
import { serverEnv } from './server-env';
import { writeReturning } from './db-write';

async function columns(db: Client, table: string): Promise<string[]> {
  const r = await db.execute(`PRAGMA table_info(${table})`);
  return r.rows.map((row) => String(row.name)).filter((c) => c !== 'id');
}

export default async function globalSetup() {
  const dir = process.env.E2E_DB_DIR;
  if (!dir) throw new Error('E2E_DB_DIR is set by playwright.config.ts');
  const receiver = await startMailReceiver(Number(process.env.E2E_SMTP_PORT), mailDir());
  const idp = await startIdpServer(Number(process.env.E2E_IDP_PORT), Number(process.env.E2E_IDP_TLS_PORT));
  const db = createClient({ url: `file:${join(dir, 'portal.db')}` });
  try {
    // Copy every column but the id, so the copy follows the schema as it grows.
    const userCols = await columns(db, 'users');
    const memberCols = await columns(db, 'tenant_users');
    const select = (cols: string[], overrides: Record<string, string>) => cols.map((c) => overrides[c] ?? c).join(', ');
    for (const [email, language] of COPIES) {
      const copy = copyEmail(email, language);
      const inserted = await writeReturning(db, {
        sql: `INSERT INTO users (${userCols.join(', ')}) SELECT ${select(userCols, { email: '?', language: '?' })} FROM users WHERE email = ? RETURNING id`,
        args: [copy, language, email],
      });
      const id = inserted.rows[0]?.id;
      if (id === undefined || id === null) throw new Error(`demo user ${email} is missing: was the database seeded?`);
      await db.execute({
        sql: `INSERT INTO tenant_users (${memberCols.join(', ')}) SELECT ${select(memberCols, { user_id: '?' })} FROM tenant_users WHERE user_id = (SELECT id FROM users WHERE email = ?)`,
        args: [id, email],
      });
    }
  } finally {
    db.close();
  }
  // With tsx, in the server's own environment (its database, SMTP receiver and public URL); not
  // synchronously: the receiver in this process must answer the mail the script sends.
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'tests/e2e/support/seed-password-accounts.ts'], {
    cwd: root,
    env: { ...process.env, ...serverEnv() },
  });
  // Playwright calls the returned function when the run ends (before global-teardown.ts).
  return () => {
    receiver.close();
    for (const s of idp) s.close();
  };
}
