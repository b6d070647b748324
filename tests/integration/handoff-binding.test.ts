// Issue 21 root 5, decision 0035: the hand-off's browser binding is made for one hand-off (a
// fresh value, signed with its code, living as long as the code and used up by the exchange),
// no longer a 400-day id on the whole portal domain that a sibling subdomain could plant once and
// have every later hand-off of the browser bound to. And the tenant's IP allowlist binds tenant
// managers signed in on its host, as it binds its members.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handoffCodes, sessions, tenants, whitelistedIps } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';

const MAIN = 'localhost:8787';
const ACME = 'acme.localhost:8787';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

async function handoff(main: TestClient, tenant = 2) {
  const r = await main.post('/accounts/api/handoff', { tenant_id: tenant, continue: '/accounts/my-account' });
  expect(r.status).toBe(200);
  const cookie = r.headers.getSetCookie().find((c) => c.startsWith('portal_handoff_'))!;
  return { url: new URL(r.body.url as string), cookie, name: cookie.slice(0, cookie.indexOf('=')), value: cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';')) };
}

describe('the hand-off binding cookie', () => {
  it('is made per hand-off: on the portal domain, for one minute, signed, and the code row holds only a hash', async () => {
    const main = h.client(MAIN);
    expect((await main.login('multi@example.test')).body.message).toBe('success');
    const a = await handoff(main);
    const b = await handoff(main);
    expect(a.cookie).toMatch(/Domain=localhost/i);
    expect(a.cookie).toMatch(/Max-Age=60/i);
    expect(a.cookie).toMatch(/HttpOnly/i);
    expect(a.name).not.toBe(b.name);
    expect(a.value).toMatch(/^[A-Za-z0-9_-]{43}\.k1\.[A-Za-z0-9_-]{43}$/);
    const rows = await h.deps.db.select().from(handoffCodes);
    for (const r of rows) expect(r.browserHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(a.value.split('.')[0]);
  });

  it('is used up by the exchange, and one hand-off\'s value does not fit another\'s code', async () => {
    const main = h.client(MAIN);
    expect((await main.login('multi@example.test')).body.message).toBe('success');
    const first = await handoff(main);
    const second = await handoff(main);
    // A browser holding only the second hand-off's cookie, under the first one's name.
    const thief = h.client(first.url.host, { otherBrowser: true });
    thief.domainJar.set('localhost', new Map([[first.name, second.value]]));
    const refused = await thief.get(first.url.pathname + first.url.search);
    expect(refused.status).toBe(400);
    // The asking browser redeems it; the cookie is deleted as it is used.
    const target = h.client(first.url.host);
    const landed = await target.get(first.url.pathname + first.url.search);
    expect(landed.status).toBe(302);
    expect(landed.headers.getSetCookie().some((c) => c.startsWith(`${first.name}=;`) && /Max-Age=0/i.test(c))).toBe(true);
    expect(main.domainJar.get('localhost')?.has(first.name)).toBe(false);
  });

  it('a value planted under the right name but not signed by the portal is refused', async () => {
    const main = h.client(MAIN);
    expect((await main.login('multi@example.test')).body.message).toBe('success');
    const { url, name } = await handoff(main);
    const planted = h.client(url.host, { otherBrowser: true });
    planted.domainJar.set('localhost', new Map([[name, `${'A'.repeat(43)}.k1.${'B'.repeat(43)}`]]));
    expect((await planted.get(url.pathname + url.search)).status).toBe(400);
    expect(await h.deps.db.select().from(sessions).where(eq(sessions.tenantId, 2))).toHaveLength(0);
  });
});

describe('the IP allowlist and tenant managers', () => {
  it('a tenant manager signed in on the host is refused outside the allowlist once it is switched on', async () => {
    const manager = h.client(ACME, { ip: '198.51.100.5' });
    expect((await manager.login('manager@staff.test')).body.message).toBe('success');
    expect((await manager.get('/accounts/api/admin/users')).status).toBe(200);
    await h.deps.db.insert(whitelistedIps).values({ tenantId: 1, ipAddress: '192.0.2.1', prefixLength: 32, createdAt: h.clock.now() });
    await h.deps.db.update(tenants).set({ isFeatureIpRestrictionSubscribed: true, isIpRestrictionEnabled: true }).where(eq(tenants.id, 1));
    const refused = await manager.get('/accounts/api/admin/users');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('restricted-ip');
    manager.ip = '192.0.2.1';
    expect((await manager.get('/accounts/api/admin/users')).status).toBe(200);
  });
});
