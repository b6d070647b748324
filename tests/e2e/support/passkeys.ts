// What the passkey journeys need from outside the browser (decision 0039): accounts of their own
// with no passkey yet, and a tenant of their own whose policy requires passkeys (a policy on Acme
// would stop every other journey at the enrolment screen). Short, idempotent writes to the server's
// database file, like support/twofa.ts.
import { createClient, type Client } from '@libsql/client';
import { join } from 'node:path';
import { ensureDedicatedUsers, type DedicatedUser } from './dedicated-users';
import { writeReturning } from './db-write';

function open(): Client {
  const dir = process.env.E2E_DB_DIR;
  if (!dir) throw new Error('E2E_DB_DIR is set by playwright.config.ts');
  return createClient({ url: `file:${join(dir, 'portal.db')}`, timeout: 5000 });
}

/** Dedicated users with no passkey and no passkey or password-check throttles. */
export async function ensurePasskeyUsers(users: DedicatedUser[]): Promise<Record<string, number>> {
  const ids = await ensureDedicatedUsers(users);
  const db = open();
  try {
    for (const id of Object.values(ids)) {
      await db.batch(
        [
          { sql: 'DELETE FROM passkeys WHERE user_id = ?', args: [id] },
          { sql: "DELETE FROM throttles WHERE key IN ('passkey-add:' || ?1, 'verify-password:' || ?1)", args: [id] },
        ],
        'write',
      );
    }
  } finally {
    db.close();
  }
  return ids;
}

/** A contracted tenant with the card app, subscribed to 2FA enforcement, with this passkey policy
 *  (every member requires one, by default), and `emails` as members (their Acme membership copied). */
export async function ensurePasskeyTenant(label: string, name: string, emails: string[], policy: 'allowed' | 'admins' | 'everyone' = 'everyone'): Promise<number> {
  const db = open();
  try {
    const r = await writeReturning(db, {
      sql: `INSERT INTO tenants (name, initial_subdomain, status, is_feature_twofa_enforcement_subscribed, passkey_policy)
            VALUES (?, ?, 'contracted', 1, ?)
            ON CONFLICT (initial_subdomain) DO UPDATE SET name = excluded.name, is_feature_twofa_enforcement_subscribed = 1, passkey_policy = excluded.passkey_policy
            RETURNING id`,
      args: [name, label, policy],
    });
    const id = Number(r.rows[0]!.id);
    await db.execute({ sql: "INSERT INTO tenant_apps (tenant_id, app, seats) VALUES (?, 'meishi', NULL) ON CONFLICT DO NOTHING", args: [id] });
    const cols = (await db.execute('PRAGMA table_info(tenant_users)')).rows.map((row) => String(row.name)).filter((c) => c !== 'id');
    const select = cols.map((c) => (c === 'tenant_id' ? '?' : c)).join(', ');
    for (const email of emails) {
      await db.execute({
        sql: `INSERT INTO tenant_users (${cols.join(', ')}) SELECT ${select} FROM tenant_users
              WHERE user_id = (SELECT id FROM users WHERE email = ?) AND tenant_id = (SELECT id FROM tenants WHERE initial_subdomain = 'acme')
              ON CONFLICT DO NOTHING`,
        args: [id, email],
      });
    }
    return id;
  } finally {
    db.close();
  }
}
