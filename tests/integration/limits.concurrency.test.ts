// Limits that hold under concurrency (issue 12 section 2, decision 0026): for every limit and every
// single-use code, N attempts fired in parallel, and at most the limit of them processed. The work
// a limit guards is counted by what it leaves behind (audit entries, mails, SMS, sessions), not by
// the status codes alone. The Workers layer runs the login and code cases against D1 too
// (tests/workers/limits.test.ts).
import { randomBytes } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, outbox, sessions, throttles } from '../../src/db/schema';
import { LOGIN_LIMITS } from '../../src/domain/sign-in/password-login';
import { createOperatorToken } from '../../src/domain/operator/tokens';
import { OPERATOR_ADDRESS_FAILURE_LIMIT, OPERATOR_TOKEN_FAILURE_LIMIT } from '../../src/routes/operator/api';
import { createHarness, TEST_IP_HEADER, type Harness, type TestClient } from '../support/harness';
import { codeIn, lastMail, linkIn, mailsTo } from '../support/mail';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const MAIN = 'localhost:8787';
const PW = 'Portal-Demo-2026!';
const N = 30;

const parallel = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));
const count = (rs: { status: number }[], status: number) => rs.filter((r) => r.status === status).length;
const audited = async (action: string) => (await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, action))).length;

/** A browser that signed in once (trusted on first use), then a new one at a pending emailed code. */
async function atEmailedCode(email = 'user@acme.test', ip = '198.51.100.20'): Promise<TestClient> {
  const first = h.client(ACME);
  expect((await first.login(email)).body.message).toBe('success');
  const b = h.client(ACME, { ip, otherBrowser: true });
  expect((await b.login(email)).body.message).toBe('enter-additional-challenge');
  return b;
}

describe('password login', () => {
  it(`${N} parallel wrong passwords for one address: at most ${LOGIN_LIMITS.emailIp.max} are verified`, async () => {
    const b = h.client(ACME);
    const rs = await parallel(N, () => b.login('user@acme.test', 'wrong-password'));
    expect(count(rs, 401)).toBeLessThanOrEqual(LOGIN_LIMITS.emailIp.max);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(N - LOGIN_LIMITS.emailIp.max);
    expect(await audited('login.failed')).toBeLessThanOrEqual(LOGIN_LIMITS.emailIp.max);
    // The right password is refused too while the lock holds.
    expect((await b.login('user@acme.test')).status).toBe(429);
  });

  it('the account-wide lock never locks the person out of a browser they have used before', async () => {
    const mine = h.client(ACME, { ip: '203.0.113.10' });
    expect((await mine.login('user@acme.test')).body.message).toBe('success');
    await mine.post('/accounts/api/logout');
    // An attacker spreads guesses over many addresses until the account bucket is full.
    await parallel(LOGIN_LIMITS.account.max + 5, (i) => h.client(ACME, { ip: `198.51.100.${i + 1}`, otherBrowser: true }).login('user@acme.test', 'guess'));
    expect((await h.client(ACME, { ip: '192.0.2.200', otherBrowser: true }).login('user@acme.test')).status).toBe(429);
    // The person's own browser still signs in.
    expect((await mine.login('user@acme.test')).body.message).toBe('success');
  });

  it('IPv6 addresses count per /64: rotating within one subscriber block does not escape the address limit', async () => {
    const rs = [];
    for (let i = 0; i < LOGIN_LIMITS.ip.max + 1; i++) {
      rs.push(await h.client(ACME, { ip: `2001:db8:1:2::${(i + 1).toString(16)}`, otherBrowser: true }).login(`nobody${i}@example.test`, 'x'));
    }
    expect(rs.at(-1)!.status).toBe(429);
    const rows = await h.deps.db.select().from(throttles).where(like(throttles.key, 'login:ip:%'));
    expect(rows.map((r) => r.key)).toEqual(['login:ip:2001:db8:1:2::/64']);
  });
});

describe('codes at login', () => {
  it(`${N} parallel authenticator guesses on one pending login: at most 5 are checked`, async () => {
    const b = h.client(ACME);
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
    const rs = await parallel(N, (i) => b.post('/accounts/api/otp/verify', { otp: String(100000 + i) }));
    expect(count(rs, 422)).toBeLessThanOrEqual(5);
    expect(await audited('login.invalid-otp')).toBeLessThanOrEqual(5);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(N - 5);
  });

  it('guesses are counted per account across pending logins: a new login buys no new guesses', async () => {
    const browsers = await parallel(3, async () => {
      const b = h.client(ACME, { otherBrowser: true });
      await b.login('totp@acme.test');
      return b;
    });
    const rs = (await Promise.all(browsers.map((b) => parallel(4, (i) => b.post('/accounts/api/otp/verify', { otp: String(200000 + i) }))))).flat();
    expect(count(rs, 422)).toBeLessThanOrEqual(5);
  });

  it(`${N} parallel guesses of the emailed code: at most 5 are checked, across pending logins`, async () => {
    const a = await atEmailedCode();
    const b = h.client(ACME, { ip: '198.51.100.21', otherBrowser: true });
    expect((await b.login('user@acme.test')).body.message).toBe('enter-additional-challenge');
    const rs = [
      ...(await parallel(N / 2, (i) => a.post('/accounts/api/additional-challenge/verify', { otp: String(300000 + i).padStart(6, '0') }))),
      ...(await parallel(N / 2, (i) => b.post('/accounts/api/additional-challenge/verify', { otp: String(400000 + i) }))),
    ];
    expect(count(rs, 422)).toBeLessThanOrEqual(5);
    expect(count(rs, 200)).toBe(0);
  });

  it('parallel resends of the emailed code send one mail', async () => {
    const b = await atEmailedCode();
    h.clock.advance(61_000);
    const before = (await mailsTo(h, 'user@acme.test')).length;
    const rs = await parallel(10, () => b.post('/accounts/api/additional-challenge/resend'));
    expect(count(rs, 200)).toBe(1);
    expect((await mailsTo(h, 'user@acme.test')).length).toBe(before + 1);
  });

  it('parallel SMS resends at login send one SMS (the cooldown is a compare-and-set)', async () => {
    const { users, twofaSecrets, loginChallenges } = await import('../../src/db/schema');
    await h.deps.db.update(users).set({ twofaMethod: 'sms' }).where(eq(users.id, 4));
    await h.deps.db.update(twofaSecrets).set({ method: 'sms', secretCiphertext: null, phoneE164: '+819012345670' }).where(eq(twofaSecrets.userId, 4));
    const b = h.client(ACME);
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
    h.clock.advance(61_000);
    const rs = await parallel(10, () => b.post('/accounts/api/otp/resend'));
    expect(count(rs, 200)).toBe(1);
    expect(await h.deps.db.select().from(outbox).where(eq(outbox.recipient, '+819012345670'))).toHaveLength(2);
    expect(await h.deps.db.select().from(loginChallenges)).toHaveLength(1);
  });

  it('pending logins (and their mails) per account per hour are capped', async () => {
    const first = h.client(ACME);
    expect((await first.login('user@acme.test')).body.message).toBe('success');
    const rs = await parallel(20, (i) => h.client(ACME, { ip: `198.51.${i}.7`, otherBrowser: true }).login('user@acme.test'));
    expect(rs.filter((r) => r.body.message === 'enter-additional-challenge').length).toBeLessThanOrEqual(10);
    expect((await mailsTo(h, 'user@acme.test')).length).toBeLessThanOrEqual(10);
  });

  it('an emailed code is accepted once: parallel submissions of the right code make one session', async () => {
    const b = await atEmailedCode();
    const code = codeIn((await lastMail(h, 'user@acme.test')).body);
    const rs = await parallel(10, () => b.post('/accounts/api/additional-challenge/verify', { otp: code }));
    expect(count(rs, 200)).toBe(1);
    expect((await h.deps.db.select().from(sessions)).length).toBe(2);
  });
});

describe('signed-in limits', () => {
  async function signedIn(email = 'user@acme.test') {
    const b = h.client(ACME);
    expect((await b.login(email)).body.message).toBe('success');
    return b;
  }

  it('password re-entry: at most 5 of N parallel wrong passwords are checked', async () => {
    const b = await signedIn();
    const rs = await parallel(N, () => b.post('/accounts/api/password/verify', { password: 'nope' }));
    expect(count(rs, 422)).toBeLessThanOrEqual(5);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(N - 5);
  });

  it('change password: at most 5 of N parallel wrong current passwords are checked', async () => {
    const b = await signedIn();
    const rs = await parallel(N, () => b.patch('/accounts/api/password', { current_password: 'nope', new_password: 'Quiet-Harbor-Lantern-88', new_password_confirmation: 'Quiet-Harbor-Lantern-88' }));
    expect(count(rs, 422)).toBeLessThanOrEqual(5);
  });

  it('2FA enabling: at most 5 of N parallel wrong codes are checked', async () => {
    const b = await signedIn();
    expect((await b.post('/accounts/api/password/verify', { password: PW })).status).toBe(200);
    await b.post('/accounts/api/twofa/setup', { method: 'app' });
    const rs = await parallel(N, (i) => b.post('/accounts/api/twofa/app', { otp: String(500000 + i) }));
    expect(count(rs, 422)).toBeLessThanOrEqual(5);
  });

  it('SMS setup: parallel sends to one number send one SMS (the cooldown holds)', async () => {
    const b = await signedIn();
    expect((await b.post('/accounts/api/password/verify', { password: PW })).status).toBe(200);
    const rs = await parallel(10, () => b.post('/accounts/api/twofa/sms/otp', { contact: '+819012345678' }));
    expect(count(rs, 200)).toBe(1);
    const sms = await h.deps.db.select().from(outbox).where(eq(outbox.recipient, '+819012345678'));
    expect(sms).toHaveLength(1);
  });

  it('verification mail: parallel requests send one mail', async () => {
    const b = await signedIn();
    const { users } = await import('../../src/db/schema');
    await h.deps.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.email, 'user@acme.test'));
    const before = (await mailsTo(h, 'user@acme.test')).length;
    const rs = await parallel(10, () => b.post('/accounts/api/verification-mail/2'));
    expect(count(rs, 200)).toBeLessThanOrEqual(1);
    expect((await mailsTo(h, 'user@acme.test')).length - before).toBeLessThanOrEqual(1);
  });
});

describe('unauthenticated limits', () => {
  it('forgot password: at most 3 of N parallel requests for one address mail a link', async () => {
    const rs = await parallel(N, () => h.client(ACME).post('/accounts/api/password/email', { email: 'user@acme.test' }));
    expect(count(rs, 200)).toBeLessThanOrEqual(3);
    expect((await mailsTo(h, 'user@acme.test')).length).toBeLessThanOrEqual(3);
  });

  it('the per-address limiter: at most 30 of 45 parallel reset-token checks run', async () => {
    const b = h.client(ACME, { ip: '198.51.100.5' });
    const rs = await parallel(45, () => b.post('/accounts/api/password/verify-reset-token', { email: 'user@acme.test', token: 'A'.repeat(43) }));
    expect(count(rs, 422)).toBeLessThanOrEqual(30);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(15);
  });

  const operatorCall = async (bearer: string, ip = '198.51.100.90') =>
    h.app.request(`http://${MAIN}/accounts/api/operator/tenants`, { headers: { authorization: `Bearer ${bearer}`, [TEST_IP_HEADER]: ip } });
  const lookups = () => h.queries.filter((q) => /from operator_tokens t\s+where t\.token_hash/i.test(q)).length;

  it(`operator token failures: of ${N} parallel requests with one bad token, at most ${OPERATOR_TOKEN_FAILURE_LIMIT.max} are looked up (401), the rest 429; a good token gives its attempts back`, async () => {
    const good = await createOperatorToken(h.deps.db, 't', ['tenants:read'], h.clock.now());
    for (let i = 0; i < 25; i++) expect((await operatorCall(good.token)).status).toBe(200);
    h.queries.length = 0;
    const rs = await parallel(N, () => operatorCall(`pop_${'b'.repeat(43)}`));
    expect(count(rs, 401) + count(rs, 429)).toBe(N);
    expect(count(rs, 401)).toBeLessThanOrEqual(OPERATOR_TOKEN_FAILURE_LIMIT.max);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(N - OPERATOR_TOKEN_FAILURE_LIMIT.max);
    expect(lookups()).toBe(count(rs, 401));
    // The good token from the same address still works.
    expect((await operatorCall(good.token)).status).toBe(200);
  });

  it(`operator token spray: of ${OPERATOR_ADDRESS_FAILURE_LIMIT.max + N} parallel random tokens from one address, at most ${OPERATOR_ADDRESS_FAILURE_LIMIT.max} are looked up`, async () => {
    const total = OPERATOR_ADDRESS_FAILURE_LIMIT.max + N;
    h.queries.length = 0;
    const rs = await parallel(total, () => operatorCall(`pop_${randomBytes(32).toString('base64url')}`));
    expect(count(rs, 401) + count(rs, 429)).toBe(total);
    expect(count(rs, 401)).toBeLessThanOrEqual(OPERATOR_ADDRESS_FAILURE_LIMIT.max);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(N);
    expect(lookups()).toBe(count(rs, 401));
  });
});

describe('single-use codes', () => {
  it('a reset link works once under parallel use', async () => {
    await h.client(ACME).post('/accounts/api/password/email', { email: 'user@acme.test' });
    const url = linkIn((await lastMail(h, 'user@acme.test')).body);
    const body = { email: 'user@acme.test', token: url.searchParams.get('token'), password: 'Quiet-Harbor-Lantern-88', password_confirmation: 'Quiet-Harbor-Lantern-88' };
    const rs = await parallel(10, () => h.client(ACME, { otherBrowser: true }).post('/accounts/api/password/reset', body));
    expect(rs.filter((r) => r.body.message === 'success').length).toBe(1);
    expect(await audited('password.reset')).toBeLessThanOrEqual(1);
  });

  it('a backup code works once under parallel use', async () => {
    const { backupCodes } = await import('../../src/db/schema');
    const { backupCodeHash } = await import('../../src/domain/twofa/codes');
    await h.deps.db.insert(backupCodes).values({ userId: 4, codeHash: backupCodeHash(h.deps.config.DATA_ENCRYPTION_KEY, 4, '1234567890'), createdAt: h.clock.now() });
    const browsers = await parallel(5, async () => {
      const b = h.client(ACME, { otherBrowser: true });
      expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
      return b;
    });
    const rs = await Promise.all(browsers.map((b) => b.post('/accounts/api/backup-code', { backupCode: '12345 67890' })));
    expect(count(rs, 200)).toBe(1);
    expect((await h.deps.db.select().from(sessions).where(and(eq(sessions.userId, 4)))).length).toBe(1);
  });
});
