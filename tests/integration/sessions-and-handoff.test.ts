// Sessions as rows and the host hand-off (DESIGN.md section 3).
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handoffCodes, sessions, tenants, tenantUsers, whitelistedIps } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const MAIN = 'localhost:8787';

const signedIn = (email: string, host = ACME): Promise<TestClient> => h.signedIn(email, host);

/** Follows a hand-off URL on its own host, as the browser does. */
async function redeem(url: string) {
  const u = new URL(url);
  const target = h.client(u.host);
  const r = await target.get(u.pathname + u.search);
  return { target, r };
}

describe('sessions', () => {
  it('a cookie from one tenant host does not authenticate on another', async () => {
    const acme = await signedIn('multi@example.test');
    const globex = h.client('globex-jp.localhost:8787');
    globex.cookies = new Map(acme.cookies);
    expect((await globex.get('/accounts/api/user')).status).toBe(401);
    const main = h.client(MAIN);
    main.cookies = new Map(acme.cookies);
    expect((await main.get('/accounts/api/user')).status).toBe(401);
  });

  it('an ordinary session ends after the idle limit; activity slides it', async () => {
    const b = await signedIn('user@acme.test');
    h.clock.advance(11 * 3_600_000);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    h.clock.advance(11 * 3_600_000);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    h.clock.advance(12 * 3_600_000 + 1);
    expect((await b.get('/accounts/api/user')).status).toBe(401);
  });

  it('an ordinary session ends 7 days after sign-in however active it is (SESSION_MAX_DAYS)', async () => {
    const b = await signedIn('user@acme.test');
    for (let i = 0; i < 27; i++) {
      h.clock.advance(6 * 3_600_000);
      expect((await b.get('/accounts/api/user')).status).toBe(200);
    }
    h.clock.advance(6 * 3_600_000);
    expect((await b.get('/accounts/api/user')).status).toBe(401);
  });

  it('a hand-off keeps the moment the person signed in: hopping hosts never extends a session', async () => {
    const main = h.client(MAIN);
    await main.login('multi@example.test');
    for (let i = 0; i < 24; i++) {
      h.clock.advance(6 * 3_600_000);
      expect((await main.get('/accounts/api/user')).status).toBe(200);
    }
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 2 })).body;
    const { target } = await redeem(url);
    expect((await target.get('/accounts/api/user')).status).toBe(200);
    h.clock.advance(86_400_000);
    expect((await target.get('/accounts/api/user')).status).toBe(401);
  });

  it('a remembered session lasts 30 days', async () => {
    const b = h.client(ACME);
    await b.login('user@acme.test', 'Portal-Demo-2026!', true);
    h.clock.advance(29 * 86_400_000);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    h.clock.advance(2 * 86_400_000);
    expect((await b.get('/accounts/api/user')).status).toBe(401);
  });

  it('records last activity on the membership at most once a minute', async () => {
    const b = await signedIn('user@acme.test');
    const t0 = h.clock.now();
    h.clock.advance(61_000);
    await b.get('/accounts/api/user');
    const m = await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.id, 2)).get();
    expect(m!.lastActiveAt).toBe(t0 + 61_000);
  });

  it('logout deletes the session row and clears the cookie; the old token is dead', async () => {
    const b = await signedIn('user@acme.test');
    const token = b.cookies.get('portal_session')!;
    const r = await b.post('/accounts/api/logout');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'success', sloUrl: null });
    expect(b.cookies.has('portal_session')).toBe(false);
    expect(await h.deps.db.select().from(sessions)).toHaveLength(0);
    b.cookies.set('portal_session', token);
    expect((await b.get('/accounts/api/user')).status).toBe(401);
  });

  it('a deactivated membership ends access at the next request', async () => {
    const b = await signedIn('user@acme.test');
    await h.deps.db.update(tenantUsers).set({ deactivatedAt: h.clock.now() }).where(eq(tenantUsers.id, 2));
    expect((await b.get('/accounts/api/user')).status).toBe(401);
    expect((await b.get('/accounts/my-account')).status).toBe(302);
  });

  it('an IP allowlist switched on mid-session refuses requests from outside it', async () => {
    const b = await signedIn('user@acme.test');
    await h.deps.db.update(tenants).set({ isIpRestrictionEnabled: true }).where(eq(tenants.id, 1));
    await h.deps.db.insert(whitelistedIps).values({ tenantId: 1, ipAddress: '198.51.100.0', prefixLength: 24 });
    const api = await b.get('/accounts/api/user');
    expect(api.status).toBe(403);
    expect(api.body).toEqual({ message: 'restricted-ip' });
    const page = await b.get('/accounts/my-account');
    expect(page.status).toBe(403);
    b.ip = '198.51.100.20';
    expect((await b.get('/accounts/api/user')).status).toBe(200);
  });

  it('ignores a forged or malformed cookie', async () => {
    const b = h.client(ACME);
    for (const v of ['x', 'A'.repeat(43), "'; drop table sessions; --"]) {
      b.cookies.set('portal_session', v);
      expect((await b.get('/accounts/api/user')).status).toBe(401);
    }
  });
});

describe('host hand-off', () => {
  it('moves a main-domain session to the chosen tenant host, once', async () => {
    const main = await signedIn('multi@example.test', MAIN);
    const r = await main.post('/accounts/api/handoff', { tenant_id: 2, continue: '/meishi/' });
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(/^http:\/\/globex-jp\.localhost:8787\/accounts\/handoff\?code=[A-Za-z0-9_-]{43}$/);
    const stored = await h.deps.db.select().from(handoffCodes);
    expect(stored[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.url).not.toContain(stored[0]!.codeHash);

    const { target, r: landed } = await redeem(r.body.url);
    expect(landed.status).toBe(302);
    expect(landed.headers.get('location')).toBe('/meishi/');
    const me = await target.get('/accounts/api/user');
    expect(me.body.user.current_tenant.name).toBe('Globex 株式会社');
    expect(me.body.user.isAdmin).toBe(true);

    const again = await redeem(r.body.url);
    expect(again.r.status).toBe(400);
    expect(again.r.text).toContain('リンクの有効期限が切れているか');
  });

  it('twenty concurrent redemptions of one code create exactly one session', async () => {
    const main = await signedIn('multi@example.test', MAIN);
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 2 })).body;
    const before = (await h.deps.db.select().from(sessions)).length;
    const results = await Promise.all(Array.from({ length: 20 }, () => redeem(url)));
    expect(results.filter((x) => x.r.status === 302)).toHaveLength(1);
    expect((await h.deps.db.select().from(sessions)).length).toBe(before + 1);
  });

  it('a code expires after a minute and works only on its target host', async () => {
    const main = await signedIn('multi@example.test', MAIN);
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 2 })).body;
    const u = new URL(url);
    expect((await h.client(ACME).get(u.pathname + u.search)).status).toBe(400);
    h.clock.advance(61_000);
    expect((await redeem(url)).r.status).toBe(400);
  });

  it('refuses a tenant the user does not belong to with 404, and an unsafe continue falls back to my-account', async () => {
    const main = await signedIn('multi@example.test', MAIN);
    const foreign = await main.post('/accounts/api/handoff', { tenant_id: 3 });
    expect(foreign.status).toBe(404);
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 1, continue: 'https://evil.example/' })).body;
    expect((await redeem(url)).r.headers.get('location')).toBe('/accounts/my-account');
  });

  it('needs a session', async () => {
    expect((await h.client(MAIN).post('/accounts/api/handoff', { tenant_id: 2 })).status).toBe(401);
  });
});
