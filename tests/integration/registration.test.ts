// Invitation registration and email verification by signed links (spec 01 sections 4, 7, 8).
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenants, tenantUsers, users } from '../../src/db/schema';
import { createApp } from '../../src/app';
import { sendInvitation } from '../../src/domain/account/registration';
import { createHarness, TestClient, type Harness } from '../support/harness';
import { lastMail, linkIn } from '../support/mail';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const PW = 'Quiet-Harbor-Lantern-88';

async function invite(email = 'new@acme.test') {
  const now = h.clock.now();
  const [u] = await h.deps.db.insert(users).values({ name: '新人 花子', email, createdAt: now, updatedAt: now }).returning();
  await h.deps.db.insert(tenantUsers).values({ tenantId: 1, userId: u!.id, meishiAccessGrantedAt: now, invitedAt: now, createdAt: now, updatedAt: now });
  const tenant = (await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!;
  await sendInvitation(h.deps, u!, tenant);
  return { user: u!, url: linkIn((await lastMail(h, email)).body) };
}

/** What the register page's island posts, from the link it was opened with. */
function registerCall(url: URL) {
  const id = url.searchParams.get('id');
  const email = decodeURIComponent(url.pathname.split('/').pop()!);
  const q = new URLSearchParams({ expires: url.searchParams.get('expires')!, signature: url.searchParams.get('signature')!, email });
  return `/accounts/api/users/register/${id}?${q}`;
}

describe('invitation registration', () => {
  it('the invitation mail links to the register page on the tenant host with expires and signature', async () => {
    const { url, user } = await invite();
    expect(url.origin).toBe('http://acme.localhost:8787');
    expect(url.pathname).toBe('/accounts/register/new%40acme.test');
    expect(url.searchParams.get('id')).toBe(String(user.id));
    expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(url.searchParams.get('expires'))).toBe(Math.floor(h.clock.now() / 1000) + 7 * 86_400);
    expect((await lastMail(h, 'new@acme.test')).subject).toContain('Acme Corporation');
  });

  it('registers once: sets the password, verifies the address, signs in; a second use is already-registered', async () => {
    const { url } = await invite();
    const b = h.client(ACME);
    const r = await b.post(registerCall(url), { password: PW, password_confirmation: PW });
    expect(r.status).toBe(200);
    expect(r.body.user.email).toBe('new@acme.test');
    expect(r.body.user.email_verified_at).not.toBeNull();
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    const again = await h.client(ACME).post(registerCall(url), { password: PW, password_confirmation: PW });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'already-registered' });
    expect((await h.client(ACME).login('new@acme.test', PW)).status).toBe(200);
  });

  it('accepts the amp;signature form mail clients produce', async () => {
    const { url } = await invite();
    const path = registerCall(url).replace('signature=', 'amp%3Bsignature=');
    expect((await h.client(ACME).post(path, { password: PW, password_confirmation: PW })).status).toBe(200);
  });

  it('a tampered link is "Invalid signature." and changes nothing', async () => {
    const { url, user } = await invite();
    const tamper = [
      registerCall(url).replace(/signature=([0-9a-f])/, (_m, c) => `signature=${c === 'a' ? 'b' : 'a'}`),
      registerCall(url).replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 86_400}`),
      registerCall(url).replace(`/register/${user.id}`, '/register/2'),
      registerCall(url).replace(/&signature=.*/, ''),
    ];
    for (const path of tamper) {
      const r = await h.client(ACME).post(path, { password: PW, password_confirmation: PW });
      expect(r.body.message, path).toBe('Invalid signature.');
    }
    // Presented on another tenant's host, the signature (over the absolute URL) does not match.
    const other = await h.client('initech.localhost:8787').post(registerCall(url), { password: PW, password_confirmation: PW });
    expect(other.body.message).toBe('Invalid signature.');
    expect((await h.deps.db.select().from(users).where(eq(users.id, user.id)).get())!.passwordHash).toBeNull();
  });

  it('an expired link says link-expired; a removed member says account-deleted', async () => {
    const { url, user } = await invite();
    h.clock.advance(7 * 86_400_000 + 1000);
    expect((await h.client(ACME).post(registerCall(url), { password: PW, password_confirmation: PW })).body).toEqual({ message: 'link-expired' });
    h.clock.advance(-(7 * 86_400_000 + 1000));
    await h.deps.db.delete(tenantUsers).where(eq(tenantUsers.userId, user.id));
    expect((await h.client(ACME).post(registerCall(url), { password: PW, password_confirmation: PW })).body).toEqual({ message: 'account-deleted' });
    await h.deps.db.delete(users).where(eq(users.id, user.id));
    expect((await h.client(ACME).post(registerCall(url), { password: PW, password_confirmation: PW })).body).toEqual({ message: 'account-deleted' });
  });

  it('checks the signature before saying anything about the account: a forged link for a deleted id is "Invalid signature."', async () => {
    const { url, user } = await invite();
    await h.deps.db.delete(users).where(eq(users.id, user.id));
    const genuine = registerCall(url);
    const forged = genuine.replace(/signature=[0-9a-f]{64}/, `signature=${'0'.repeat(64)}`);
    const r = await h.client(ACME).post(forged, { password: PW, password_confirmation: PW });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ message: 'Invalid signature.' });
    // Without the address the link was made for, nothing can be checked: also no account facts.
    const noEmail = genuine.replace(/&email=[^&]*/, '');
    expect((await h.client(ACME).post(noEmail, { password: PW, password_confirmation: PW })).body).toEqual({ message: 'Invalid signature.' });
    // Another id with a signature made for this one says nothing either.
    expect((await h.client(ACME).post(genuine.replace(`/register/${user.id}?`, '/register/999999?'), { password: PW, password_confirmation: PW })).body).toEqual({ message: 'Invalid signature.' });
    expect((await h.client(ACME).post(genuine, { password: PW, password_confirmation: PW })).body).toEqual({ message: 'account-deleted' });
  });

  it('a weak password is a 422 and leaves the link usable', async () => {
    const { url } = await invite();
    const r = await h.client(ACME).post(registerCall(url), { password: 'weak', password_confirmation: 'weak' });
    expect(r.status).toBe(422);
    expect(r.body.errors.password.length).toBeGreaterThan(0);
    expect((await h.client(ACME).post(registerCall(url), { password: PW, password_confirmation: PW })).status).toBe(200);
  });

  it('verifies with the previous key during a key rotation, and not with a retired one', async () => {
    const { url } = await invite();
    const config = h.deps.config;
    const rotated = (previous: string | undefined) =>
      new TestClient(createApp({ ...h.deps, config: { ...config, LINK_SIGNING_KEY: 'a-brand-new-signing-key-that-is-long-enough-0001', LINK_SIGNING_KEY_PREVIOUS: previous } }), ACME, false);
    const retired = await rotated(undefined).post(registerCall(url), { password: PW, password_confirmation: PW });
    expect(retired.body).toEqual({ message: 'Invalid signature.' });
    const during = await rotated(config.LINK_SIGNING_KEY).post(registerCall(url), { password: PW, password_confirmation: PW });
    expect(during.status).toBe(200);
  });
});

describe('email verification', () => {
  async function verificationLink() {
    await h.deps.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, 2));
    const b = h.client(ACME);
    await b.login('user@acme.test');
    const sent = await b.post('/accounts/api/verification-mail/2');
    expect(sent.body).toEqual({ message: 'email_sent' });
    return { b, url: linkIn((await lastMail(h, 'user@acme.test')).body) };
  }
  const verifyCall = (url: URL) => {
    const q = new URLSearchParams({ expires: url.searchParams.get('expires')!, signature: url.searchParams.get('signature')! });
    return `/accounts/api/users/verify/${url.searchParams.get('id')}?${q}`;
  };

  it('the banner data, the mail and the link: verified once, then already-verified', async () => {
    const { b, url } = await verificationLink();
    expect((await b.get('/accounts/api/user')).body.user.email_verified_at).toBeNull();
    expect(url.pathname).toBe('/accounts/verify/user%40acme.test');
    expect((await h.client(ACME).post(verifyCall(url))).body).toEqual({ message: 'verified' });
    expect((await b.get('/accounts/api/user')).body.user.email_verified_at).not.toBeNull();
    expect((await h.client(ACME).post(verifyCall(url))).body).toEqual({ message: 'already-verified' });
  });

  it('a tampered verification link is "Invalid signature."', async () => {
    const { url } = await verificationLink();
    const r = await h.client(ACME).post(verifyCall(url).replace(/signature=../, 'signature=00'));
    expect(r.body).toEqual({ message: 'Invalid signature.' });
  });

  it('resend is for oneself only and at most once a minute', async () => {
    const { b } = await verificationLink();
    expect((await b.post('/accounts/api/verification-mail/2')).status).toBe(429);
    expect((await b.post('/accounts/api/verification-mail/1')).status).toBe(404);
    expect((await h.client(ACME).post('/accounts/api/verification-mail/2')).status).toBe(401);
  });

  it('a register link cannot be used to verify and vice versa', async () => {
    const { url } = await invite();
    const asVerify = verifyCall(url);
    expect((await h.client(ACME).post(asVerify)).body.message).toBe('Invalid signature.');
  });
});
