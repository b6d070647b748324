// GET user, PATCH user/language, maintenance messages, SSO checks (spec 01 section 7).
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maintenanceMessages, samlSettings, tenants, tenantUsers, throttles, users } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';

describe('GET /accounts/api/user', () => {
  it('answers 401 with the SSO status when signed out', async () => {
    const r = await h.client(ACME).get('/accounts/api/user');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ message: 'unauthenticated', ssoUrl: null, ssoSubdomain: null, statusSSOActiveUsers: 'none' });
  });

  it('returns the user with tenants, flags and the current tenant', async () => {
    const b = h.client(ACME);
    await b.login('multi@example.test');
    const { user } = (await b.get('/accounts/api/user')).body;
    expect(user).toMatchObject({
      id: 3,
      name: 'Multi Tenant',
      email: 'multi@example.test',
      twofa_method: null,
      language: 'en',
      is_tenant_manager: false,
      isAuthenticated: true,
      isAdmin: false,
      isTwofaEnabled: false,
      isSsoEnabled: false,
      current_tenant: { id: 1, name: 'Acme Corporation', is_feature_ip_restriction_subscribed: true, feature_sso_users_limit: 10 },
    });
    expect(user.tenants).toEqual([
      expect.objectContaining({ id: 1, is_admin: false, is_user_subscribed_to_meishi: true, is_user_subscribed_to_scheduler: false, apps: ['meishi'] }),
      expect.objectContaining({ id: 2, subdomain: 'globex-jp', initial_subdomain: 'globex', is_admin: true, apps: ['meishi'] }),
    ]);
    expect(user).not.toHaveProperty('password_hash');
    expect(JSON.stringify(user)).not.toContain('argon2');
  });

  it('does not list apps the tenant has not contracted, nor deactivated memberships', async () => {
    await h.deps.db.update(tenantUsers).set({ schedulerAccessGrantedAt: 1 }).where(eq(tenantUsers.id, 4)); // Globex has no scheduler
    const b = h.client('localhost:8787');
    await b.login('multi@example.test');
    const { user } = (await b.get('/accounts/api/user')).body;
    expect(user.tenants.find((t: { id: number }) => t.id === 2).apps).toEqual(['meishi']);
    await h.deps.db.update(tenantUsers).set({ deactivatedAt: 1 }).where(eq(tenantUsers.id, 4));
    expect((await b.get('/accounts/api/user')).body.user.tenants.map((t: { id: number }) => t.id)).toEqual([1]);
  });
});

describe('PATCH /accounts/api/user/language', () => {
  it('stores the language and the next page renders in it', async () => {
    const b = h.client(ACME);
    await b.login('user@acme.test');
    const r = await b.patch('/accounts/api/user/language', { language: 'en' });
    expect(r.body).toEqual({ message: 'success', language: 'en' });
    expect((await h.deps.db.select().from(users).where(eq(users.id, 2)).get())!.language).toBe('en');
    expect((await b.get('/accounts/my-account')).text).toContain('<html lang="en">');
  });

  it('refuses other languages with 422 and needs a session', async () => {
    const b = h.client(ACME);
    expect((await b.patch('/accounts/api/user/language', { language: 'en' })).status).toBe(401);
    await b.login('user@acme.test');
    const r = await b.patch('/accounts/api/user/language', { language: 'fr' });
    expect(r.status).toBe(422);
    expect(r.body.errors.language).toHaveLength(1);
  });
});

describe('GET /accounts/api/maintenance-messages', () => {
  it('returns the messages in force per app, in the reader language', async () => {
    const now = h.clock.now();
    await h.deps.db.insert(maintenanceMessages).values([
      { app: 'accounts', messageJa: '今夜メンテナンス', messageEn: 'Maintenance tonight', startsAt: now - 1000, endsAt: now + 3_600_000 },
      { app: 'meishi', messageJa: '終了済み', messageEn: 'Over', startsAt: now - 7_200_000, endsAt: now - 3_600_000 },
      { app: 'scheduler', messageJa: '予定', messageEn: 'Planned', startsAt: now + 3_600_000, endsAt: null },
    ]);
    const ja = await h.client(ACME).get('/accounts/api/maintenance-messages');
    expect(ja.body).toEqual({ accounts: '今夜メンテナンス', meishi: null, scheduler: null });
    const en = await h.client(ACME).get('/accounts/api/maintenance-messages', { headers: { 'accept-language': 'en' } });
    expect(en.body.accounts).toBe('Maintenance tonight');
    const page = await h.client(ACME).get('/accounts/login');
    expect(page.text).toContain('今夜メンテナンス');
  });
});

describe('SSO checks before sign-in', () => {
  it('no IdP configured: is_idp_configured false for known and unknown emails alike', async () => {
    for (const email of ['admin@acme.test', 'nobody@acme.test']) {
      const r = await h.client('localhost:8787').get(`/accounts/api/saml2/check-using-email?email=${encodeURIComponent(email)}`);
      expect(r.body).toEqual({ is_idp_configured: false, initial_subdomain: null });
    }
  });

  it('an SSO member of a tenant with a configured IdP is told the initial subdomain', async () => {
    await h.deps.db.update(tenants).set({ isSsoEnabled: true }).where(eq(tenants.id, 1));
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(eq(tenantUsers.id, 2));
    await h.deps.db.insert(samlSettings).values({ tenantId: 1, idpEntityId: 'https://idp.example/', idpSsoUrl: 'https://idp.example/sso', idpX509Cert: 'MII...', isIdpConfigured: true });
    const r = await h.client('localhost:8787').get('/accounts/api/saml2/check-using-email?email=user%40acme.test');
    expect(r.body).toEqual({ is_idp_configured: true, initial_subdomain: 'acme' });
    const other = await h.client('globex-jp.localhost:8787').get('/accounts/api/saml2/check-using-email-with-subdomain?email=user%40acme.test');
    expect(other.body.is_idp_configured).toBe(false);
    expect((await h.client(ACME).get('/accounts/api/saml2/check')).body.statusSSOActiveUsers).toBe('some');
    // An SSO member's password login is redirected to the IdP.
    const login = await h.client(ACME).login('user@acme.test');
    expect(login.body).toEqual({ message: 'redirect-to-sso', initial_subdomain: 'acme' });
  });

  it('rate limits the email lookups per address', async () => {
    const b = h.client(ACME, { ip: '198.51.100.77' });
    // 599 lookups already counted in this window, then the 600th passes and the 601st is refused.
    await h.deps.db.insert(throttles).values({ key: 'sso-check:ip:198.51.100.77', hits: 599, resetAt: h.clock.now() + 600_000 });
    expect((await b.get('/accounts/api/saml2/check-using-email?email=a%40b.test')).status).toBe(200);
    const r = await b.get('/accounts/api/saml2/check-using-email-with-subdomain?email=a%40b.test');
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ message: 'too-many-attempts', duration: 600 });
  });

  it('validates the email query', async () => {
    const r = await h.client(ACME).get('/accounts/api/saml2/check-using-email?email=bad');
    expect(r.status).toBe(422);
  });
});
