// The second factor at login (spec 01 sections 4, 7, 8; issue: security rules).
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupCodes, rememberedDevices, sessions, tenants, twofaSecrets, users } from '../../src/db/schema';
import { backupCodeHash } from '../../src/domain/twofa/codes';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { codeIn, lastMail } from '../support/mail';
import { DEMO_TOTP_SECRET, totpAt } from '../support/totp';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';

async function atOtp(email = 'totp@acme.test', b: TestClient = h.client(ACME)) {
  const r = await b.login(email);
  expect(r.body.message).toBe('enter-otp');
  return b;
}
const code = (offset = 0) => totpAt(DEMO_TOTP_SECRET, h.clock.now(), offset);

describe('enter-otp with an authenticator app', () => {
  it('the demo user signs in with a code from JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP and gets user + password_compliance', async () => {
    const b = await atOtp();
    const r = await b.post('/accounts/api/otp/verify', { otp: await code(), rememberDevice: false });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ email: 'totp@acme.test', twofa_method: 'app', isTwofaEnabled: true });
    expect(r.body.password_compliance.meets_current_policy).toBe(true);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    const [s] = await h.deps.db.select().from(sessions);
    expect(s!.twofaPassed).toBe(true);
  });

  it('the half-signed-in state reaches nothing but the code endpoints', async () => {
    const b = await atOtp();
    expect((await b.get('/accounts/api/user')).status).toBe(401);
    expect((await b.get('/accounts/api/session-devices')).status).toBe(401);
    expect((await b.get('/accounts/my-account')).status).toBe(302);
    expect((await b.post('/accounts/api/handoff', { tenant_id: 1 })).status).toBe(401);
    expect((await b.get('/accounts/api/twofa/backup-codes')).status).toBe(401);
  });

  it('a wrong code is invalid-otp; a code is accepted once, and an older step after success is refused', async () => {
    const b = await atOtp();
    expect((await b.post('/accounts/api/otp/verify', { otp: '000000' })).body).toEqual({ message: 'invalid-otp' });
    const now = await code();
    expect((await b.post('/accounts/api/otp/verify', { otp: now })).status).toBe(200);
    const again = await atOtp();
    expect((await again.post('/accounts/api/otp/verify', { otp: now })).body).toEqual({ message: 'invalid-otp' });
    expect((await again.post('/accounts/api/otp/verify', { otp: await code(-1) })).body).toEqual({ message: 'invalid-otp' });
    h.clock.advance(30_000);
    expect((await again.post('/accounts/api/otp/verify', { otp: await code() })).status).toBe(200);
  });

  it('20 concurrent submissions of one valid code: exactly one session', async () => {
    const b = await atOtp();
    const otp = await code();
    const results = await Promise.all(Array.from({ length: 20 }, () => b.post('/accounts/api/otp/verify', { otp })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await h.deps.db.select().from(sessions)).toHaveLength(1);
  });

  it('failures are counted per account across login attempts and lock out with a duration', async () => {
    for (let i = 0; i < 5; i++) {
      const b = await atOtp(); // a new login each time does not reset the count
      expect((await b.post('/accounts/api/otp/verify', { otp: '000000' })).status).toBe(422);
    }
    const b = await atOtp();
    const locked = await b.post('/accounts/api/otp/verify', { otp: await code() });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('locked-out');
    expect(locked.body.duration).toBeGreaterThan(0);
    expect(locked.headers.get('retry-after')).toBe(String(locked.body.duration));
    h.clock.advance(15 * 60_000);
    const later = await atOtp();
    expect((await later.post('/accounts/api/otp/verify', { otp: await code() })).status).toBe(200);
  });

  it('half-width digits only, six of them', async () => {
    const b = await atOtp();
    for (const otp of ['１２３４５６', '12345', 'abcdef', '1234567']) expect((await b.post('/accounts/api/otp/verify', { otp })).status).toBe(422);
  });

  it('without a pending login: 401', async () => {
    expect((await h.client(ACME).post('/accounts/api/otp/verify', { otp: '123456' })).status).toBe(401);
  });
});

describe('remember this device', () => {
  it('skips the code next time from this browser, is listed in session devices and revocable', async () => {
    const b = await atOtp();
    await b.post('/accounts/api/otp/verify', { otp: await code(), rememberDevice: true });
    const cookie = b.cookies.get('portal_2fa_device')!;
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await h.deps.db.select().from(rememberedDevices);
    expect(row!.tokenHash).not.toBe(cookie);
    expect(row!.expiresAt - h.clock.now()).toBe(30 * 86_400_000);
    await b.post('/accounts/api/logout');
    expect((await b.login('totp@acme.test')).body.message).toBe('success');
    const devices = (await b.get('/accounts/api/session-devices')).body;
    expect(devices.rememberedDevices).toHaveLength(1);
    expect(devices.rememberedDevices[0].thisBrowser).toBe(true);
    // Another browser of the same user sees the entry, not as its own.
    const other = h.client(ACME);
    await other.login('totp@acme.test');
    h.clock.advance(30_000);
    expect((await other.post('/accounts/api/otp/verify', { otp: await code() })).status).toBe(200);
    const seen = (await other.get('/accounts/api/session-devices')).body.rememberedDevices;
    expect(seen.map((d: { id: string; thisBrowser: boolean }) => [d.id, d.thisBrowser])).toEqual([[devices.rememberedDevices[0].id, false]]);
    expect((await b.request('DELETE', `/accounts/api/session-devices/remembered/${devices.rememberedDevices[0].id}`)).body).toEqual({ message: 'success' });
    await b.post('/accounts/api/logout');
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
  });

  it('another browser is not remembered; a remembered device expires and is void after a password change', async () => {
    const b = await atOtp();
    await b.post('/accounts/api/otp/verify', { otp: await code(), rememberDevice: true });
    expect((await h.client(ACME).login('totp@acme.test')).body.message).toBe('enter-otp');
    h.clock.advance(60_000);
    await b.request('PATCH', '/accounts/api/password', { json: { current_password: 'Portal-Demo-2026!', new_password: 'Quiet-Harbor-Lantern-88', new_password_confirmation: 'Quiet-Harbor-Lantern-88' } });
    await b.post('/accounts/api/logout');
    expect((await b.login('totp@acme.test', 'Quiet-Harbor-Lantern-88')).body.message).toBe('enter-otp');
  });
});

describe('backup codes at login (/recovery)', () => {
  async function giveBackupCodes(codes: string[]) {
    for (const c of codes) await h.deps.db.insert(backupCodes).values({ userId: 4, codeHash: backupCodeHash(h.deps.config.DATA_ENCRYPTION_KEY, 4, c), createdAt: h.clock.now() });
  }

  it('a backup code signs in once; spaces are allowed; a used or wrong one is invalid-backup-code', async () => {
    await giveBackupCodes(['1234567890', '0987654321']);
    const b = await atOtp();
    const r = await b.post('/accounts/api/backup-code', { backupCode: '12345 67890' });
    expect(r.status).toBe(200);
    expect(r.body.user.email).toBe('totp@acme.test');
    const again = await atOtp();
    expect((await again.post('/accounts/api/backup-code', { backupCode: '1234567890' })).body).toEqual({ message: 'invalid-backup-code' });
    expect((await again.post('/accounts/api/backup-code', { backupCode: '1111111111' })).body).toEqual({ message: 'invalid-backup-code' });
    expect((await again.post('/accounts/api/backup-code', { backupCode: '09876-54321' })).status).toBe(200);
  });

  it('20 concurrent submissions of one backup code: exactly one success', async () => {
    await giveBackupCodes(['5555566666']);
    const b = await atOtp();
    const results = await Promise.all(Array.from({ length: 20 }, () => b.post('/accounts/api/backup-code', { backupCode: '5555566666' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('backup-code failures share the account lock-out', async () => {
    for (let i = 0; i < 5; i++) await (await atOtp()).post('/accounts/api/backup-code', { backupCode: '0000000000' });
    const r = await (await atOtp()).post('/accounts/api/backup-code', { backupCode: '0000000000' });
    expect(r.status).toBe(429);
    expect(r.body.message).toBe('locked-out');
  });
});

describe('SMS codes at login', () => {
  async function smsUser() {
    await h.deps.db.update(users).set({ twofaMethod: 'sms' }).where(eq(users.id, 4));
    await h.deps.db.update(twofaSecrets).set({ method: 'sms', secretCiphertext: null, phoneE164: '+819012345678' }).where(eq(twofaSecrets.userId, 4));
  }
  const smsCode = async () => codeIn((await lastMail(h, '+819012345678')).body);

  it('sends a code at the password step; the code signs in once, bound to that login attempt', async () => {
    await smsUser();
    const b = await atOtp();
    const c1 = await smsCode();
    const other = await atOtp(); // another attempt gets its own code
    const c2 = await smsCode();
    if (c1 !== c2) expect((await other.post('/accounts/api/otp/verify', { otp: c1 })).body).toEqual({ message: 'invalid-otp' });
    expect((await b.post('/accounts/api/otp/verify', { otp: c1 })).status).toBe(200);
    expect((await b.post('/accounts/api/otp/verify', { otp: c1 })).status).toBe(401);
  });

  it('an SMS code lives 10 minutes; resend waits 60 s (Retry-After) and does not reset the failure count', async () => {
    await smsUser();
    const b = await atOtp();
    const early = await b.post('/accounts/api/otp/resend');
    expect(early.status).toBe(429);
    expect(early.body.message).toBe('Too Many Attempts.');
    expect(early.headers.get('retry-after')).toBe('60');
    expect(Number(early.headers.get('x-ratelimit-reset'))).toBe(Math.ceil(h.clock.now() / 1000) + 60);
    for (let i = 0; i < 4; i++) await b.post('/accounts/api/otp/verify', { otp: '000000' });
    h.clock.advance(60_000);
    expect((await b.post('/accounts/api/otp/resend')).body).toEqual({ message: 'sent' });
    await b.post('/accounts/api/otp/verify', { otp: '000000' });
    expect((await b.post('/accounts/api/otp/verify', { otp: await smsCode() })).body.message).toBe('locked-out');
  });

  it('an expired SMS code is refused', async () => {
    await smsUser();
    const b = await atOtp();
    const c = await smsCode();
    h.clock.advance(10 * 60_000 - 1000);
    // The pending login itself also ends at 10 minutes: past it, the answer is 401.
    h.clock.advance(2000);
    expect([401, 422]).toContain((await b.post('/accounts/api/otp/verify', { otp: c })).status);
  });
});

describe('tenant enforcement at login', () => {
  async function enforce(skipAllowed = false) {
    await h.deps.db.update(tenants).set({ isTwofaEnforced: true, isTwofaSkipAllowed: skipAllowed }).where(eq(tenants.id, 1));
  }

  it('a member without 2FA gets enable-twofa and sets up the app at login, then signs in', async () => {
    await enforce();
    const b = h.client(ACME);
    expect((await b.login('user@acme.test')).body.message).toBe('enable-twofa');
    expect((await b.get('/accounts/api/user')).status).toBe(401);
    expect((await b.get('/accounts/api/setup-twofa-at-login/app')).body).toEqual({ message: 'no-pending-setup' });
    const started = await b.post('/accounts/api/setup-twofa-at-login/setup');
    const details = await b.get('/accounts/api/setup-twofa-at-login/app');
    expect(details.body).toEqual(started.body);
    expect(details.body.backupCodes).toHaveLength(5);
    expect(details.body.backupCodes[0]).toMatch(/^\d{5} \d{5}$/);
    expect(details.body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const secret = details.body.manualCode.replace(/ /g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await b.post('/accounts/api/setup-twofa-at-login/app', { otp: '000000' })).body).toEqual({ message: 'invalid-otp' });
    const r = await b.post('/accounts/api/setup-twofa-at-login/app', { otp: await totpAt(secret, h.clock.now()) });
    expect(r.status).toBe(200);
    expect(r.body.user.twofa_method).toBe('app');
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    await b.post('/accounts/api/logout');
    expect((await b.login('user@acme.test')).body.message).toBe('enter-otp');
  });

  it('skip only when the tenant allows it; not enforced unless subscribed; a user with 2FA is unaffected', async () => {
    await enforce(false);
    const b = h.client(ACME);
    await b.login('user@acme.test');
    expect((await b.post('/accounts/api/setup-twofa-at-login/skip')).status).toBe(403);
    await enforce(true);
    const b2 = h.client(ACME);
    await b2.login('user@acme.test');
    expect((await b2.post('/accounts/api/setup-twofa-at-login/skip')).status).toBe(200);
    expect((await b2.get('/accounts/api/user')).status).toBe(200);
    await h.deps.db.update(tenants).set({ isFeatureTwofaEnforcementSubscribed: false }).where(eq(tenants.id, 1));
    expect((await h.client(ACME).login('user@acme.test')).body.message).toBe('success');
    await enforce();
    await h.deps.db.update(tenants).set({ isFeatureTwofaEnforcementSubscribed: true }).where(eq(tenants.id, 1));
    expect((await h.client(ACME).login('totp@acme.test')).body.message).toBe('enter-otp');
  });

  it('on the main domain a user of an enforcing tenant is asked too', async () => {
    await enforce();
    expect((await h.client('localhost:8787').login('multi@example.test')).body.message).toBe('enable-twofa');
  });
});
