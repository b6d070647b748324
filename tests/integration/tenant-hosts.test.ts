// One label, one tenant, by construction (issue 12: a custom subdomain could equal another
// tenant's initial subdomain when both were claimed at once). tenant_hosts holds every label under
// one unique key; triggers on tenants keep it in step inside the same statement.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenantHosts, tenants } from '../../src/db/schema';
import { createOperatorToken } from '../../src/domain/operator/tokens';
import { forgetHosts } from '../../src/domain/tenants/hosts';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const PW = 'Portal-Demo-2026!';

async function adminWithFreshPassword() {
  const b = h.client(ACME);
  expect((await b.login('admin@acme.test')).body.message).toBe('success');
  expect((await b.post('/accounts/api/password/verify', { password: PW })).status).toBe(200);
  return b;
}

function createTenant(token: string, label: string) {
  return h.app.request('http://localhost:8787/accounts/api/operator/tenants', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Tenant ${label}`, subdomain: label, apps: [{ app: 'meishi', seats: 5 }], features: {}, contract: {}, admin: { email: `boss@${label}.test`, name: 'Boss' } }),
  });
}

describe('tenant host labels', () => {
  it('a custom subdomain and a new tenant claiming the same label at once: exactly one wins, and each host serves its owner', async () => {
    const { token } = await createOperatorToken(h.deps.db, 'ops', ['tenants:write', 'tenants:read'], h.clock.now());
    for (let round = 0; round < 4; round++) {
      const label = `race${round}`;
      const admin = await adminWithFreshPassword();
      const [custom, created] = await Promise.all([admin.patch('/accounts/api/admin/subdomain', { subdomain: label }), createTenant(token, label)]);
      const wins = [custom.status === 200, created.status === 201].filter(Boolean).length;
      expect(wins, `round ${round}: ${custom.status} ${created.status}`).toBe(1);
      const owners = await h.deps.db.select().from(tenantHosts).where(eq(tenantHosts.label, label));
      expect(owners).toHaveLength(1);
      const served = await h.client(`${label}.localhost:8787`).get('/accounts/api/user');
      expect(served.body.message).toBe('unauthenticated');
      // Reset Acme's custom label for the next round (behind the app's back: forget its hosts).
      await h.deps.db.update(tenants).set({ subdomain: null }).where(eq(tenants.id, 1));
      forgetHosts(h.deps.db);
    }
  });

  it('the database itself refuses a second owner of a label, whichever column claims it', async () => {
    await h.deps.db.update(tenants).set({ subdomain: 'acme-corp' }).where(eq(tenants.id, 1));
    await expect(h.deps.db.insert(tenants).values({ name: 'Copy', initialSubdomain: 'acme-corp' })).rejects.toThrow();
    await expect(h.deps.db.update(tenants).set({ subdomain: 'globex' }).where(eq(tenants.id, 3))).rejects.toThrow();
    const rows = await h.deps.db.select().from(tenantHosts).where(eq(tenantHosts.tenantId, 1));
    expect(rows.map((r) => [r.label, r.kind]).sort()).toEqual([
      ['acme', 'initial'],
      ['acme-corp', 'custom'],
    ]);
    expect((await h.client('acme-corp.localhost:8787').get('/accounts/api/user')).status).toBe(401);
    await h.deps.db.update(tenants).set({ subdomain: null }).where(eq(tenants.id, 1));
    // Written behind the app's back: like another process's change, seen once the host cache lets go.
    forgetHosts(h.deps.db);
    expect((await h.client('acme-corp.localhost:8787').get('/accounts/api/user')).status).toBe(404);
  });
});
