// Limits that hold under concurrency, on workerd + D1 (issue 12 section 2; the libSQL side is
// tests/integration/limits.concurrency.test.ts): N attempts in parallel, at most the limit processed.
import { readdirSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { waitForMail } from './support/mail';
import { Browser } from './support/client';

const port = inject('workerPort');
const N = 20;
const parallel = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));
const count = (rs: { status: number }[], status: number) => rs.filter((r) => r.status === status).length;

describe('reserve-first limits on D1', () => {
  it(`${N} parallel wrong passwords for one address and email: at most 5 are verified`, async () => {
    const rs = await parallel(N, () => new Browser(port).on('acme.localhost').login('limits-workers@acme.test', 'wrong-password'));
    expect(count(rs, 401)).toBeLessThanOrEqual(5);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(N - 5);
  });

  it(`${N} parallel authenticator guesses on one pending login: at most 5 are checked`, async () => {
    const b = new Browser(port).on('acme.localhost');
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
    const rs = await parallel(N, (i) => b.post('/accounts/api/otp/verify', { otp: String(100000 + i) }));
    expect(count(rs, 422)).toBeLessThanOrEqual(5);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(N - 5);
  });

  it('a hand-off code is bound to the browser that asked for it', async () => {
    const b = new Browser(port);
    const main = b.on('localhost');
    expect((await main.login('multi@example.test')).body.message).toBe('success');
    const r = await main.post('/accounts/api/handoff', { tenant_id: 2 });
    const url = new URL(r.body.url);
    // Another browser holding the URL gets nothing; the browser that asked gets its session.
    expect((await new Browser(port).on(url.hostname).get(url.pathname + url.search)).status).toBe(400);
    const mine = await b.on(url.hostname).get(url.pathname + url.search);
    expect(mine.status).toBe(302);
    expect((await b.on(url.hostname).get('/accounts/api/user')).status).toBe(200);
  });
});

describe('more reserve-first limits on D1', () => {
  it('forgot password: at most 3 of N parallel requests for one address are processed', async () => {
    const rs = await parallel(N, () => new Browser(port).on('acme.localhost').post('/accounts/api/password/email', { email: 'gone@acme.test' }, { headers: { 'cf-connecting-ip': '192.0.2.61' } }));
    expect(rs.filter((r) => r.status !== 429).length).toBeLessThanOrEqual(3);
  });

  it('the per-address limiter: at most 30 of 40 parallel reset-token checks run', async () => {
    const b = new Browser(port).on('acme.localhost');
    const rs = await parallel(40, () => b.post('/accounts/api/password/verify-reset-token', { email: 'gone@acme.test', token: 'A'.repeat(43) }, { headers: { 'cf-connecting-ip': '192.0.2.62' } }));
    expect(count(rs, 422)).toBeLessThanOrEqual(30);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(10);
  });

  it('operator token failures: at most 20 of N parallel requests with one bad token are looked up (per address and token prefix)', async () => {
    const rs = await parallel(N + 5, () =>
      new Browser(port).on('localhost').get('/accounts/api/operator/tenants', { raw: true, headers: { authorization: `Bearer pop_${'n'.repeat(43)}`, 'cf-connecting-ip': '192.0.2.63' } }),
    );
    expect(count(rs, 401)).toBeLessThanOrEqual(20);
    expect(count(rs, 429)).toBeGreaterThanOrEqual(5);
  });

  it('password re-entry and change password: at most 5 of N parallel wrong passwords are checked', async () => {
    const b = new Browser(port).on('initech.localhost');
    expect((await b.login('admin@initech.test')).body.message).toBe('success');
    const verify = await parallel(N, () => b.post('/accounts/api/password/verify', { password: 'wrong-password' }));
    expect(count(verify, 422)).toBeLessThanOrEqual(5);
    const change = await parallel(N, () => b.request('PATCH', '/accounts/api/password', { json: { current_password: 'wrong', new_password: 'Quiet-Harbor-Lantern-88', new_password_confirmation: 'Quiet-Harbor-Lantern-88' } }));
    expect(count(change, 422)).toBeLessThanOrEqual(5);
  });
});

describe('one-time codes in workerd', () => {
  it('the new-device emailed code is stored under a derived key (HKDF in workerd) and accepted once', async () => {
    const mailDir = inject('mailDir');
    const first = new Browser(port).on('acme.localhost');
    expect((await first.login('user@acme.test')).body.message).toBe('success');
    const before = new Set(readdirSync(mailDir));
    const b = new Browser(port).on('acme.localhost');
    const ip = { 'cf-connecting-ip': '198.51.100.20' };
    const r = await b.post('/accounts/api/v2/login', { email: 'user@acme.test', password: 'Portal-Demo-2026!', remember: false }, { headers: ip });
    expect(r.body.message).toBe('enter-additional-challenge');
    const mail = await waitForMail(mailDir, 'user@acme.test', before);
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    const rs = await parallel(3, () => b.post('/accounts/api/additional-challenge/verify', { otp: code }, { headers: ip }));
    expect(count(rs, 200)).toBe(1);
  });
});
