// Accounts of their own for journeys that change what other journeys rely on: logging out every
// other device of a user, an unverified address, a login that must meet the additional challenge.
// Each is a copy of a demo user (same name, password hash and memberships) under its own email,
// written straight into the server's database file.
//
// Writing while the server runs is safe: the file is in WAL mode and both the server's connections
// (src/adapters/db-libsql.ts) and this one wait up to 5 s for a lock instead of failing, and these
// are single short statements. The copy is idempotent (a retried worker runs it again).
import type { Client } from '@libsql/client';
import { openServerDb, writeReturning } from './db-write';

async function columns(db: Client, table: string): Promise<string[]> {
  const r = await db.execute(`PRAGMA table_info(${table})`);
  return r.rows.map((row) => String(row.name)).filter((c) => c !== 'id');
}

export interface DedicatedUser {
  /** The demo user to copy (src/db/seed.ts). */
  from: string;
  email: string;
  language: 'ja' | 'en';
  /** false: email_verified_at is NULL (the my-account banner shows). */
  verified?: boolean;
}

/**
 * Creates the users that do not exist yet, resets the state the journeys depend on, and returns
 * their ids by email.
 */
export async function ensureDedicatedUsers(users: DedicatedUser[]): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  const db = openServerDb();
  try {
    const userCols = await columns(db, 'users');
    const memberCols = await columns(db, 'tenant_users');
    const select = (cols: string[], overrides: Record<string, string>) => cols.map((c) => overrides[c] ?? c).join(', ');
    for (const u of users) {
      const existing = await db.execute({ sql: 'SELECT id FROM users WHERE email = ?', args: [u.email] });
      let id = existing.rows[0]?.id;
      if (id === undefined) {
        const inserted = await writeReturning(db, {
          sql: `INSERT INTO users (${userCols.join(', ')}) SELECT ${select(userCols, { email: '?', language: '?' })} FROM users WHERE email = ? RETURNING id`,
          args: [u.email, u.language, u.from],
        });
        id = inserted.rows[0]?.id;
        if (id === undefined || id === null) throw new Error(`demo user ${u.from} is missing: was the database seeded?`);
        await db.execute({
          sql: `INSERT INTO tenant_users (${memberCols.join(', ')}) SELECT ${select(memberCols, { user_id: '?' })} FROM tenant_users WHERE user_id = (SELECT id FROM users WHERE email = ?)`,
          args: [id, u.from],
        });
      }
      // A retried test starts from the same state: no sessions, no known devices, as verified as asked.
      await db.batch(
        [
          { sql: 'UPDATE users SET email_verified_at = ? WHERE id = ?', args: [u.verified === false ? null : Date.now(), id] },
          { sql: 'DELETE FROM sessions WHERE user_id = ?', args: [id] },
          { sql: 'DELETE FROM known_devices WHERE user_id = ?', args: [id] },
          { sql: 'DELETE FROM login_challenges WHERE user_id = ?', args: [id] },
          { sql: "DELETE FROM throttles WHERE key = 'verification-mail:' || ?", args: [id] },
        ],
        'write',
      );
      ids[u.email] = Number(id);
    }
  } finally {
    db.close();
  }
  return ids;
}

/**
 * Moves the user's pending additional challenge back in time, standing in for minutes the journey
 * does not wait: `resendable` lets the 60-second resend cooldown pass, `expired` lets the code's
 * 10 minutes pass (the pending login itself stays).
 */
export async function ageAdditionalChallenge(email: string, what: 'resendable' | 'expired'): Promise<void> {
  const db = openServerDb();
  try {
    const sql =
      what === 'resendable'
        ? 'UPDATE login_challenges SET code_sent_at = code_sent_at - 61000 WHERE completed_at IS NULL AND kind = ? AND user_id = (SELECT id FROM users WHERE email = ?)'
        : 'UPDATE login_challenges SET code_expires_at = ? - 1 WHERE completed_at IS NULL AND kind = ? AND user_id = (SELECT id FROM users WHERE email = ?)';
    const args = what === 'resendable' ? ['additional_challenge', email] : [Date.now(), 'additional_challenge', email];
    const r = await db.execute({ sql, args });
    if (r.rowsAffected !== 1) throw new Error(`expected one pending additional challenge for ${email}, found ${r.rowsAffected}`);
  } finally {
    db.close();
  }
}

/** The 6-digit code in a mail's text. */
export function codeIn(text: string): string {
  const m = /\b(\d{6})\b/.exec(text);
  if (!m) throw new Error(`no code in: ${text}`);
  return m[1]!;
}
