// Additional challenge: a password login from a new device and a new network (docs/decisions/0005).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { knownDevices, loginChallenges, sessions } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { codeIn, lastMail, mailsTo } from '../support/mail';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';

/** First sign-in ever: trusted on first use, device and network remembered. */
async function establish(email = 'user@acme.test') {
  const b = h.client(ACME, { ip: '203.0.113.10' });
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

async function challenged(email = 'user@acme.test'): Promise<TestClient> {
  await establish(email);
  const fresh = h.client(ACME, { ip: '198.51.100.20', otherBrowser: true });
  const r = await fresh.login(email);
  expect(r.body).toEqual({ message: 'enter-additional-challenge', initial_subdomain: 'acme' });
  return fresh;
}

describe('when the challenge applies', () => {
  it('not on a first sign-in, nor from a known device on a new network, nor from a new device on a known network', async () => {
    const b = await establish();
    b.ip = '198.51.100.20';
    expect((await b.login('user@acme.test')).body.message).toBe('success');
    expect((await h.client(ACME, { ip: '203.0.113.99', otherBrowser: true }).login('user@acme.test')).body.message).toBe('success');
    expect((await h.deps.db.select().from(knownDevices)).length).toBeGreaterThan(0);
  });

  it('a new device on a new network gets a mailed 6-digit code and no session', async () => {
    const fresh = await challenged();
    expect(fresh.cookies.has('portal_session')).toBe(false);
    expect(fresh.cookies.has('portal_login_challenge')).toBe(true);
    const mail = await lastMail(h, 'user@acme.test');
    expect(mail.subject).toContain('ログイン確認コード');
    expect(codeIn(mail.body)).toMatch(/^\d{6}$/);
    // Stored as a keyed MAC (with its key id), never a plain hash a dump would give away.
    const [row] = await h.deps.db.select().from(loginChallenges);
    expect(row!.codeHash).toMatch(/^k1\.[0-9a-f]{64}$/);
    expect(row!.codeHash).not.toContain(createHash('sha256').update(codeIn(mail.body)).digest('hex'));
    expect((await fresh.get('/accounts/api/user')).status).toBe(401);
    // The half-signed-in browser is sent to login by every page.
    expect((await fresh.get('/accounts/my-account')).status).toBe(302);
  });
});

describe('POST additional-challenge/verify', () => {
  it('the right code signs in and returns the user and password_compliance; the device is then known', async () => {
    const fresh = await challenged();
    const code = codeIn((await lastMail(h, 'user@acme.test')).body);
    const r = await fresh.post('/accounts/api/additional-challenge/verify', { otp: code });
    expect(r.status).toBe(200);
    expect(r.body.user.email).toBe('user@acme.test');
    expect(r.body.password_compliance.meets_current_policy).toBe(true);
    expect((await fresh.get('/accounts/api/user')).status).toBe(200);
    expect((await fresh.login('user@acme.test')).body.message).toBe('success');
  });

  it('a wrong code is incorrect-additional-challenge; after five the attempt locks out with a duration', async () => {
    const fresh = await challenged();
    const code = codeIn((await lastMail(h, 'user@acme.test')).body);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await fresh.post('/accounts/api/additional-challenge/verify', { otp: wrong });
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ message: 'incorrect-additional-challenge' });
    }
    const locked = await fresh.post('/accounts/api/additional-challenge/verify', { otp: code });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('locked-out');
    expect(locked.body.duration).toBeGreaterThan(0);
  });

  it('an expired code is additional-challenge-expired', async () => {
    const fresh = await challenged();
    const code = codeIn((await lastMail(h, 'user@acme.test')).body);
    h.clock.advance(10 * 60_000 - 1000);
    // The pending login is still alive, the code is not.
    await h.deps.db.update((await import('../../src/db/schema')).loginChallenges).set({ codeExpiresAt: h.clock.now() - 1 });
    expect((await fresh.post('/accounts/api/additional-challenge/verify', { otp: code })).body).toEqual({ message: 'additional-challenge-expired' });
  });

  it('a code is single use and bound to its login attempt: 20 concurrent verifies make one session', async () => {
    const fresh = await challenged();
    const code = codeIn((await lastMail(h, 'user@acme.test')).body);
    const other = h.client(ACME, { ip: '192.0.2.5' });
    expect((await other.post('/accounts/api/additional-challenge/verify', { otp: code })).status).toBe(401);
    const before = (await h.deps.db.select().from(sessions)).length;
    const results = await Promise.all(Array.from({ length: 20 }, () => fresh.post('/accounts/api/additional-challenge/verify', { otp: code })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect((await h.deps.db.select().from(sessions)).length).toBe(before + 1);
  });

  it('only half-width digits, six of them', async () => {
    const fresh = await challenged();
    for (const otp of ['１２３４５６', '12345', '1234567', 'abcdef']) {
      expect((await fresh.post('/accounts/api/additional-challenge/verify', { otp })).status).toBe(422);
    }
  });
});

describe('POST additional-challenge/resend', () => {
  it('waits 60 seconds between codes; a new code replaces the old one', async () => {
    const fresh = await challenged();
    const first = codeIn((await lastMail(h, 'user@acme.test')).body);
    const early = await fresh.post('/accounts/api/additional-challenge/resend');
    expect(early.status).toBe(429);
    expect(early.body).toEqual({ message: 'too-many-attempts', duration: 60 });
    h.clock.advance(60_000);
    expect((await fresh.post('/accounts/api/additional-challenge/resend')).body).toEqual({ message: 'code-resent' });
    expect(await mailsTo(h, 'user@acme.test')).toHaveLength(2);
    const second = codeIn((await lastMail(h, 'user@acme.test')).body);
    if (first !== second) expect((await fresh.post('/accounts/api/additional-challenge/verify', { otp: first })).status).toBe(422);
    expect((await fresh.post('/accounts/api/additional-challenge/verify', { otp: second })).status).toBe(200);
  });

  it('without a pending login: 401', async () => {
    expect((await h.client(ACME).post('/accounts/api/additional-challenge/resend')).status).toBe(401);
  });
});

describe('the code pages of a pending login (decision 0033)', () => {
  it('without a pending login no code was sent: each page goes to login, query kept, with the notice that says why', async () => {
    const b = h.client(ACME);
    for (const page of ['additional-challenge', 'otp', 'recovery', 'setup-twofa-at-login']) {
      const r = await b.get(`/accounts/${page}?continue=%2Faccounts%2Fmy-account`);
      expect(r.status, page).toBe(302);
      expect(r.headers.get('location'), page).toBe('/accounts/login?continue=%2Faccounts%2Fmy-account&notice=no-pending-login');
    }
    const login = await b.get('/accounts/login?notice=no-pending-login');
    expect(login.text).toContain('data-testid="login-notice"');
    expect(login.text).toContain('コードを待っているログインはありません');
  });

  it('with one, the resend countdown starts from the code just sent, and the page says JavaScript is needed without it', async () => {
    const fresh = await challenged();
    h.clock.advance(20_000);
    const r = await fresh.get('/accounts/additional-challenge?email=user%40acme.test');
    expect(r.status).toBe(200);
    const props = JSON.parse(/<script type="application\/json" id="[^"]+-props">(.*?)<\/script>/.exec(r.text)![1]!);
    expect(props.resendIn).toBe(40);
    expect(r.text).toContain('<noscript>');
    expect(r.headers.get('cache-control')).toBe('no-store');
  });
});
