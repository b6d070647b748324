// Forgot / reset (spec 01 sections 4, 7, 8; issue: tokens hashed, 60 min, single use).
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { passwordResets, sessions, tenants, users } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';
import { lastMail, linkIn, mailsTo } from '../support/mail';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const NEW = 'Quiet-Harbor-Lantern-88';

async function requestLink(email = 'user@acme.test', host = ACME) {
  const r = await h.client(host).post('/accounts/api/password/email', { email });
  expect(r.body).toEqual({ message: 'email_sent' });
  const url = linkIn((await lastMail(h, email)).body);
  return { url, token: url.searchParams.get('token')!, email: url.searchParams.get('email')! };
}

describe('POST password/email', () => {
  it('mails a reset link on the tenant canonical host, in the user language, storing only a hash', async () => {
    const { url, token } = await requestLink();
    expect(url.origin).toBe('http://acme.localhost:8787');
    expect(url.pathname).toBe('/accounts/reset');
    expect(url.searchParams.get('email')).toBe('user@acme.test');
    const mail = await lastMail(h, 'user@acme.test');
    expect(mail.subject).toContain('パスワード再設定');
    const [row] = await h.deps.db.select().from(passwordResets);
    expect(row!.tokenHash).not.toBe(token);
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('ignores the request Host for the link: a forged X-Forwarded-Host changes nothing, the main domain gets the main domain', async () => {
    await h.client(ACME).request('POST', '/accounts/api/password/email', { json: { email: 'user@acme.test' }, headers: { 'x-forwarded-host': 'evil.example' } });
    expect(linkIn((await lastMail(h, 'user@acme.test')).body).origin).toBe('http://acme.localhost:8787');
    await h.client('localhost:8787').post('/accounts/api/password/email', { email: 'multi@example.test' });
    expect(linkIn((await lastMail(h, 'multi@example.test')).body).origin).toBe('http://localhost:8787');
  });

  it('uses the custom subdomain when the tenant has one', async () => {
    await h.client('globex.localhost:8787').post('/accounts/api/password/email', { email: 'multi@example.test' });
    expect(linkIn((await lastMail(h, 'multi@example.test')).body).origin).toBe('http://globex-jp.localhost:8787');
  });

  it('unknown addresses answer email_sent and get no mail; not-registered users are told so', async () => {
    const unknown = await h.client(ACME).post('/accounts/api/password/email', { email: 'nobody@acme.test' });
    expect(unknown.body).toEqual({ message: 'email_sent' });
    expect(await mailsTo(h, 'nobody@acme.test')).toHaveLength(0);
    await h.deps.db.update(users).set({ passwordHash: null }).where(eq(users.id, 2));
    const invited = await h.client(ACME).post('/accounts/api/password/email', { email: 'user@acme.test' });
    expect(invited.body).toEqual({ message: 'user_is_not_registered' });
  });

  it('answers error_sending_mail when the mail server fails', async () => {
    h.deps.mailer = { send: async () => Promise.reject(new Error('smtp down')) };
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...a: unknown[]) => errors.push(a);
    try {
      const r = await h.client(ACME).post('/accounts/api/password/email', { email: 'user@acme.test' });
      expect(r.status).toBe(502);
      expect(r.body).toEqual({ message: 'error_sending_mail' });
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });

  it('is rate limited per address and per email', async () => {
    const b = h.client(ACME);
    for (let i = 0; i < 3; i++) expect((await b.post('/accounts/api/password/email', { email: 'user@acme.test' })).status).toBe(200);
    const r = await b.post('/accounts/api/password/email', { email: 'user@acme.test' });
    expect(r.status).toBe(429);
    expect(r.body.message).toBe('too-many-attempts');
  });
});

describe('verify-reset-token, password policy, reset', () => {
  it('verify does not consume; reset signs in, ends old sessions, and the token works once', async () => {
    const old = h.client(ACME);
    await old.login('user@acme.test');
    const { token } = await requestLink();
    const b = h.client(ACME);
    expect((await b.post('/accounts/api/password/verify-reset-token', { email: 'user@acme.test', token })).body).toEqual({ message: 'valid' });
    expect((await b.post('/accounts/api/password/verify-reset-token', { email: 'user@acme.test', token })).body).toEqual({ message: 'valid' });
    const r = await b.post('/accounts/api/password/reset', { email: 'user@acme.test', token, password: NEW, password_confirmation: NEW });
    expect(r.status).toBe(200);
    expect(r.body.user.email).toBe('user@acme.test');
    expect(r.body.password_compliance.meets_current_policy).toBe(true);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    expect((await old.get('/accounts/api/user')).status).toBe(401);
    expect((await h.client(ACME).login('user@acme.test', NEW)).status).toBe(200);
    const again = await h.client(ACME).post('/accounts/api/password/reset', { email: 'user@acme.test', token, password: 'Other-Quiet-Harbor-99', password_confirmation: 'Other-Quiet-Harbor-99' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'failed_to_reset_password' });
    expect((await b.post('/accounts/api/password/verify-reset-token', { email: 'user@acme.test', token })).status).toBe(422);
  });

  it('two concurrent resets with one token: exactly one succeeds', async () => {
    const { token } = await requestLink();
    const results = await Promise.all(
      ['Quiet-Harbor-Lantern-01', 'Quiet-Harbor-Lantern-02'].map((pw) =>
        h.client(ACME).post('/accounts/api/password/reset', { email: 'user@acme.test', token, password: pw, password_confirmation: pw }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('a token expires after 60 minutes; a newer token voids the older one; the email must match', async () => {
    const first = await requestLink();
    const second = await requestLink();
    const check = (token: string, email = 'user@acme.test') => h.client(ACME).post('/accounts/api/password/verify-reset-token', { email, token });
    expect((await check(first.token)).status).toBe(422);
    expect((await check(second.token, 'admin@acme.test')).status).toBe(422);
    expect((await check(second.token)).status).toBe(200);
    h.clock.advance(60 * 60_000 + 1);
    expect((await check(second.token)).body).toEqual({ message: 'invalid-token' });
  });

  it('refuses a weak or non-compliant password with the spec mapping words, and changes nothing', async () => {
    const { token } = await requestLink();
    const b = h.client(ACME);
    const en = await b.request('POST', '/accounts/api/password/reset', { json: { email: 'user@acme.test', token, password: 'short', password_confirmation: 'nope' }, headers: { 'accept-language': 'en' } });
    expect(en.status).toBe(422);
    expect(en.body.errors.password).toEqual([
      'The password must be at least 8 characters.',
      'The password must contain at least one uppercase and one lowercase letter.',
      'The password must contain at least one number.',
      'The password must contain at least one special character.',
    ]);
    expect(en.body.errors.password_confirmation).toEqual(["Confirmation password doesn't match"]);
    const weak = await b.request('POST', '/accounts/api/password/reset', { json: { email: 'user@acme.test', token, password: 'Password1!', password_confirmation: 'Password1!' }, headers: { 'accept-language': 'en' } });
    expect(weak.body.errors.password[0]).toMatch(/very weak|easy to guess/);
    expect((await b.post('/accounts/api/password/verify-reset-token', { email: 'user@acme.test', token })).status).toBe(200);
    expect((await h.client(ACME).login('user@acme.test')).status).toBe(200);
  });

  it('follows the tenant policy: GET users/password-policy/{email}', async () => {
    await h.deps.db.update(tenants).set({ minimumPasswordLength: 24, isSpecialCharacterRequired: false }).where(eq(tenants.id, 1));
    const r = await h.client(ACME).get('/accounts/api/users/password-policy/user%40acme.test');
    expect(r.body).toEqual({ minimum_password_length: 24, is_mixed_case_required: true, is_number_required: true, is_special_character_required: false });
    const unknown = await h.client('initech.localhost:8787').get('/accounts/api/users/password-policy/nobody%40x.test');
    expect(unknown.body.minimum_password_length).toBe(8);
    const { token } = await requestLink();
    const r2 = await h.client(ACME).post('/accounts/api/password/reset', { email: 'user@acme.test', token, password: NEW, password_confirmation: NEW });
    expect(r2.status).toBe(422);
  });

  it('does not bypass two-factor: after the reset a 2FA user is asked for their code, and has no session until then', async () => {
    const { token } = await requestLink('totp@acme.test');
    const b = h.client(ACME);
    const r = await b.post('/accounts/api/password/reset', { email: 'totp@acme.test', token, password: NEW, password_confirmation: NEW });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'enter-otp', initial_subdomain: 'acme' });
    expect((await b.get('/accounts/api/user')).status).toBe(401);
    expect(await h.deps.db.select().from(sessions)).toHaveLength(0);
    expect((await b.login('totp@acme.test', NEW)).body.message).toBe('enter-otp');
  });

  it('tampered tokens change nothing', async () => {
    await requestLink();
    for (const token of ['x', 'A'.repeat(43), "' or 1=1 --"]) {
      const r = await h.client(ACME).post('/accounts/api/password/reset', { email: 'user@acme.test', token, password: NEW, password_confirmation: NEW });
      expect(r.body).toEqual({ message: 'failed_to_reset_password' });
    }
    expect((await h.client(ACME).login('user@acme.test')).status).toBe(200);
  });
});
