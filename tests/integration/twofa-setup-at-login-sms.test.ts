// SMS in the two-factor setup a tenant enforces at login (decision 0046): the account's SMS setup
// under the pending-login principal. The attacker in mind holds only the password of a member of an
// enforcing tenant, which is exactly what the pending login proves, so every call is attacked here:
// SMS cost under parallel requests, the principal and its state, another tenant, code binding.
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, outbox, sessions, tenants, throttles, twofaPending, twofaSecrets, users } from '../../src/db/schema';
import { enableTwofa } from '../../src/domain/twofa/setup';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { codeIn, lastMail, mailsTo } from '../support/mail';
import { totpAt } from '../support/totp';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.deps.db.update(tenants).set({ isTwofaEnforced: true, isTwofaSkipAllowed: false }).where(eq(tenants.id, 1));
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const USER_ID = 2; // user@acme.test, no 2FA
const MOBILE = '+819012345678';
const OTHER_MOBILE = '+819087654321';
const SEND = '/accounts/api/setup-twofa-at-login/sms/otp';
const RESEND = '/accounts/api/setup-twofa-at-login/sms/otp/resend';
const ENABLE = '/accounts/api/setup-twofa-at-login/sms';

/** A browser at the forced setup, with the setup started (backup codes shown) unless told not to. */
async function atSetup(opts: { start?: boolean; email?: string; b?: TestClient } = {}) {
  const b = opts.b ?? h.client(ACME);
  expect((await b.login(opts.email ?? 'user@acme.test')).body.message).toBe('enable-twofa');
  if (opts.start !== false) expect((await b.post('/accounts/api/setup-twofa-at-login/setup')).status).toBe(200);
  return b;
}
const smsCode = async (to = MOBILE) => codeIn((await lastMail(h, to)).body);
const smsCount = async (to?: string) => (to ? (await mailsTo(h, to)).length : (await h.deps.db.select().from(outbox).where(eq(outbox.channel, 'sms'))).length);

describe('SMS at the forced setup: the happy path', () => {
  it('sends a code to a valid mobile number, enables SMS with it, signs in like the app path, audits it', async () => {
    const b = await atSetup();
    const landline = await b.post(SEND, { contact: '+81312345678' });
    expect(landline.status).toBe(422);
    expect(landline.body.errors.contact).toEqual(['有効な携帯電話番号を入力してください']);
    expect((await b.post(SEND, { contact: '090-1234-5678' })).status).toBe(422);
    expect(await smsCount()).toBe(0);

    expect((await b.post(SEND, { contact: MOBILE })).body).toEqual({ message: 'sent' });
    const sms = await lastMail(h, MOBILE);
    expect(sms.channel).toBe('sms');
    // Nothing is the user's before the code is confirmed.
    expect((await h.deps.db.select().from(users).where(eq(users.id, USER_ID)).get())!.contactNumber).not.toBe(MOBILE);
    expect(await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, USER_ID))).toHaveLength(0);
    expect((await b.get('/accounts/api/user')).status).toBe(401);

    expect((await b.post(ENABLE, { otp: '000000' })).body).toEqual({ message: 'invalid-otp' });
    const r = await b.post(ENABLE, { otp: codeIn(sms.body) });
    expect(r.status).toBe(200);
    // The same answer as the authenticator's: the user and the password compliance.
    expect(r.body.user).toMatchObject({ email: 'user@acme.test', twofa_method: 'sms', isTwofaEnabled: true });
    expect(r.body.password_compliance.meets_current_policy).toBe(true);
    expect((await b.get('/accounts/api/user')).body.user.contact_number).toBe(MOBILE);
    const [s] = await h.deps.db.select().from(sessions);
    expect(s!.twofaPassed).toBe(true);
    const [secret] = await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, USER_ID));
    expect(secret).toMatchObject({ method: 'sms', phoneE164: MOBILE, secretCiphertext: null });
    const events = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'twofa.enabled'));
    expect(events.map((e) => [e.tenantId, e.actorUserId, e.details])).toEqual([[1, USER_ID, { method: 'sms' }]]);

    // The code was single use, and the next login asks for an SMS code to that number.
    expect((await b.post(ENABLE, { otp: codeIn(sms.body) })).status).toBe(401);
    await b.post('/accounts/api/logout');
    const again = h.client(ACME);
    expect((await again.login('user@acme.test')).body.message).toBe('enter-otp');
    expect(await smsCount(MOBILE)).toBe(2);
    expect((await again.post('/accounts/api/otp/verify', { otp: await smsCode() })).status).toBe(200);
  });

  it('the backup codes shown in the first tab are the ones the SMS factor keeps', async () => {
    const b = h.client(ACME);
    await b.login('user@acme.test');
    const { backupCodes } = (await b.post('/accounts/api/setup-twofa-at-login/setup')).body as { backupCodes: string[] };
    await b.post(SEND, { contact: MOBILE });
    expect((await b.post(ENABLE, { otp: await smsCode() })).status).toBe(200);
    await b.post('/accounts/api/logout');
    const next = h.client(ACME);
    expect((await next.login('user@acme.test')).body.message).toBe('enter-otp');
    expect((await next.post('/accounts/api/backup-code', { backupCode: backupCodes[3] })).status).toBe(200);
  });

  it('a number another user already verified is fine (numbers are not unique)', async () => {
    await h.deps.db.update(users).set({ twofaMethod: 'sms', contactNumber: MOBILE }).where(eq(users.id, 4));
    await h.deps.db.update(twofaSecrets).set({ method: 'sms', secretCiphertext: null, phoneE164: MOBILE }).where(eq(twofaSecrets.userId, 4));
    const b = await atSetup();
    await b.post(SEND, { contact: MOBILE });
    expect((await b.post(ENABLE, { otp: await smsCode() })).status).toBe(200);
    expect((await h.deps.db.select().from(users).where(eq(users.id, 4)).get())!.contactNumber).toBe(MOBILE);
  });

  it('after sending an SMS the person may still go back to the authenticator: its code enables the app', async () => {
    const b = await atSetup();
    const details = (await b.get('/accounts/api/setup-twofa-at-login/app')).body;
    await b.post(SEND, { contact: MOBILE });
    // The QR code still shows the same secret after the SMS went out.
    expect((await b.get('/accounts/api/setup-twofa-at-login/app')).body).toEqual(details);
    const r = await b.post('/accounts/api/setup-twofa-at-login/app', { otp: await totpAt(details.manualCode.replace(/ /g, ''), h.clock.now()) });
    expect(r.body.user.twofa_method).toBe('app');
    expect((await h.deps.db.select().from(users).where(eq(users.id, USER_ID)).get())!.contactNumber).not.toBe(MOBILE);
  });
});

describe('resend', () => {
  it('waits 60 seconds (Retry-After), then sends a new code to the same number; the old code stops working', async () => {
    const b = await atSetup();
    expect((await b.post(RESEND)).body).toEqual({ message: 'no-pending-setup' });
    await b.post(SEND, { contact: MOBILE });
    const first = await smsCode();
    const early = await b.post(RESEND);
    expect(early.status).toBe(429);
    expect(early.body.message).toBe('Too Many Attempts.');
    expect(early.headers.get('retry-after')).toBe('60');
    // Another number does not skip the wait either (one a minute per pending login).
    h.clock.advance(30_000);
    const other = await b.post(SEND, { contact: OTHER_MOBILE });
    expect(other.status).toBe(429);
    expect(other.headers.get('retry-after')).toBe('30');
    h.clock.advance(30_000);
    expect((await b.post(RESEND)).body).toEqual({ message: 'sent' });
    expect(await smsCount(MOBILE)).toBe(2);
    expect(await smsCount(OTHER_MOBILE)).toBe(0);
    const second = await smsCode();
    if (first !== second) expect((await b.post(ENABLE, { otp: first })).body).toEqual({ message: 'invalid-otp' });
    expect((await b.post(ENABLE, { otp: second })).status).toBe(200);
  });
});

describe('limits (SMS costs money)', () => {
  it('20 parallel sends on one pending login send one SMS', async () => {
    const b = await atSetup();
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => b.post(SEND, { contact: i % 2 ? MOBILE : OTHER_MOBILE })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 429)).toHaveLength(19);
    expect(await smsCount()).toBe(1);
  });

  it('parallel sends from 8 pending logins of one user: 5 SMS an hour for the user', async () => {
    const browsers: TestClient[] = [];
    for (let i = 0; i < 8; i++) browsers.push(await atSetup({ start: i === 7 }));
    const rs = await Promise.all(browsers.map((b, i) => b.post(SEND, { contact: `+8190123456${10 + i}` })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(5);
    for (const r of rs.filter((x) => x.status !== 200)) expect(r.status).toBe(429);
    expect(await smsCount()).toBe(5);
    h.clock.advance(3_600_000 - 10 * 60_000);
    // Still the same hour: refused. The pending logins have expired by now anyway: 401.
    expect((await browsers[0]!.post(SEND, { contact: MOBILE })).status).toBe(401);
  });

  it('parallel sends to one number from several users: 5 an hour for the number', async () => {
    const emails = ['user@acme.test', 'admin@acme.test', 'multi@example.test'];
    const browsers: TestClient[] = [];
    for (const email of emails) for (let i = 0; i < 3; i++) browsers.push(await atSetup({ email }));
    const rs = await Promise.all(browsers.map((b) => b.post(SEND, { contact: MOBILE })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(5);
    expect(await smsCount(MOBILE)).toBe(5);
  });

  it('the tenant\'s hourly budget (100) holds at login too', async () => {
    const b = await atSetup();
    await h.deps.db.insert(throttles).values({ key: 'sms:tenant:1', hits: 100, resetAt: h.clock.now() + 3_600_000 });
    const r = await b.post(SEND, { contact: MOBILE });
    expect(r.status).toBe(429);
    expect(await smsCount()).toBe(0);
  });

  it('wrong codes lock the setup as for the authenticator: 5 in 15 minutes, shared with the app path', async () => {
    const b = await atSetup();
    await b.post(SEND, { contact: MOBILE });
    const right = await smsCode();
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) expect((await b.post(ENABLE, { otp: wrong })).body).toEqual({ message: 'invalid-otp' });
    for (let i = 0; i < 2; i++) expect((await b.post('/accounts/api/setup-twofa-at-login/app', { otp: wrong })).body).toEqual({ message: 'invalid-otp' });
    const locked = await b.post(ENABLE, { otp: right });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('locked-out');
    expect(locked.body.duration).toBeGreaterThan(0);
    expect(await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, USER_ID))).toHaveLength(0);
  });

  it('20 parallel submissions of the right code: one sign-in', async () => {
    const b = await atSetup();
    await b.post(SEND, { contact: MOBILE });
    const code = await smsCode();
    const rs = await Promise.all(Array.from({ length: 20 }, () => b.post(ENABLE, { otp: code })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await h.deps.db.select().from(sessions)).toHaveLength(1);
  });
});

describe('who may call', () => {
  it('without a pending login: 401; a signed-in session is no pending login', async () => {
    expect((await h.client(ACME).post(SEND, { contact: MOBILE })).status).toBe(401);
    await h.deps.db.update(tenants).set({ isTwofaEnforced: false }).where(eq(tenants.id, 1));
    const signedIn = h.client(ACME);
    expect((await signedIn.login('user@acme.test')).body.message).toBe('success');
    for (const [p, body] of [[SEND, { contact: MOBILE }], [RESEND, undefined], [ENABLE, { otp: '123456' }]] as const) {
      expect((await signedIn.post(p, body)).status, p).toBe(401);
    }
    expect(await smsCount()).toBe(0);
  });

  it('a pending login in another state (the one-time code step) cannot send or enable', async () => {
    const b = h.client(ACME);
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
    expect((await b.post(SEND, { contact: MOBILE })).status).toBe(401);
    expect((await b.post(ENABLE, { otp: '123456' })).status).toBe(401);
    expect(await smsCount()).toBe(0);
  });

  it('before the setup is started (no backup codes shown): no-pending-setup, nothing sent', async () => {
    const b = await atSetup({ start: false });
    const r = await b.post(SEND, { contact: MOBILE });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ message: 'no-pending-setup' });
    expect((await b.post(ENABLE, { otp: '123456' })).body).toEqual({ message: 'no-pending-setup' });
    expect(await smsCount()).toBe(0);
  });

  it('another tenant\'s pending login is not one on this host', async () => {
    await h.deps.db.update(tenants).set({ isFeatureTwofaEnforcementSubscribed: true, isTwofaEnforced: true }).where(eq(tenants.id, 2));
    const acme = await atSetup();
    // The same challenge cookie, carried to Globex's host.
    const globex = h.client('globex-jp.localhost:8787');
    globex.cookies = new Map(acme.cookies);
    expect((await globex.post(SEND, { contact: MOBILE })).status).toBe(401);
    await acme.post(SEND, { contact: MOBILE });
    expect((await globex.post(ENABLE, { otp: await smsCode() })).status).toBe(401);
    expect(await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, USER_ID))).toHaveLength(0);
  });

  it('the code is bound to the pending login that sent it: another pending login of the same person cannot use it', async () => {
    const first = await atSetup();
    const second = await atSetup({ start: false });
    await first.post(SEND, { contact: MOBILE });
    const code = await smsCode();
    expect((await second.post(ENABLE, { otp: code })).body).toEqual({ message: 'invalid-otp' });
    expect((await first.post(ENABLE, { otp: code })).status).toBe(200);
  });

  it('the code is bound to its number and its setup: a new number or a restarted setup voids it', async () => {
    const b = await atSetup();
    await b.post(SEND, { contact: MOBILE });
    const code = await smsCode();
    // Another pending login of the same person puts another number on the setup.
    const other = await atSetup({ start: false });
    h.clock.advance(60_000);
    await other.post(SEND, { contact: OTHER_MOBILE });
    expect((await b.post(ENABLE, { otp: code })).body).toEqual({ message: 'invalid-otp' });
    // A restarted setup (new backup codes) voids the code and the number.
    const b2 = await atSetup();
    await b2.post(SEND, { contact: MOBILE });
    const code2 = await smsCode();
    await b2.post('/accounts/api/setup-twofa-at-login/setup');
    expect((await h.deps.db.select().from(twofaPending).where(and(eq(twofaPending.userId, USER_ID))).get())!.phoneE164).toBeNull();
    expect((await b2.post(ENABLE, { otp: code2 })).body).toEqual({ message: 'no-pending-setup' });
    expect(await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, USER_ID))).toHaveLength(0);
  });

  it('a factor turned on meanwhile (another sign-in, the account) is not replaced from the pending login', async () => {
    const b = await atSetup();
    await b.post(SEND, { contact: MOBILE });
    const code = await smsCode();
    const before = await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, 4));
    await h.deps.db.update(users).set({ twofaMethod: 'app' }).where(eq(users.id, USER_ID));
    expect((await b.post(ENABLE, { otp: code })).status).toBe(401);
    expect((await b.post(SEND, { contact: OTHER_MOBILE })).status).toBe(401);
    expect((await h.deps.db.select().from(users).where(eq(users.id, USER_ID)).get())!.contactNumber).not.toBe(MOBILE);
    expect(await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, 4))).toEqual(before);
  });

  it('...decided in the statement that consumes the setup, not only by the read before it', async () => {
    const b = await atSetup();
    const details = (await b.get('/accounts/api/setup-twofa-at-login/app')).body;
    const stale = (await h.deps.db.select().from(users).where(eq(users.id, USER_ID)).get())!;
    // The factor appears between the read of the person and the enable.
    await h.deps.db.update(users).set({ twofaMethod: 'sms', contactNumber: OTHER_MOBILE }).where(eq(users.id, USER_ID));
    const otp = await totpAt(details.manualCode.replace(/ /g, ''), h.clock.now());
    await expect(enableTwofa(h.deps, stale, 'app', otp, 1, { onlyWithoutFactor: true })).rejects.toMatchObject({ code: 'no-pending-setup' });
    expect(await h.deps.db.select().from(twofaSecrets).where(eq(twofaSecrets.userId, USER_ID))).toHaveLength(0);
    expect((await h.deps.db.select().from(users).where(eq(users.id, USER_ID)).get())!.twofaMethod).toBe('sms');
  });
});
