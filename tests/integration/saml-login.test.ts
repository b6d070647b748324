// The login side of SSO (issue 7): checks at startup and per email, redirect-to-sso from v2/login,
// the connection test, SSO users barred from /twofa and /verify-password, single logout in both
// directions, and the admin settings calls (spec 02 "SSO").
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, sessions, tenants, tenantUsers, users } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { makeKeyPair, TestIdp, type KeyPair } from '../support/saml-idp';

const ACME = 'acme.localhost:8787';
const IDP_ENTITY = 'https://idp.example.test/saml';
const SSO_USER = 'user@acme.test';
let idpKeys: KeyPair;
let expiredKeys: KeyPair;
let h: Harness;
let idp: TestIdp;

beforeAll(async () => {
  [idpKeys, expiredKeys] = await Promise.all([makeKeyPair('idp.example.test'), makeKeyPair('old-idp', -1)]);
});
beforeEach(async () => {
  h = await createHarness();
  h.clock.t = Date.now();
  idp = new TestIdp({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.example.test/sso', sloUrl: 'https://idp.example.test/slo', keys: idpKeys });
});
afterEach(() => h.close());

async function signIn(email: string, host = ACME) {
  const b = h.client(host, { ip: '133.242.10.20' });
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}
const settings = (over: Record<string, unknown> = {}) => ({ idpEntityId: IDP_ENTITY, idpSsoUrl: 'https://idp.example.test/sso', idpSloUrl: 'https://idp.example.test/slo', idpCertificate: idpKeys.certPem, ...over });

async function ssoSwitch(email: string, on = true) {
  const u = (await h.deps.db.select().from(users).where(eq(users.email, email)).get())!;
  await h.deps.db.update(tenantUsers).set({ isSsoEnabled: on }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, u.id)));
}

async function configure(enable = true) {
  const admin = await signIn('admin@acme.test');
  expect((await admin.post('/accounts/api/admin/saml', settings())).status).toBe(200);
  if (enable) expect((await admin.patch('/accounts/api/admin/saml/configure-idp-status', { isIdpConfigured: true })).status).toBe(200);
  return admin;
}

async function ssoSignIn(b: TestClient, email = SSO_USER, relay = '/accounts/my-account', sessionIndex?: string) {
  const metadata = (await b.get('/accounts/api/saml2/all/metadata')).text;
  const start = await b.get(`/accounts/api/saml2/all/login?RelayState=${encodeURIComponent(relay)}`);
  expect(start.status).toBe(302);
  const req = TestIdp.requestOf(start.headers.get('location')!);
  const response = await idp.response(metadata, { inResponseTo: req.id, nameId: email, sessionIndex });
  return b.request('POST', '/accounts/api/saml2/all/acs', {
    raw: true,
    body: new URLSearchParams({ SAMLResponse: response, RelayState: req.relayState ?? '' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example.test' },
  });
}

describe('admin settings calls', () => {
  it('GET /admin/saml shows the SP values under the initial subdomain and no IdP until saved', async () => {
    const admin = await signIn('admin@acme.test');
    const r = await admin.get('/accounts/api/admin/saml');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      is_idp_configured: 0,
      saml_setting: null,
      sp: { entity_id: 'http://acme.localhost:8787/accounts/api/saml2/all/metadata', acs_url: 'http://acme.localhost:8787/accounts/api/saml2/all/acs' },
    });
  });

  it('the entity id stays on the initial subdomain after a custom subdomain is set', async () => {
    await h.deps.db.update(tenants).set({ subdomain: 'acme-corp' }).where(eq(tenants.id, 1));
    const admin = await signIn('admin@acme.test', 'acme-corp.localhost:8787');
    expect((await admin.get('/accounts/api/admin/saml')).body.sp.entity_id).toBe('http://acme.localhost:8787/accounts/api/saml2/all/metadata');
  });

  it('POST stores the settings with the certificate expiry; the switch then turns SSO on and off', async () => {
    const admin = await signIn('admin@acme.test');
    const before = await admin.patch('/accounts/api/admin/saml/configure-idp-status', { isIdpConfigured: true });
    expect(before.status).toBe(422);
    expect(before.body).toEqual({ message: 'sso-not-configured' });
    const saved = await admin.post('/accounts/api/admin/saml', settings({ idpSloUrl: '' }));
    expect(saved.status).toBe(200);
    expect(saved.body.saml_setting).toMatchObject({ idp_entity_id: IDP_ENTITY, idp_slo_url: null });
    expect(Date.parse(saved.body.saml_setting.certificate_expires_at)).toBeGreaterThan(Date.now());
    expect((await admin.patch('/accounts/api/admin/saml/configure-idp-status', { isIdpConfigured: true })).body).toEqual({ message: 'success', is_idp_configured: 1 });
    expect((await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!.isSsoEnabled).toBe(true);
    expect((await admin.patch('/accounts/api/admin/saml/configure-idp-status', { isIdpConfigured: false })).body.is_idp_configured).toBe(0);
    const log = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.tenantId, 1));
    expect(log.map((l) => l.action)).toEqual(expect.arrayContaining(['admin.sso.settings-saved', 'admin.sso.enabled', 'admin.sso.disabled']));
  });

  it('requires https for the IdP sign-on and sign-out URLs (plain http only on a loopback host)', async () => {
    const admin = await signIn('admin@acme.test');
    const sso = await admin.post('/accounts/api/admin/saml', settings({ idpSsoUrl: 'http://idp.example.test/sso' }));
    expect(sso.status).toBe(422);
    expect(sso.body.errors).toEqual({ idpSsoUrl: ['https:// で始まる有効な URL を入力してください'] });
    const slo = await admin.post('/accounts/api/admin/saml', settings({ idpSloUrl: 'http://idp.example.test/slo' }));
    expect(Object.keys(slo.body.errors)).toEqual(['idpSloUrl']);
    expect((await admin.post('/accounts/api/admin/saml', settings({ idpSsoUrl: 'http://127.0.0.1:9999/sso' }))).status).toBe(200);
    expect((await admin.post('/accounts/api/admin/saml', settings())).status).toBe(200);
  });

  it('refuses a certificate that is not PEM, and an expired one, with a field error', async () => {
    const admin = await signIn('admin@acme.test');
    const bad = await admin.post('/accounts/api/admin/saml', settings({ idpCertificate: '-----BEGIN CERTIFICATE-----\nnot a cert\n-----END CERTIFICATE-----' }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['idpCertificate']);
    const expired = await admin.post('/accounts/api/admin/saml', settings({ idpCertificate: expiredKeys.certPem }));
    expect(expired.status).toBe(422);
    expect(Object.keys(expired.body.errors)).toEqual(['idpCertificate']);
    const url = await admin.post('/accounts/api/admin/saml', settings({ idpSsoUrl: 'javascript:alert(1)' }));
    expect(url.status).toBe(422);
    expect(Object.keys(url.body.errors)).toEqual(['idpSsoUrl']);
  });

  it('admins only; without the SSO subscription the calls answer feature-not-subscribed', async () => {
    const user = await signIn('user@acme.test');
    expect((await user.get('/accounts/api/admin/saml')).status).toBe(403);
    expect((await user.post('/accounts/api/admin/saml', settings())).status).toBe(403);
    expect((await h.client(ACME).get('/accounts/api/admin/saml')).status).toBe(401);
    const globex = await signIn('multi@example.test', 'globex.localhost:8787');
    const r = await globex.post('/accounts/api/admin/saml', settings());
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ message: 'feature-not-subscribed' });
  });
});

describe('the settings screen', () => {
  it('shows the form to an SSO-subscribed admin and the premium explanation otherwise', async () => {
    const acme = await signIn('admin@acme.test');
    const page = await acme.get('/accounts/admin/sso-setting');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-island="SsoSetting"');
    expect(page.text).toContain('http://acme.localhost:8787/accounts/api/saml2/all/acs');
    const globex = await signIn('multi@example.test', 'globex.localhost:8787');
    const premium = await globex.get('/accounts/admin/sso-setting');
    expect(premium.status).toBe(200);
    expect(premium.text).toContain('data-testid="sso-premium"');
    expect(premium.text).not.toContain('data-island="SsoSetting"');
    const member = await signIn('user@acme.test');
    expect((await member.get('/accounts/admin/sso-setting')).headers.get('location')).toBe('/accounts/my-account');
  });
});

describe('checks before sign-in', () => {
  it('saml2/check and the email checks answer false until SSO is enabled, then the initial subdomain', async () => {
    await ssoSwitch(SSO_USER);
    const anon = h.client(ACME);
    expect((await anon.get('/accounts/api/saml2/check')).body).toMatchObject({ is_idp_configured: false, statusSSOActiveUsers: 'none' });
    await configure(false);
    expect((await anon.get('/accounts/api/saml2/check')).body.is_idp_configured).toBe(false);
    expect((await anon.get(`/accounts/api/saml2/check-using-email?email=${SSO_USER}`)).body.is_idp_configured).toBe(false);
    await configure(true);
    expect((await anon.get('/accounts/api/saml2/check')).body).toEqual({ is_idp_configured: true, initial_subdomain: 'acme', statusSSOActiveUsers: 'some' });
    expect((await anon.get(`/accounts/api/saml2/check-using-email-with-subdomain?email=${SSO_USER}`)).body).toEqual({ is_idp_configured: true, initial_subdomain: 'acme' });
    expect((await h.client('localhost:8787').get(`/accounts/api/saml2/check-using-email?email=${SSO_USER}`)).body).toEqual({ is_idp_configured: true, initial_subdomain: 'acme' });
    expect((await anon.get('/accounts/api/saml2/check-using-email-with-subdomain?email=admin@acme.test')).body.is_idp_configured).toBe(false);
    expect((await h.client('globex.localhost:8787').get(`/accounts/api/saml2/check-using-email-with-subdomain?email=${SSO_USER}`)).body.is_idp_configured).toBe(false);
  });

  it('GET user signed out names the SAML login once some members use SSO', async () => {
    await configure(true);
    await ssoSwitch(SSO_USER);
    const r = await h.client(ACME).get('/accounts/api/user');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ message: 'unauthenticated', ssoUrl: 'http://acme.localhost:8787/accounts/api/saml2/all/login', ssoSubdomain: 'acme', statusSSOActiveUsers: 'some' });
  });

  it('the login page starts the SSO-for-all mode when every active member uses SSO', async () => {
    await configure(true);
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(eq(tenantUsers.tenantId, 1));
    const page = await h.client(ACME).get('/accounts/login');
    expect(page.text).toContain('&quot;ssoStatus&quot;:&quot;all&quot;'.replace(/&quot;/g, '"'));
  });

  it('v2/login answers redirect-to-sso for an SSO member and starts no session', async () => {
    await configure(true);
    await ssoSwitch(SSO_USER);
    const b = h.client(ACME);
    const r = await b.login(SSO_USER);
    expect(r.body).toEqual({ message: 'redirect-to-sso', initial_subdomain: 'acme' });
    expect(b.cookies.has('portal_session')).toBe(false);
  });

  it('saml2/all/login needs SSO enabled, except for the connection test once settings are stored', async () => {
    const anon = h.client(ACME);
    expect((await anon.get('/accounts/api/saml2/all/login?RelayState=/accounts/login')).status).toBe(404);
    const admin = await configure(false);
    expect((await anon.get('/accounts/api/saml2/all/login?RelayState=/accounts/login')).status).toBe(404);
    expect(admin.cookies.has('portal_session')).toBe(true);
    // The test needs no session on this host (the admin may be on the custom host).
    const test = await h.client(ACME).get('/accounts/api/saml2/all/login?RelayState=/accounts/saml-test-passed');
    expect(test.status).toBe(302);
    expect(TestIdp.requestOf(test.headers.get('location')!).relayState).toBe('/accounts/saml-test-passed');
  });
});

describe('no way around the IdP', () => {
  it('a password sign-in on the main domain hands an SSO member to the SAML login, not into the tenant', async () => {
    await configure(true);
    await ssoSwitch('multi@example.test');
    const main = h.client('localhost:8787');
    expect((await main.login('multi@example.test')).body.message).toBe('success');
    const toAcme = await main.post('/accounts/api/handoff', { tenant_id: 1, continue: '/meishi/' });
    expect(toAcme.status).toBe(200);
    expect(toAcme.body).toEqual({ message: 'redirect-to-sso', url: 'http://acme.localhost:8787/accounts/api/saml2/all/login?RelayState=%2Fmeishi%2F' });
    // Globex (no SSO) still gets an ordinary hand-off.
    expect((await main.post('/accounts/api/handoff', { tenant_id: 2 })).body.url).toMatch(/\/accounts\/handoff\?code=/);
  });
});

describe('the connection test', () => {
  it('shows saml-test-passed (with its close button) and starts no session', async () => {
    const admin = await configure(false);
    const before = await h.deps.db.select().from(sessions);
    const r = await ssoSignIn(admin, 'anyone@idp.example.test', '/accounts/saml-test-passed');
    expect(r.status).toBe(200);
    expect(r.text).toContain('data-island="CloseWindow"');
    expect(r.text).toContain('SSO');
    expect(await h.deps.db.select().from(sessions)).toHaveLength(before.length);
  });
});

describe('SSO users', () => {
  it('cannot open /twofa or /verify-password; a password user can', async () => {
    await configure(true);
    await ssoSwitch(SSO_USER);
    const b = h.client(ACME);
    expect((await ssoSignIn(b)).status).toBe(303);
    for (const path of ['/accounts/twofa', '/accounts/verify-password']) {
      const r = await b.get(path);
      expect(r.status).toBe(302);
      expect(r.headers.get('location')).toBe('/accounts/my-account');
    }
    // The calls behind those pages refuse an SSO session too.
    expect((await b.post('/accounts/api/password/verify', { password: 'Portal-Demo-2026!' })).status).toBe(403);
    expect((await b.patch('/accounts/api/password', { current_password: 'Portal-Demo-2026!', new_password: 'An0ther-Long-Pass!', new_password_confirmation: 'An0ther-Long-Pass!' })).status).toBe(403);
    const pw = await signIn('admin@acme.test');
    expect((await pw.get('/accounts/verify-password')).status).toBe(200);
  });

  it('logout answers the IdP single-logout URL for an SSO session, null for a password session', async () => {
    await configure(true);
    await ssoSwitch(SSO_USER);
    const b = h.client(ACME);
    await ssoSignIn(b);
    const out = await b.post('/accounts/api/logout');
    expect(out.body.message).toBe('success');
    expect(out.body.sloUrl).toMatch(/^https:\/\/idp\.example\.test\/slo\?SAMLRequest=/);
    expect((await b.get('/accounts/api/user')).status).toBe(401);
    const pw = await signIn('admin@acme.test');
    expect((await pw.post('/accounts/api/logout')).body.sloUrl).toBeNull();
  });

  it("the IdP's signed LogoutRequest ends that user's SSO sessions only; an unsigned one is refused", async () => {
    await configure(true);
    await ssoSwitch(SSO_USER);
    await ssoSwitch('admin@acme.test');
    const b = h.client(ACME);
    await ssoSignIn(b, SSO_USER, '/accounts/my-account', '_idp-session-1');
    const other = h.client(ACME);
    await ssoSignIn(other, 'admin@acme.test');
    const metadata = (await b.get('/accounts/api/saml2/all/metadata')).text;
    const url = new URL(await idp.logoutRequestUrl(metadata, SSO_USER, '_idp-session-1'));
    const unsigned = new URL(url);
    unsigned.searchParams.delete('Signature');
    unsigned.searchParams.delete('SigAlg');
    const refused = await h.client(ACME).get(unsigned.pathname + unsigned.search);
    expect(refused.status).toBe(403);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    const r = await h.client(ACME).get(url.pathname + url.search);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toMatch(/^https:\/\/idp\.example\.test\/slo\?SAMLResponse=/);
    expect((await b.get('/accounts/api/user')).status).toBe(401);
    expect((await other.get('/accounts/api/user')).status).toBe(200);
  });
});
