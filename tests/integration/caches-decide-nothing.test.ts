// Issue 21 root 2, decision 0035: no cache decides who gets in. Each server process keeps a host
// cache for signed-out reads; a second process on the same database (WEB_CONCURRENCY > 1, or
// another Workers isolate) still holds the tenant as it was. The hand-off exchange is a
// signed-out GET on such a process: it must see a policy changed a moment ago elsewhere.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions, tenants } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';
import { confirmed } from '../support/lockout';

const GLOBEX = 'globex-jp.localhost:8787';
const MAIN = 'localhost:8787';

let h: Harness;
beforeEach(async () => {
  // A long cache lifetime, so only a fresh read can explain a right answer.
  h = await createHarness({ HOST_CACHE_SECONDS: '300' });
  await h.deps.db.update(tenants).set({ isFeatureTwofaEnforcementSubscribed: true }).where(eq(tenants.id, 2));
});
afterEach(() => h.close());

describe('a process whose host cache is stale', () => {
  it('exchanges a hand-off with the target\'s 2FA enforcement as stored now, not as it cached it', async () => {
    const other = await h.otherProcess();
    // The other process reads (and caches) Globex without enforcement; the person is signed in
    // on the main domain.
    expect((await other.client(GLOBEX).get('/accounts/login')).status).toBe(200);
    const main = h.client(MAIN);
    expect((await main.login('multi@example.test')).body.message).toBe('success');
    // Globex's admin turns enforcement on through this process (which forgets its own cache).
    const admin = h.client(GLOBEX, { otherBrowser: true });
    expect((await admin.login('multi@example.test')).body.message).toBe('success');
    expect((await confirmed(admin, 'POST', '/accounts/api/admin/twofa', { isTwofaEnforced: true, isTwofaSkipAllowed: false })).status).toBe(200);
    // The person chooses Globex; the other process redeems the code.
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 2, continue: '/accounts/my-account' })).body as { url: string };
    const before = (await h.deps.db.select().from(sessions).where(eq(sessions.tenantId, 2))).length;
    const u = new URL(url);
    const landed = await other.client(u.host).get(u.pathname + u.search);
    expect(landed.status).toBe(302);
    expect(landed.headers.get('location')).toBe(`/accounts/setup-twofa-at-login?continue=${encodeURIComponent('/accounts/my-account')}`);
    expect((await h.deps.db.select().from(sessions).where(eq(sessions.tenantId, 2))).length).toBe(before);
  });

  it('a password login on the stale process is decided with the policy as stored now', async () => {
    const other = await h.otherProcess();
    expect((await other.client(GLOBEX).get('/accounts/login')).status).toBe(200);
    const admin = h.client(GLOBEX, { otherBrowser: true });
    expect((await admin.login('multi@example.test')).body.message).toBe('success');
    expect((await confirmed(admin, 'POST', '/accounts/api/admin/twofa', { isTwofaEnforced: true, isTwofaSkipAllowed: false })).status).toBe(200);
    const r = await other.client(GLOBEX).login('multi@example.test');
    expect(r.body.message).toBe('enable-twofa');
  });
});
