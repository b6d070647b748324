// Change password, session devices, Outlook add-in mapping and tenant lookup (spec 01).
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outlookAddinTokens, sessions, tenants, tenantUsers } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { lastMail } from '../support/mail';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const PW = 'Portal-Demo-2026!';
const NEW = 'Quiet-Harbor-Lantern-88';

async function signedIn(email = 'user@acme.test', host = ACME, ua?: string): Promise<TestClient> {
  const b = h.client(host);
  const r = ua ? await b.request('POST', '/accounts/api/v2/login', { json: { email, password: PW }, headers: { 'user-agent': ua } }) : await b.login(email);
  expect(r.status).toBe(200);
  return b;
}

describe('PATCH password', () => {
  it('changes the password, keeps this session, ends the others, and mails a notification', async () => {
    const other = await signedIn();
    const b = await signedIn();
    const r = await b.patch('/accounts/api/password', { current_password: PW, new_password: NEW, new_password_confirmation: NEW });
    expect(r.body).toEqual({ message: 'success' });
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    expect((await other.get('/accounts/api/user')).status).toBe(401);
    expect((await lastMail(h, 'user@acme.test')).subject).toContain('パスワードが変更されました');
    expect((await h.client(ACME).login('user@acme.test', NEW)).status).toBe(200);
    expect((await h.client(ACME).login('user@acme.test', PW)).status).toBe(401);
  });

  it('a wrong current password is "Current Password is Wrong" and is throttled', async () => {
    const b = await signedIn('user@acme.test', ACME);
    await b.patch('/accounts/api/user/language', { language: 'en' }); // a signed-in user's own language wins
    const r = await b.patch('/accounts/api/password', { current_password: 'nope', new_password: NEW, new_password_confirmation: NEW });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ message: 'current-password-wrong', errors: { current_password: ['Current Password is Wrong'] } });
    for (let i = 0; i < 4; i++) await b.patch('/accounts/api/password', { current_password: 'nope', new_password: NEW, new_password_confirmation: NEW });
    expect((await b.patch('/accounts/api/password', { current_password: PW, new_password: NEW, new_password_confirmation: NEW })).status).toBe(429);
  });

  it('new password errors carry the keywords the dialog maps; the same password is refused', async () => {
    const b = await signedIn();
    await b.patch('/accounts/api/user/language', { language: 'en' });
    const weak = await b.patch('/accounts/api/password', { current_password: PW, new_password: 'abc', new_password_confirmation: 'abc' });
    expect(weak.body.errors.new_password[0]).toContain('at least 8 characters');
    expect(weak.body.errors.new_password[1]).toContain('uppercase and one lowercase');
    const same = await b.patch('/accounts/api/password', { current_password: PW, new_password: PW, new_password_confirmation: PW });
    expect(same.status).toBe(422);
    const mismatch = await b.patch('/accounts/api/password', { current_password: PW, new_password: NEW, new_password_confirmation: NEW + 'x' });
    expect(mismatch.body.errors.new_password_confirmation).toEqual(["Confirmation password doesn't match"]);
  });

  it('is refused to SSO users and to the signed out', async () => {
    expect((await h.client(ACME).patch('/accounts/api/password', { current_password: PW, new_password: NEW, new_password_confirmation: NEW })).status).toBe(401);
    const b = await signedIn();
    await h.deps.db.update(tenants).set({ isSsoEnabled: true }).where(eq(tenants.id, 1));
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(eq(tenantUsers.id, 2));
    expect((await b.patch('/accounts/api/password', { current_password: PW, new_password: NEW, new_password_confirmation: NEW })).status).toBe(403);
  });
});

describe('session devices', () => {
  const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';

  it('lists the current session and the others with agent, location and last activity', async () => {
    await signedIn('multi@example.test', 'globex-jp.localhost:8787', IPHONE);
    const b = await signedIn('multi@example.test');
    const r = await b.get('/accounts/api/session-devices');
    expect(r.body.currentSession).toMatchObject({ agent: { device: 'desktop', os: 'Linux', browser: 'Chrome 156', isNextaMeishiApp: false }, location: { countryCode: 'JP', city: 'Tokyo', state: 'Tokyo', country: 'Japan' } });
    expect(r.body.otherSessions).toHaveLength(1);
    expect(r.body.otherSessions[0].agent).toMatchObject({ os: 'iOS 17.2', browser: 'Mobile Safari 17' });
    expect(r.body.otherSessions[0].lastActivity).toBe(new Date(h.clock.now()).toISOString());
    expect(JSON.stringify(r.body)).not.toMatch(/token/i);
  });

  it('logs out one device: its next request is 401 at once', async () => {
    const phone = await signedIn('user@acme.test', ACME, IPHONE);
    const b = await signedIn();
    const id = (await b.get('/accounts/api/session-devices')).body.otherSessions[0].id;
    expect((await b.post(`/accounts/api/session-devices/${id}/logout`)).body).toEqual({ message: 'success' });
    expect((await phone.get('/accounts/api/user')).status).toBe(401);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
  });

  it("another user's or tenant's session id is 404, and nothing is revoked", async () => {
    const stranger = await signedIn('admin@initech.test', 'initech.localhost:8787');
    const b = await signedIn();
    const [theirs] = await h.deps.db.select().from(sessions).where(eq(sessions.userId, 6));
    const r = await b.post(`/accounts/api/session-devices/${theirs!.id}/logout`);
    expect(r.status).toBe(404);
    expect((await stranger.get('/accounts/api/user')).status).toBe(200);
    expect((await b.post('/accounts/api/session-devices/nope/logout')).status).toBe(404);
  });

  it('logs out all other devices', async () => {
    const a = await signedIn();
    const c = await signedIn('user@acme.test', ACME, IPHONE);
    const b = await signedIn();
    expect((await b.post('/accounts/api/session-devices/logout-others')).body).toEqual({ message: 'success', count: 2 });
    expect((await a.get('/accounts/api/user')).status).toBe(401);
    expect((await c.get('/accounts/api/user')).status).toBe(401);
    expect((await b.get('/accounts/api/session-devices')).body.otherSessions).toEqual([]);
  });
});

describe('Outlook add-in mapping (decision 0007)', () => {
  // The add-in keeps VERIFIER; the login URL carries TOKEN = base64url(SHA-256(VERIFIER)).
  const VERIFIER = 'add-in-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';
  const TOKEN = createHash('sha256').update(VERIFIER).digest('base64url');
  const redeem = (body: unknown) =>
    h.app.request(`http://${ACME}/accounts/api/outlook-sso/redeem`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('maps a fresh token to the signed-in user once; only the verifier redeems it, once', async () => {
    const b = await signedIn();
    expect((await b.post('/accounts/api/outlook-sso/map-user', { token: TOKEN })).body).toEqual({ message: 'success' });
    const [row] = await h.deps.db.select().from(outlookAddinTokens);
    expect(row!.tokenHash).not.toContain(TOKEN);
    expect((await b.post('/accounts/api/outlook-sso/map-user', { token: TOKEN })).status).toBe(409);
    // Whoever holds only the token (it was in a URL) gets nothing.
    expect((await redeem({ token: TOKEN })).status).toBe(422);
    expect((await redeem({ verifier: TOKEN })).status).toBe(404);
    expect((await redeem({ verifier: `${VERIFIER}x` })).status).toBe(404);
    // The add-in's verifier redeems it once, even in parallel.
    const rs = await Promise.all(Array.from({ length: 5 }, () => redeem({ verifier: VERIFIER })));
    const ok = rs.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(await ok[0]!.json()).toMatchObject({ email: 'user@acme.test', tenant_id: 1 });
  });

  it('planting: a signed-in person following someone else\'s link is asked first; nothing is mapped until they confirm', async () => {
    const b = await signedIn();
    const page = await b.get(`/accounts/login?source=outlook&token=${TOKEN}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('OutlookComplete');
    expect(await h.deps.db.select().from(outlookAddinTokens)).toHaveLength(0);
    // The confirmation is a POST with the CSRF rule: a cross-site form cannot do it.
    const forged = await b.request('POST', '/accounts/api/outlook-sso/map-user', { json: { token: TOKEN }, raw: true, headers: { origin: 'https://evil.example' } });
    expect(forged.status).toBe(403);
    expect(await h.deps.db.select().from(outlookAddinTokens)).toHaveLength(0);
  });

  it('a mapped token expires after five minutes; mapping needs a session and a well-formed token', async () => {
    const b = await signedIn();
    await b.post('/accounts/api/outlook-sso/map-user', { token: TOKEN });
    h.clock.advance(5 * 60_000 + 1);
    expect((await redeem({ verifier: VERIFIER })).status).toBe(404);
    expect((await h.client(ACME).post('/accounts/api/outlook-sso/map-user', { token: TOKEN })).status).toBe(401);
    expect((await b.post('/accounts/api/outlook-sso/map-user', { token: 'short' })).status).toBe(422);
  });
});

describe('GET tenants/subdomains/{subdomain}', () => {
  it('finds a tenant by custom or initial subdomain and 404s otherwise', async () => {
    const c = h.client('localhost:8787');
    expect((await c.get('/accounts/api/tenants/subdomains/globex')).body).toEqual({ name: 'Globex 株式会社', subdomain: 'globex-jp', initial_subdomain: 'globex', is_sso_enabled: false });
    expect((await c.get('/accounts/api/tenants/subdomains/globex-jp')).body.name).toBe('Globex 株式会社');
    expect((await c.get('/accounts/api/tenants/subdomains/nope')).status).toBe(404);
    expect((await c.get('/accounts/api/tenants/subdomains/..%2F')).status).toBe(404);
  });
});
