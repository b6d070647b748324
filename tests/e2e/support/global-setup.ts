// Runs after the web server has started (and so has migrated and seeded the fresh database) and
// before any test: writes the language copies of the demo accounts (support/accounts.ts).
import { createClient, type Client } from '@libsql/client';
import { join } from 'node:path';
import { COPIES, copyEmail } from './accounts';

async function columns(db: Client, table: string): Promise<string[]> {
  const r = await db.execute(`PRAGMA table_info(${table})`);
  return r.rows.map((row) => String(row.name)).filter((c) => c !== 'id');
}

export default async function globalSetup() {
  const dir = process.env.E2E_DB_DIR;
  if (!dir) throw new Error('E2E_DB_DIR is set by playwright.config.ts');
  const db = createClient({ url: `file:${join(dir, 'portal.db')}` });
  try {
    // Copy every column but the id, so the copy follows the schema as it grows.
    const userCols = await columns(db, 'users');
    const memberCols = await columns(db, 'tenant_users');
    const select = (cols: string[], overrides: Record<string, string>) => cols.map((c) => overrides[c] ?? c).join(', ');
    for (const [email, language] of COPIES) {
      const copy = copyEmail(email, language);
      const inserted = await db.execute({
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
}
