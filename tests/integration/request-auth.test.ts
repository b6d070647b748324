// Who is asking, in one statement (issue 13): host, session, user, membership, memberships and an
// enforced allowlist are read together; the host cache serves signed-out reads only; activity is
// recorded after the answer.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { sessions, tenants, tenantUsers, whitelistedIps } from '../../src/db/schema';
import { forgetHosts } from '../../src/domain/tenants/hosts';
import { listMemberships } from '../../src/domain/tenants/memberships';
import { userPayload } from '../../src/domain/account/profile';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
afterEach(() => h?.close());

const ACME = 'acme.localhost:8787';

describe('the request authentication statement', () => {
  it('a signed-in GET api/user is one statement, and answers what the separate queries answer', async () => {
    h = await createHarness();
    const b = h.client(ACME);
    expect((await b.login('multi@example.test')).body.message).toBe('success');
    h.queries.length = 0;
    const res = await b.get('/accounts/api/user');
    expect(res.status).toBe(200);
    expect(h.queries).toHaveLength(1);
    // The same payload the drizzle queries build, field for field (memberships in two tenants).
    const user = (await h.deps.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.email, 'multi@example.test') }))!;
    const acme = (await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!;
    expect(res.body.user).toEqual(JSON.parse(JSON.stringify(userPayload(user, await listMemberships(h.deps.db, user.id), acme, { kind: 'person' }))));
    expect(res.body.user.tenants).toHaveLength(2);
  });

  it('the host tenant\'s membership comes from the row itself, and the list still equals listMemberships', async () => {
    h = await createHarness();
    const db = h.deps.db;
    const cases: [host: string, email: string][] = [
      [ACME, 'admin@acme.test'],
      [ACME, 'user@acme.test'],
      ['globex-jp.localhost:8787', 'multi@example.test'],
      ['localhost:8787', 'multi@example.test'],
    ];
    // A membership being deleted is no membership; a tenant without contracted apps gives none.
    await db.update(tenantUsers).set({ operationStatus: 'deleting' }).where(and(eq(tenantUsers.userId, 3), eq(tenantUsers.tenantId, 1)));
    await db.update(tenantUsers).set({ meishiAccessGrantedAt: null }).where(eq(tenantUsers.userId, 2));
    for (const [host, email] of cases) {
      const b = h.client(host);
      expect((await b.login(email)).body.message, `${email} on ${host}`).toBe('success');
      const res = await b.get('/accounts/api/user');
      expect(res.status).toBe(200);
      const user = (await db.query.users.findFirst({ where: (u, { eq: e }) => e(u.email, email) }))!;
      const label = host.split('.')[0];
      const hostTenant = host.startsWith('localhost') ? null : (await db.select().from(tenants).where(label === 'acme' ? eq(tenants.initialSubdomain, 'acme') : eq(tenants.subdomain, label!)).get())!;
      expect(res.body.user, `${email} on ${host}`).toEqual(JSON.parse(JSON.stringify(userPayload(user, await listMemberships(db, user.id), hostTenant, { kind: 'person' }))));
    }
  });

  it('finds the session cookie among a browser\'s other cookies, and only under its own name', async () => {
    h = await createHarness();
    const b = h.client(ACME);
    expect((await b.login('admin@acme.test')).body.message).toBe('success');
    const token = b.cookies.get('portal_session')!;
    const ask = async (cookie: string) => (await h.client(ACME, { otherBrowser: true }).get('/accounts/api/user', { headers: { cookie } })).status;
    // Analytics and other sites' cookies before and after, a value with spaces, a malformed pair.
    expect(await ask(`_ga=GA1.2.3; broken; x_portal_session=zzz; portal_session=${token}; theme="dark mode"; portal_locale=en`)).toBe(200);
    // A cookie whose name only contains ours, or ours with a prefix it does not have here, is none.
    expect(await ask(`x_portal_session=${token}; portal_session_old=${token}`)).toBe(401);
    expect(await ask(`__Host-portal_session=${token}`)).toBe(401);
    // Signed out, the language still comes from its cookie among the others.
    const login = await h.client(ACME, { otherBrowser: true }).get('/accounts/login', { headers: { cookie: `_ga=1; portal_locale=en; other=2`, 'accept-language': 'ja' } });
    expect(login.text).toContain('<html lang="en"');
  });

  it('the main domain and a session cookie: one statement too', async () => {
    h = await createHarness();
    const b = h.client('localhost:8787');
    expect((await b.login('admin@acme.test')).body.message).toBe('success');
    h.queries.length = 0;
    const res = await b.get('/accounts/api/user');
    expect(res.status).toBe(200);
    expect(res.body.user.current_tenant).toBeNull();
    expect(h.queries).toHaveLength(1);
  });

  it('a signed-in request sees a tenant policy change at once, even one written behind the app', async () => {
    h = await createHarness();
    const b = h.client(ACME, { ip: '203.0.113.10' });
    expect((await b.login('user@acme.test')).body.message).toBe('success');
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    // Another process turns the allowlist on (this process's host cache still holds the old row).
    await h.deps.db.insert(whitelistedIps).values({ tenantId: 1, ipAddress: '198.51.100.0', prefixLength: 24, createdAt: h.clock.now() });
    await h.deps.db.update(tenants).set({ isFeatureIpRestrictionSubscribed: true, isIpRestrictionEnabled: true }).where(eq(tenants.id, 1));
    const refused = await b.get('/accounts/api/user');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('restricted-ip');
    const inside = h.client(ACME, { ip: '198.51.100.7', otherBrowser: true });
    inside.cookies = new Map(b.cookies);
    expect((await inside.get('/accounts/api/user')).status).toBe(200);
  });

  it('signed out: reads use the host cache for its lifetime, state changes and changes made here do not', async () => {
    h = await createHarness({ HOST_CACHE_SECONDS: '60' });
    const admin = h.client(ACME);
    expect((await admin.login('admin@acme.test')).body.message).toBe('success');
    expect((await admin.post('/accounts/api/password/verify', { password: 'Portal-Demo-2026!' })).status).toBe(200);
    expect((await admin.patch('/accounts/api/admin/subdomain', { subdomain: 'acme-x' })).status).toBe(200);
    // Changed through the app: the new label works at once.
    const visitor = h.client('acme-x.localhost:8787');
    expect((await visitor.get('/accounts/api/user')).status).toBe(401);
    // Changed behind the app (another process): a signed-out read may still see it for the
    // cache's lifetime; a state-changing request reads afresh.
    await h.deps.db.update(tenants).set({ subdomain: null }).where(eq(tenants.id, 1));
    h.queries.length = 0;
    expect((await visitor.get('/accounts/api/user')).status).toBe(401);
    expect(h.queries.some((q) => q.includes('tenant_hosts'))).toBe(false);
    expect((await visitor.post('/accounts/api/v2/login', { email: 'user@acme.test', password: 'x' })).status).toBe(404);
    forgetHosts(h.deps.db);
    expect((await visitor.get('/accounts/api/user')).status).toBe(404);
  });

  it('with the cache off every signed-out read asks the database', async () => {
    h = await createHarness({ HOST_CACHE_SECONDS: '0' });
    const visitor = h.client(ACME);
    await visitor.get('/accounts/api/user');
    h.queries.length = 0;
    await visitor.get('/accounts/api/user');
    expect(h.queries.some((q) => q.includes('tenant_hosts'))).toBe(true);
  });

  it('activity is recorded after the answer, at most once a minute', async () => {
    h = await createHarness();
    const b = h.client(ACME);
    expect((await b.login('user@acme.test')).body.message).toBe('success');
    const before = (await h.deps.db.select().from(sessions).where(eq(sessions.userId, 2)).get())!;
    h.clock.advance(30_000);
    await b.get('/accounts/api/user');
    await new Promise((r) => setTimeout(r, 20));
    expect((await h.deps.db.select().from(sessions).where(eq(sessions.id, before.id)).get())!.lastActivityAt).toBe(before.lastActivityAt);
    h.clock.advance(60_000);
    await b.get('/accounts/api/user');
    await new Promise((r) => setTimeout(r, 20));
    expect((await h.deps.db.select().from(sessions).where(eq(sessions.id, before.id)).get())!.lastActivityAt).toBe(h.clock.now());
  });
});
