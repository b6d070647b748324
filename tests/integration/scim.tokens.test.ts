// SCIM provisioning tokens and the endpoint's door (decision 0040): a token is shown once and
// stored hashed, opens only its own tenant's endpoint, stops working when revoked or expired,
// counts against its own budget, notes when and from where it was last used; the endpoint follows
// the SSO subscription, speaks application/scim+json and answers errors in SCIM's schema.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, scimTokens, tenants } from '../../src/db/schema';
import { createScimToken } from '../../src/domain/scim/tokens';
import { sha256Hex } from '../../src/domain/security/tokens';
import { createHarness, type Harness } from '../support/harness';
import { ACME, ERROR_URN, GLOBEX, LIST_URN, makeToken, SCIM, SCIM_JSON, scimClient, USER_URN } from '../support/scim';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ SCIM_REQUESTS_PER_MINUTE: '60' });
});
afterEach(() => h.close());

const T = { acme: 1, globex: 2 };
const cli = { userId: null, name: 'operator CLI', ip: null, userAgent: null };

async function adminOf(host = ACME, email = 'admin@acme.test') {
  const b = h.client(host, { otherBrowser: true });
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

describe('tokens on the admin screen', () => {
  it('is shown once, stored as its SHA-256 only, and listed without its secret', async () => {
    const admin = await adminOf();
    const made = await admin.post('/accounts/api/admin/scim/tokens', { name: 'Entra ID' });
    expect(made.status).toBe(201);
    const token: string = made.body.token;
    expect(token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
    expect(made.body.summary).toMatchObject({ name: 'Entra ID', state: 'active', lastUsedAt: null });
    // A year by default.
    expect(Date.parse(made.body.summary.expiresAt) - h.clock.now()).toBe(365 * 86_400_000);

    const rows = await h.deps.db.select().from(scimTokens);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token.slice(5));

    const overview = await admin.get('/accounts/api/admin/scim');
    expect(overview.status).toBe(200);
    expect(overview.body.tokens).toHaveLength(1);
    expect(overview.text).not.toContain(token.slice(5));
    expect(overview.body.baseUrl).toBe('http://acme.localhost:8787/accounts/scim/v2');

    const audit = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'scim.token_created'));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorEmail).toBe('admin@acme.test');
    expect(JSON.stringify(audit)).not.toContain(token.slice(5));
  });

  it('only admins may make, list or revoke tokens', async () => {
    const user = h.client(ACME, { otherBrowser: true });
    expect((await user.login('user@acme.test')).body.message).toBe('success');
    expect((await user.get('/accounts/api/admin/scim')).status).toBe(403);
    expect((await user.post('/accounts/api/admin/scim/tokens', { name: 'x' })).status).toBe(403);
    expect((await h.client(ACME).get('/accounts/api/admin/scim')).status).toBe(401);
  });

  it('refuses a bad name or lifetime with field errors', async () => {
    const admin = await adminOf();
    expect((await admin.post('/accounts/api/admin/scim/tokens', { name: '' })).status).toBe(422);
    expect((await admin.post('/accounts/api/admin/scim/tokens', { name: 'ok', expiresInDays: 9999 })).status).toBe(422);
    expect((await admin.post('/accounts/api/admin/scim/tokens', { name: '<script>' })).status).toBe(422);
  });

  it('a revoked token is refused from its next request on, and another tenant cannot revoke it', async () => {
    const { token, id } = await makeToken(h);
    const s = scimClient(h, token);
    expect((await s.get('/Users')).status).toBe(200);
    // Globex's admin (multi) cannot see or revoke Acme's token: 404.
    const globexAdmin = await adminOf(GLOBEX, 'multi@example.test');
    expect((await globexAdmin.request('DELETE', `/accounts/api/admin/scim/tokens/${id}`)).status).toBe(404);
    expect((await s.get('/Users')).status).toBe(200);

    const admin = await adminOf();
    expect((await admin.request('DELETE', `/accounts/api/admin/scim/tokens/${id}`)).status).toBe(200);
    const refused = await s.get('/Users');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ schemas: [ERROR_URN], status: '401' });
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const listed = (await admin.get('/accounts/api/admin/scim')).body.tokens;
    expect(listed[0]).toMatchObject({ id, state: 'revoked' });
    expect((await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'scim.token_revoked'))).length).toBe(1);
  });

  it('an expired token is refused', async () => {
    const { token } = await makeToken(h, { expiresInDays: 1 });
    const s = scimClient(h, token);
    expect((await s.get('/ServiceProviderConfig')).status).toBe(200);
    h.clock.advance(86_400_000);
    expect((await s.get('/ServiceProviderConfig')).status).toBe(401);
  });

  it("another tenant's token is refused on this host, and this tenant's on another host", async () => {
    const globex = await createScimToken(h.deps.db, T.globex, { name: 'Globex IdP' }, cli, h.clock.now());
    // Globex has no SSO subscription; give it one so only the host decides.
    await h.deps.db.update(tenants).set({ featureSsoUsersLimit: 5 }).where(eq(tenants.id, T.globex));
    expect((await scimClient(h, globex.token, GLOBEX).get('/Users')).status).toBe(200);
    expect((await scimClient(h, globex.token, ACME).get('/Users')).status).toBe(401);
    const acme = await makeToken(h);
    expect((await scimClient(h, acme.token, GLOBEX).get('/Users')).status).toBe(401);
    // The custom subdomain is Globex's host too.
    expect((await scimClient(h, globex.token, 'globex-jp.localhost:8787').get('/Users')).status).toBe(200);
  });

  it('without a bearer token, or with garbage, 401 in SCIM error form', async () => {
    const res = await h.app.request(`http://${ACME}${SCIM}/Users`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ schemas: [ERROR_URN], status: '401' });
    expect((await scimClient(h, 'scim_nonsense').get('/Users')).status).toBe(401);
  });

  it('a session cookie is no credential here', async () => {
    const admin = await adminOf();
    const res = await admin.get(`${SCIM}/Users`);
    expect(res.status).toBe(401);
  });

  it('notes when and from where a token was last used', async () => {
    const { token } = await makeToken(h);
    h.clock.advance(5_000);
    await scimClient(h, token, ACME, '198.51.100.99').get('/Users');
    const row = (await h.deps.db.select().from(scimTokens))[0]!;
    expect(row.lastUsedAt).toBe(h.clock.now());
    expect(row.lastUsedIp).toBe('198.51.100.99');
  });

  it('counts requests per token: over the budget 429 with Retry-After, another token unaffected', async () => {
    const a = await makeToken(h, { name: 'A' });
    const b = await makeToken(h, { name: 'B' });
    const sa = scimClient(h, a.token);
    for (let i = 0; i < 60; i++) expect((await sa.get('/ServiceProviderConfig')).status).toBe(200);
    const over = await sa.get('/ServiceProviderConfig');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ schemas: [ERROR_URN], status: '429' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await scimClient(h, b.token).get('/ServiceProviderConfig')).status).toBe(200);
    h.clock.advance(60_000);
    expect((await sa.get('/ServiceProviderConfig')).status).toBe(200);
  });

  it('the CLI path makes a working token with no user behind it, audited under its name', async () => {
    const made = await createScimToken(h.deps.db, T.acme, { name: 'scripted' }, cli, h.clock.now());
    expect((await scimClient(h, made.token).get('/Users')).status).toBe(200);
    const audit = (await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'scim.token_created')))[0]!;
    expect(audit).toMatchObject({ actorUserId: null, actorName: 'operator CLI', tenantId: T.acme });
  });
});

describe('the SSO subscription', () => {
  it('a tenant without it gets 403 with a SCIM error, and cannot make tokens', async () => {
    const made = await createScimToken(h.deps.db, T.globex, { name: 'Globex IdP' }, cli, h.clock.now());
    const res = await scimClient(h, made.token, GLOBEX).get('/Users');
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain(SCIM_JSON);
    expect(res.body).toMatchObject({ schemas: [ERROR_URN], status: '403' });
    expect(res.body.detail).toMatch(/subscription/);
    const globexAdmin = await adminOf(GLOBEX, 'multi@example.test');
    expect((await globexAdmin.post('/accounts/api/admin/scim/tokens', { name: 'x' })).status).toBe(403);
    expect((await globexAdmin.get('/accounts/api/admin/scim')).body).toMatchObject({ subscribed: false, tokens: [] });
  });

  it('a tenant that loses it is refused at once, with its tokens kept', async () => {
    const { token } = await makeToken(h);
    await h.deps.db.update(tenants).set({ featureSsoUsersLimit: 0 }).where(eq(tenants.id, T.acme));
    expect((await scimClient(h, token).get('/Users')).status).toBe(403);
    expect((await scimClient(h, token).post('/Users', { schemas: [USER_URN], userName: 'x@acme.test' })).status).toBe(403);
  });
});

describe('media type and discovery', () => {
  it('answers application/scim+json, takes application/json too, refuses other bodies with 415', async () => {
    const { token } = await makeToken(h);
    const s = scimClient(h, token);
    const res = await s.get('/ServiceProviderConfig');
    expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    const asJson = await s.send('POST', '/Users', JSON.stringify({ schemas: [USER_URN], userName: 'json@acme.test' }), { 'content-type': 'application/json' });
    expect(asJson.status).toBe(201);
    expect(asJson.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    const plain = await s.send('POST', '/Users', 'userName=x', { 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    expect(plain.body).toMatchObject({ schemas: [ERROR_URN], status: '415' });
    const broken = await s.send('POST', '/Users', '{"userName":', {});
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
  });

  it('ServiceProviderConfig says exactly what is supported', async () => {
    const { token } = await makeToken(h);
    const res = await scimClient(h, token).get('/ServiceProviderConfig');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 100 },
      sort: { supported: false },
      etag: { supported: false },
      changePassword: { supported: false },
    });
    expect(res.body.authenticationSchemes[0].type).toBe('oauthbearertoken');
  });

  it('ResourceTypes and Schemas list User (with the enterprise extension) and Group', async () => {
    const { token } = await makeToken(h);
    const s = scimClient(h, token);
    const types = await s.get('/ResourceTypes');
    expect(types.body.schemas).toEqual([LIST_URN]);
    expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group']);
    expect(types.body.Resources[0].schemaExtensions[0]).toEqual({ schema: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User', required: false });
    expect((await s.get('/ResourceTypes/Group')).body.endpoint).toBe('/Groups');
    const schemas = await s.get('/Schemas');
    const ids = schemas.body.Resources.map((r: { id: string }) => r.id);
    expect(ids).toEqual(expect.arrayContaining([USER_URN, 'urn:ietf:params:scim:schemas:core:2.0:Group', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']));
    const user = await s.get(`/Schemas/${USER_URN}`);
    expect(user.body.attributes.map((a: { name: string }) => a.name)).toEqual(expect.arrayContaining(['userName', 'name', 'displayName', 'emails', 'active']));
    expect((await s.get('/Schemas/urn:nope')).status).toBe(404);
    expect((await s.get('/Bulk')).status).toBe(501);
    const missing = await s.get('/Nothing');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ schemas: [ERROR_URN], status: '404' });
  });

  it('an unknown host answers a SCIM 404', async () => {
    const res = await h.app.request(`http://nobody.localhost:8787${SCIM}/Users`, { headers: { authorization: 'Bearer scim_x' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  });
});
