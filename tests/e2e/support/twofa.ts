// What the two-factor journeys need from outside the browser: accounts of their own with no
// second factor yet, tenants of their own that enforce two-factor (enforcement is per tenant:
// turning it on for Acme would stop every other journey at the setup screen), the SMS the portal
// wrote to the dev outbox (the e2e server has no SMS provider), and authenticator codes computed
// from the secret the page shows.
//
// Writes go straight into the server's database file, like support/dedicated-users.ts does (WAL,
// and both sides wait for a lock): single short statements, idempotent, so a retried test starts
// from the same state.
import { expect, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { readConfig } from '../../../src/config';
import { encryptSecret } from '../../../src/domain/security/secrets';
import { backupCodeHash, formatBackupCode, newBackupCodes, newTotpSecret } from '../../../src/domain/twofa/codes';
import { BASE } from '../fixtures';
import { ensureDedicatedUsers, type DedicatedUser } from './dedicated-users';
import { serverEnv } from './server-env';
import { openServerDb, writeReturning } from './db-write';

/**
 * Dedicated users (copies of a demo user, see dedicated-users.ts) with no second factor, no
 * pending setup, no remembered device and no two-factor, password-check or SMS throttles.
 */
export async function ensureTwofaUsers(users: DedicatedUser[]): Promise<Record<string, number>> {
  const ids = await ensureDedicatedUsers(users);
  const db = openServerDb();
  try {
    for (const id of Object.values(ids)) {
      await db.batch(
        [
          { sql: 'DELETE FROM twofa_secrets WHERE user_id = ?', args: [id] },
          { sql: 'DELETE FROM twofa_pending WHERE user_id = ?', args: [id] },
          { sql: 'DELETE FROM backup_codes WHERE user_id = ?', args: [id] },
          { sql: 'DELETE FROM remembered_devices WHERE user_id = ?', args: [id] },
          { sql: 'UPDATE users SET twofa_method = NULL, contact_number = NULL WHERE id = ?', args: [id] },
          {
            sql: "DELETE FROM throttles WHERE key IN ('2fa-login:' || ?1, '2fa-setup:' || ?1, 'verify-password:' || ?1, 'sms:user:' || ?1)",
            args: [id],
          },
        ],
        'write',
      );
    }
  } finally {
    db.close();
  }
  return ids;
}

export interface EnforcingTenant {
  /** Initial subdomain: the journey's host label. */
  label: string;
  name: string;
  skipAllowed: boolean;
  /** The tenant's password policy minimum (default 8); the demo password has 17 characters. */
  minimumPasswordLength?: number;
}

/**
 * A contracted tenant with the card app that has subscribed to 2FA enforcement and enforces it,
 * and `emails` as its members (their Acme membership copied: normal members with the card app).
 */
export async function ensureEnforcingTenant(tenant: EnforcingTenant, emails: string[]): Promise<number> {
  const db = openServerDb();
  try {
    const r = await writeReturning(db, {
      sql: `INSERT INTO tenants (name, initial_subdomain, status, is_feature_twofa_enforcement_subscribed, is_twofa_enforced, is_twofa_skip_allowed, minimum_password_length)
            VALUES (?, ?, 'contracted', 1, 1, ?, ?)
            ON CONFLICT (initial_subdomain) DO UPDATE SET name = excluded.name, is_feature_twofa_enforcement_subscribed = 1, is_twofa_enforced = 1,
              is_twofa_skip_allowed = excluded.is_twofa_skip_allowed, minimum_password_length = excluded.minimum_password_length
            RETURNING id`,
      args: [tenant.name, tenant.label, tenant.skipAllowed ? 1 : 0, tenant.minimumPasswordLength ?? 8],
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

/** The 6-digit code of the newest SMS to `e164` written at or after `since`, waiting for it. */
export async function waitForSmsCode(e164: string, since: number, timeout = 10_000): Promise<string> {
  const db = openServerDb();
  try {
    const deadline = Date.now() + timeout;
    for (;;) {
      const r = await db.execute({
        sql: "SELECT body FROM outbox WHERE channel = 'sms' AND recipient = ? AND created_at >= ? ORDER BY id DESC LIMIT 1",
        args: [e164, since],
      });
      const body = r.rows[0]?.body;
      if (typeof body === 'string') {
        const m = /\b(\d{6})\b/.exec(body);
        if (!m) throw new Error(`no code in the SMS: ${body}`);
        return m[1]!;
      }
      if (Date.now() > deadline) throw new Error(`no SMS to ${e164} since ${new Date(since).toISOString()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    db.close();
  }
}

/** Every SMS to `e164` at or after `since`. */
export async function smsCount(e164: string, since: number): Promise<number> {
  const db = openServerDb();
  try {
    const r = await db.execute({ sql: "SELECT count(*) AS n FROM outbox WHERE channel = 'sms' AND recipient = ? AND created_at >= ?", args: [e164, since] });
    return Number(r.rows[0]!.n);
  } finally {
    db.close();
  }
}

/** Lets the minute between SMS codes of the user's pending login pass (a minute the journey does not wait). */
export async function ageLoginSms(email: string, kind: 'otp' | 'enable_twofa' = 'otp'): Promise<void> {
  const db = openServerDb();
  try {
    const r = await db.execute({
      sql: 'UPDATE login_challenges SET code_sent_at = code_sent_at - 61000 WHERE completed_at IS NULL AND kind = ? AND user_id = (SELECT id FROM users WHERE email = ?)',
      args: [kind, email],
    });
    if (r.rowsAffected !== 1) throw new Error(`expected one pending login of ${email}, found ${r.rowsAffected}`);
  } finally {
    db.close();
  }
}

const PERIOD_S = 30;
const SEND_MARGIN_MS = 5000;

/** "ABCD EFGH ..." as the page shows it -> the base32 secret. */
export function secretFromManualCode(shown: string): string {
  return shown.replace(/\s+/g, '');
}

/**
 * Authenticator codes for one secret, as a phone would show them. The server accepts a code once
 * (a newer time step each time) and one step of clock skew either way (docs/decisions/0008): so
 * the next code is the earliest step after the last one used among the previous, current and next
 * step, and a journey needs no 30-second wait for up to three codes in a row.
 */
export class Authenticator {
  private lastStep: number | null = null;
  constructor(readonly secret: string) {}

  private static step(nowMs: number): number {
    return Math.floor(nowMs / 1000 / PERIOD_S);
  }

  /** The code of a step that the server accepts now and has not accepted yet. */
  async next(): Promise<string> {
    for (;;) {
      // The request reaches the server up to a few seconds later (typing, a busy machine): the
      // step must be accepted at any moment of that margin.
      const now = Date.now();
      const current = Authenticator.step(now);
      const earliest = Authenticator.step(now + SEND_MARGIN_MS) - 1;
      const latest = current + 1;
      const step = Math.max(earliest, this.lastStep === null ? earliest : this.lastStep + 1);
      if (step <= latest) {
        this.lastStep = step;
        return generate({ secret: this.secret, epoch: step * PERIOD_S });
      }
      // All three steps used: wait for the next one.
      await new Promise((resolve) => setTimeout(resolve, ((current + 1) * PERIOD_S * 1000 - now) + 50));
    }
  }

  /** A code the server refuses now: one from five steps ago. */
  async wrong(): Promise<string> {
    const stale = await generate({ secret: this.secret, epoch: (Authenticator.step(Date.now()) - 5) * PERIOD_S });
    const fresh = await Promise.all([-1, 0, 1].map((d) => generate({ secret: this.secret, epoch: (Authenticator.step(Date.now()) + d) * PERIOD_S })));
    return fresh.includes(stale) ? (stale === '000000' ? '111111' : '000000') : stale;
  }
}

// ---------------------------------------------------------------------------------------------
// Steps in the browser

/** Ends the session the way the toolbar's Logout does (POST logout), keeping the browser's other cookies. */
export async function signOut(page: Page): Promise<void> {
  const status = await page.evaluate(async (base) => {
    const r = await fetch(`${base}/api/logout`, { method: 'POST', headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
    return r.status;
  }, BASE);
  expect(status).toBe(200);
}

/**
 * Turns two-factor on for a user straight in the database, as a finished setup leaves it (the
 * setup screens have journeys of their own): the secret encrypted with the server's data key, the
 * backup codes as keyed hashes. Returns the authenticator (app) and the backup codes as shown.
 */
export async function seedTwofa(email: string, factor: { method: 'app' } | { method: 'sms'; phone: string }): Promise<{ authenticator: Authenticator; backupCodes: string[] }> {
  const key = readConfig(serverEnv()).DATA_ENCRYPTION_KEY;
  const secret = newTotpSecret();
  const codes = newBackupCodes();
  const db = openServerDb();
  try {
    const row = await db.execute({ sql: 'SELECT id FROM users WHERE email = ?', args: [email] });
    const id = Number(row.rows[0]!.id);
    const now = Date.now();
    const app = factor.method === 'app';
    await db.batch(
      [
        { sql: 'DELETE FROM twofa_secrets WHERE user_id = ?', args: [id] },
        { sql: 'DELETE FROM backup_codes WHERE user_id = ?', args: [id] },
        {
          sql: 'INSERT INTO twofa_secrets (user_id, method, secret_ciphertext, phone_e164, last_used_step, confirmed_at, created_at) VALUES (?, ?, ?, ?, NULL, ?, ?)',
          args: [id, factor.method, app ? encryptSecret(key, secret) : null, app ? null : factor.phone, now, now],
        },
        ...codes.map((c) => ({ sql: 'INSERT INTO backup_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)', args: [id, backupCodeHash(key, id, c), now] })),
        { sql: 'UPDATE users SET twofa_method = ?, contact_number = ? WHERE id = ?', args: [factor.method, app ? null : factor.phone, id] },
      ],
      'write',
    );
  } finally {
    db.close();
  }
  return { authenticator: new Authenticator(secret), backupCodes: codes.map(formatBackupCode) };
}
