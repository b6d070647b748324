// Two-factor setup in the account (spec 01 "Two-factor setup (account)", section 8 "Two-factor enable").
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, backupCodes, tenants, tenantUsers, twofaPending, twofaSecrets, users } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { codeIn, lastMail } from '../support/mail';
import { totpAt } from '../support/totp';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const PW = 'Portal-Demo-2026!';

async function verified(email = 'user@acme.test'): Promise<TestClient> {
  const b = h.client(ACME);
  expect((await b.login(email)).body.message).toBe('success');
  expect((await b.post('/accounts/api/password/verify', { password: PW, redirect: 'twofa' })).body).toEqual({ message: 'verified' });
  return b;
}

describe('POST password/verify', () => {
  it('wrong_password for a wrong one; the setup calls need it within 15 minutes', async () => {
    const b = h.client(ACME);
    await b.login('user@acme.test');
    expect((await b.get('/accounts/api/twofa/backup-codes')).body).toEqual({ message: 'password-verification-required' });
    expect((await b.post('/accounts/api/password/verify', { password: 'nope' })).body).toEqual({ message: 'wrong_password' });
    await b.post('/accounts/api/password/verify', { password: PW });
    expect((await b.post('/accounts/api/twofa/setup', { method: 'app' })).status).toBe(200);
    expect((await b.get('/accounts/api/twofa/backup-codes')).status).toBe(200);
    h.clock.advance(15 * 60_000 + 1);
    expect((await b.get('/accounts/api/twofa/backup-codes')).status).toBe(403);
    expect((await b.post('/accounts/api/twofa/setup', { method: 'app' })).status).toBe(403);
  });

  it('is refused to SSO users, with every setup call', async () => {
    const b = await verified();
    await h.deps.db.update(tenants).set({ isSsoEnabled: true }).where(eq(tenants.id, 1));
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(eq(tenantUsers.id, 2));
    for (const [m, p] of [['POST', '/accounts/api/password/verify'], ['POST', '/accounts/api/twofa/setup'], ['GET', '/accounts/api/twofa/backup-codes'], ['GET', '/accounts/api/twofa/app/qr'], ['DELETE', '/accounts/api/twofa']] as const) {
      expect((await b.request(m, p, m === 'POST' ? { json: { password: PW, method: 'app' } } : {})).status, p).toBe(403);
    }
  });
});

describe('app setup: backup codes, QR, manual code, enable', () => {
  it('enables the authenticator with a code from the shown secret; backup codes are stored hashed and work once', async () => {
    const b = await verified();
    const started = (await b.post('/accounts/api/twofa/setup', { method: 'app' })).body;
    const codes = started.backupCodes as string[];
    expect(codes).toHaveLength(5);
    for (const c of codes) expect(c).toMatch(/^\d{5} \d{5}$/);
    expect((await b.get('/accounts/api/twofa/backup-codes')).body.backupCodes).toEqual(codes);
    const qr = (await b.get('/accounts/api/twofa/app/qr')).body.qrCode as string;
    expect(qr).toBe(started.qrCode);
    expect(Buffer.from(qr.split(',')[1]!, 'base64').toString()).toContain('<svg');
    const manual = (await b.get('/accounts/api/twofa/app/manual-code')).body.manualCode as string;
    expect(manual).toBe(started.manualCode);
    const secret = manual.replace(/ /g, '');
    expect((await b.post('/accounts/api/twofa/app', { otp: '000000' })).body).toEqual({ message: 'invalid-otp' });
    const r = await b.post('/accounts/api/twofa/app', { otp: await totpAt(secret, h.clock.now()) });
    expect(r.body).toEqual({ message: 'success', twofa_method: 'app' });
    expect((await b.get('/accounts/api/user')).body.user.twofa_method).toBe('app');
    const stored = await h.deps.db.select().from(backupCodes).where(eq(backupCodes.userId, 2));
    expect(stored).toHaveLength(5);
    for (const row of stored) expect(codes.map((c) => c.replace(' ', ''))).not.toContain(row.codeHash);
    const [s] = await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, 2));
    expect(s!.secretCiphertext).not.toContain(secret);
    // Sign in again with a shown backup code.
    await b.post('/accounts/api/logout');
    expect((await b.login('user@acme.test')).body.message).toBe('enter-otp');
    expect((await b.post('/accounts/api/backup-code', { backupCode: codes[2] })).status).toBe(200);
  });

  it('GETs never create or replace a setup: without one they answer no-pending-setup, and a cross-site GET changes nothing', async () => {
    const b = await verified();
    for (const p of ['/accounts/api/twofa/backup-codes', '/accounts/api/twofa/app/qr', '/accounts/api/twofa/app/manual-code']) {
      const r = await b.get(p);
      expect(r.status, p).toBe(409);
      expect(r.body).toEqual({ message: 'no-pending-setup' });
    }
    expect(await h.deps.db.select().from(twofaPending)).toHaveLength(0);
    const started = (await b.post('/accounts/api/twofa/setup', { method: 'app' })).body;
    // A navigation from another site (no CSRF headers) cannot start a new setup over this one.
    const forged = await b.request('POST', '/accounts/api/twofa/setup', { json: { method: 'app' }, raw: true, headers: { origin: 'https://evil.example' } });
    expect(forged.status).toBe(403);
    await b.get('/accounts/api/twofa/backup-codes');
    expect((await b.get('/accounts/api/twofa/app/manual-code')).body.manualCode).toBe(started.manualCode);
  });

  it('QR and manual key fetched in parallel are the one stored secret, and its code enables the factor', async () => {
    const b = await verified();
    await b.post('/accounts/api/twofa/setup', { method: 'app' });
    const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => b.get(i % 2 ? '/accounts/api/twofa/app/qr' : '/accounts/api/twofa/app/manual-code')));
    const manuals = new Set(rs.filter((_, i) => i % 2 === 0).map((r) => r.body.manualCode));
    const qrs = new Set(rs.filter((_, i) => i % 2 === 1).map((r) => r.body.qrCode));
    expect(manuals.size).toBe(1);
    expect(qrs.size).toBe(1);
    const secret = [...manuals][0]!.replace(/ /g, '');
    const r = await b.post('/accounts/api/twofa/app', { otp: await totpAt(secret, h.clock.now()) });
    expect(r.body).toEqual({ message: 'success', twofa_method: 'app' });
  });

  it('turning 2FA off removes the factor, backup codes and remembered devices', async () => {
    // The demo 2FA user signs in with a code (remembering this device), then re-enters the password.
    const b = h.client(ACME);
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
    await b.post('/accounts/api/otp/verify', { otp: await totpAt('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', h.clock.now()), rememberDevice: true });
    await b.post('/accounts/api/password/verify', { password: PW });
    expect((await b.request('DELETE', '/accounts/api/twofa')).body).toEqual({ message: 'success' });
    expect((await h.deps.db.select().from(users).where(eq(users.id, 4)).get())!.twofaMethod).toBeNull();
    expect(await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, 4))).toHaveLength(0);
    expect((await b.get('/accounts/api/session-devices')).body.rememberedDevices).toEqual([]);
    await b.post('/accounts/api/logout');
    expect((await b.login('totp@acme.test')).body.message).toBe('success');
  });
});

describe('otpauth link and backup codes regenerated later (decision 0033)', () => {
  it('the started setup answers its secret as an otpauth:// link too, the same secret as the key', async () => {
    const b = await verified();
    const started = (await b.post('/accounts/api/twofa/setup', { method: 'app' })).body;
    const secret = (started.manualCode as string).replace(/ /g, '');
    const url = new URL(started.otpauthUrl as string);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(decodeURIComponent(url.pathname)).toContain('user@acme.test');
    expect((await b.get('/accounts/api/twofa/app/manual-code')).body).toEqual({ manualCode: started.manualCode, otpauthUrl: started.otpauthUrl });
  });

  it('with the password: five new codes, the old ones stop working, the audit log says so', async () => {
    const b = h.client(ACME);
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
    expect((await b.post('/accounts/api/otp/verify', { otp: await totpAt('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', h.clock.now()), rememberDevice: false })).status).toBe(200);
    const first = await b.post('/accounts/api/twofa/backup-codes/regenerate', { password: PW });
    expect(first.status).toBe(200);
    const old = first.body.backupCodes as string[];
    expect(old).toHaveLength(5);
    // A wrong password changes nothing.
    const wrong = await b.post('/accounts/api/twofa/backup-codes/regenerate', { password: 'nope' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ message: 'wrong_password' });
    const second = (await b.post('/accounts/api/twofa/backup-codes/regenerate', { password: PW })).body.backupCodes as string[];
    expect(second).toHaveLength(5);
    for (const c of second) expect(c).toMatch(/^\d{5} \d{5}$/);
    expect(second.filter((c) => old.includes(c))).toEqual([]);
    expect(await h.deps.db.select().from(backupCodes).where(eq(backupCodes.userId, 4))).toHaveLength(5);
    const events = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'twofa.backup_codes_regenerated'));
    expect(events.map((e) => e.actorUserId)).toEqual([4, 4]);
    // An old code no longer signs in; a new one does.
    await b.post('/accounts/api/logout');
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
    expect((await b.post('/accounts/api/backup-code', { backupCode: old[0] })).body).toEqual({ message: 'invalid-backup-code' });
    expect((await b.post('/accounts/api/backup-code', { backupCode: second[0] })).status).toBe(200);
  });

  it('is not for an account without two-factor, nor for someone signed out', async () => {
    const b = h.client(ACME);
    await b.login('user@acme.test');
    expect((await b.post('/accounts/api/twofa/backup-codes/regenerate', { password: PW })).body).toEqual({ message: 'not-applicable' });
    await b.post('/accounts/api/logout');
    expect((await b.post('/accounts/api/twofa/backup-codes/regenerate', { password: PW })).status).toBe(401);
  });
});

describe('SMS setup', () => {
  it('validates a mobile number, sends a code to its E.164 form, enables SMS with it', async () => {
    const b = await verified();
    const bad = await b.post('/accounts/api/twofa/sms/otp', { contact: '+81312345678' }); // a Tokyo landline
    expect(bad.status).toBe(422);
    expect(bad.body.errors.contact).toEqual(['有効な携帯電話番号を入力してください']);
    expect((await b.post('/accounts/api/twofa/sms/otp', { contact: '090-1234-5678' })).status).toBe(422);
    await b.post('/accounts/api/twofa/setup', { method: 'sms' });
    expect((await b.post('/accounts/api/twofa/sms/otp', { contact: '+819012345678' })).body).toEqual({ message: 'sent' });
    const sms = await lastMail(h, '+819012345678');
    expect(sms.channel).toBe('sms');
    const early = await b.post('/accounts/api/twofa/sms/otp/resend');
    expect(early.status).toBe(429);
    expect(early.body.message).toBe('Too Many Attempts.');
    const r = await b.post('/accounts/api/twofa/sms', { otp: codeIn(sms.body) });
    expect(r.body).toEqual({ message: 'success', twofa_method: 'sms' });
    expect((await b.get('/accounts/api/user')).body.user.contact_number).toBe('+819012345678');
  });

  it('limits SMS per user per hour (toll fraud)', async () => {
    const b = await verified();
    for (let i = 0; i < 5; i++) {
      expect((await b.post('/accounts/api/twofa/sms/otp', { contact: `+8190123456${70 + i}` })).status).toBe(200);
    }
    expect((await b.post('/accounts/api/twofa/sms/otp', { contact: '+819012345699' })).status).toBe(429);
  });
});
