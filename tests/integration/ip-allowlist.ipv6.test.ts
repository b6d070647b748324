// IPv6 offices in the IP allowlist (issue 27 part 5, decision 0045) through the API: entries,
// refusals, the lock-out rules for an admin on IPv6, sign-in refusals that name the address
// (part 7), and IPv4-mapped clients.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenants, whitelistedIps } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const ADMIN_V6 = '2400:4050:1:2:aaaa:bbbb:cccc:dddd';
const OFFICE_V6 = '2400:4050:1::';
const NOT_PUBLIC = 'The ip address must be a public IP address.';
const ips = '/accounts/api/admin/whitelisted-ips';

const signedIn = (ip: string, email = 'admin@acme.test', host = ACME): Promise<TestClient> => h.signedIn(email, host, { ip });

describe('IPv6 entries through the API', () => {
  it('adds IPv6 addresses and prefixes as networks, refuses duplicates, special ranges and bad prefixes', async () => {
    const b = await signedIn(ADMIN_V6);
    const added = await b.post(ips, { ipAddress: '2400:4050:1::5', prefixLength: 48, description: '本社 IPoE' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ ip_address: OFFICE_V6, prefix_length: 48, description: '本社 IPoE' });
    // The same network typed another way is the same entry.
    expect((await b.post(ips, { ipAddress: '2400:4050:0001:0000::', prefixLength: 48 })).body).toEqual({ message: 'duplicate-ip' });
    expect((await b.post(ips, { ipAddress: '2400:4050:1::9' })).body).toMatchObject({ ip_address: '2400:4050:1::9', prefix_length: 128 });
    for (const ip of ['::1', '2001:db8::1', 'fe80::1', 'fd00:1::1', 'fc00::', 'ff02::1', '2001::1', '3fff::1']) {
      expect((await b.post(ips, { ipAddress: ip })).body.message, ip).toBe(NOT_PUBLIC);
    }
    for (const [ipAddress, prefixLength] of [['2400:4050::', 31], ['2400:4050::', 129], ['::ffff:133.242.10.20', 128], ['2400:::1', 64]] as const) {
      const r = await b.post(ips, { ipAddress, prefixLength });
      expect([400, 422], `${ipAddress}/${prefixLength}`).toContain(r.status);
    }
    expect((await b.post(ips, { ipAddress: '2400:4050::', prefixLength: 32 })).status).toBe(201);
    // IPv4 stays as spec 02 has it.
    expect((await b.post(ips, { ipAddress: '133.242.10.20', prefixLength: 33 })).status).toBe(422);
    expect((await b.post(ips, { ipAddress: '127.0.0.1' })).body.message).toBe(NOT_PUBLIC);
    expect((await b.get(ips)).body).toHaveLength(3);
  });

  it('an admin on IPv6 enables only once their network is listed, cannot delete it while on, and members elsewhere are refused with their address', async () => {
    const b = await signedIn(ADMIN_V6);
    const v4 = (await b.post(ips, { ipAddress: '133.242.20.0', prefixLength: 24 })).body;
    const refused = await b.request('PATCH', '/accounts/api/admin/enable-ip-restriction');
    expect(refused.body).toEqual({ message: 'your-current-ip-address-is-not-whitelisted', ipAddress: ADMIN_V6 });
    const mine = (await b.post(ips, { ipAddress: '2400:4050:1:2::', prefixLength: 64 })).body;
    expect((await b.request('PATCH', '/accounts/api/admin/enable-ip-restriction')).body).toEqual({ message: 'success' });
    expect((await b.request('DELETE', `${ips}/${mine.id}`)).body).toEqual({ message: 'cannot-delete' });
    expect((await b.request('DELETE', `${ips}/${v4.id}`)).body).toEqual({ message: 'success' });
    // Another entry covering the admin: now the /64 may go, the /48 may not.
    const wide = (await b.post(ips, { ipAddress: OFFICE_V6, prefixLength: 48 })).body;
    expect((await b.request('DELETE', `${ips}/${mine.id}`)).body).toEqual({ message: 'success' });
    // Only that entry went (a bare OR in the guard once deleted every tenant's entries).
    expect((await b.get(ips)).body.map((e: { id: number }) => e.id)).toEqual([wide.id]);
    expect((await b.request('DELETE', `${ips}/${wide.id}`)).body).toEqual({ message: 'cannot-delete' });

    // Same office, another interface address: in. Another network: refused, naming the address.
    expect((await h.client(ACME, { ip: '2400:4050:1:9::1' }).login('user@acme.test')).body.message).toBe('success');
    const outside = await h.client(ACME, { ip: '2400:4050:2::1' }).login('user@acme.test');
    expect(outside.status).toBe(403);
    expect(outside.body).toEqual({ message: 'restricted-ip', ipAddress: '2400:4050:2::1' });
    const v4client = await h.client(ACME, { ip: '133.242.20.9' }).login('user@acme.test');
    expect(v4client.body).toEqual({ message: 'restricted-ip', ipAddress: '133.242.20.9' });
  });

  it('parallel deletes of the two entries covering the admin leave at least one', async () => {
    const b = await signedIn(ADMIN_V6);
    const a1 = (await b.post(ips, { ipAddress: '2400:4050:1:2::', prefixLength: 64 })).body;
    const a2 = (await b.post(ips, { ipAddress: OFFICE_V6, prefixLength: 48 })).body;
    expect((await b.request('PATCH', '/accounts/api/admin/enable-ip-restriction')).body).toEqual({ message: 'success' });
    const answers = await Promise.all([b.request('DELETE', `${ips}/${a1.id}`), b.request('DELETE', `${ips}/${a2.id}`)]);
    expect(answers.map((r) => r.body.message).sort()).toEqual(['cannot-delete', 'success']);
    expect((await b.get(ips)).body).toHaveLength(1);
  });

  it('an IPv4-mapped client is its IPv4 address: admitted by an IPv4 entry, never by an IPv6 one', async () => {
    const b = await signedIn('::ffff:133.242.10.20');
    expect((await b.post(ips, { ipAddress: '2400:4050:1::', prefixLength: 48 })).status).toBe(201);
    expect((await b.request('PATCH', '/accounts/api/admin/enable-ip-restriction')).body).toMatchObject({ message: 'your-current-ip-address-is-not-whitelisted' });
    expect((await b.post(ips, { ipAddress: '133.242.10.20' })).status).toBe(201);
    expect((await b.request('PATCH', '/accounts/api/admin/enable-ip-restriction')).body).toEqual({ message: 'success' });
    expect((await h.client(ACME, { ip: '133.242.10.20' }).login('user@acme.test')).body.message).toBe('success');
  });

  it("another tenant's admin cannot see or delete Acme's IPv6 entries", async () => {
    const b = await signedIn(ADMIN_V6);
    const entry = (await b.post(ips, { ipAddress: OFFICE_V6, prefixLength: 48 })).body;
    await h.deps.db.update(tenants).set({ isFeatureIpRestrictionSubscribed: true }).where(eq(tenants.id, 2));
    const globex = await signedIn(ADMIN_V6, 'multi@example.test', 'globex-jp.localhost:8787');
    expect((await globex.get(ips)).body).toEqual([]);
    expect((await globex.request('DELETE', `${ips}/${entry.id}`)).status).toBe(404);
    expect((await b.get(ips)).body).toHaveLength(1);
    // Globex deleting its own entries, one covering its admin twice over, leaves Acme's alone.
    const g1 = (await globex.post(ips, { ipAddress: '2400:4050:1:2::', prefixLength: 64 })).body;
    await globex.post(ips, { ipAddress: OFFICE_V6, prefixLength: 48 });
    expect((await globex.request('PATCH', '/accounts/api/admin/enable-ip-restriction')).body).toEqual({ message: 'success' });
    expect((await globex.request('DELETE', `${ips}/${g1.id}`)).body).toEqual({ message: 'success' });
    expect(await h.deps.db.select().from(whitelistedIps).where(eq(whitelistedIps.tenantId, 1))).toHaveLength(1);
    expect((await globex.get(ips)).body).toHaveLength(1);
  });
});

describe('sign-in refused by the allowlist, without JavaScript', () => {
  it('names the refused address and says to contact the administrator, in both languages', async () => {
    const b = await signedIn('133.242.10.20');
    await b.post(ips, { ipAddress: '133.242.10.20' });
    expect((await b.request('PATCH', '/accounts/api/admin/enable-ip-restriction')).body).toEqual({ message: 'success' });
    for (const [lang, words] of [['ja', '組織の管理者'], ['en', "contact your organization's administrator"]] as const) {
      const c = h.client(ACME, { ip: '2400:4050:9::1' });
      const page = await c.request('POST', '/accounts/login', {
        body: new URLSearchParams({ step: 'password', email: 'user@acme.test', password: 'Portal-Demo-2026!' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: c.origin, 'accept-language': lang },
      });
      expect(page.status).toBe(403);
      expect(page.text).toContain('2400:4050:9::1');
      expect(page.text).toContain(words.replace("'", '&#x27;'));
    }
  });
});
