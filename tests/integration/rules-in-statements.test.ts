// Issue 21 root 3, decision 0035: a rule that guards security or money is decided inside the
// statement that writes, never from a read taken before it. Each rule's requests are fired at the
// same moment; whatever order the database runs them in, the rule holds.
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenantApps, tenants, tenantUsers, users, whitelistedIps } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { confirmed } from '../support/lockout';

const API = '/accounts/api';
const ACME = 'acme.localhost:8787';
const GLOBEX = 'globex-jp.localhost:8787';
const INITECH = 'initech.localhost:8787';
// Demo ids (src/db/seed.ts)
const U = { admin: 1, user: 2, multi: 3, totp: 4, gone: 5, initech: 6, manager: 7 };

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  // Seats are not what these tests are about: every tenant's card app is unlimited.
  await h.deps.db.update(tenantApps).set({ seats: null });
});
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 20));
  h.close();
});

async function signIn(email: string, host: string, ip?: string): Promise<TestClient> {
  const b = h.client(host, { otherBrowser: true, ip });
  expect((await b.login(email)).body.message, email).toBe('success');
  return b;
}

const newUser = (email: string, over: Record<string, unknown> = {}) => ({
  name: '新人 一郎',
  email,
  department_id: null,
  is_admin: false,
  allowedApps: ['meishi'],
  additionalDepartmentIds: [],
  saml_name_id: null,
  is_sso_enabled: false,
  ...over,
});

describe('invitations: a new address added by two tenants at once', () => {
  it('20 rounds: never two full memberships; the other tenant holds an invitation the person must accept', async () => {
    const globex = await signIn('multi@example.test', GLOBEX);
    const initech = await signIn('admin@initech.test', INITECH);
    for (let round = 0; round < 20; round++) {
      const email = `race-${round}@example.test`;
      const [a, b] = await Promise.all([globex.post(`${API}/admin/users`, newUser(email)), initech.post(`${API}/admin/users`, newUser(email))]);
      expect([a.status, b.status], `round ${round}`).toEqual([201, 201]);
      const user = (await h.deps.db.select().from(users).where(eq(users.email, email)).get())!;
      const rows = await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.userId, user.id));
      expect(rows, `round ${round}`).toHaveLength(2);
      expect(rows.filter((r) => !r.invitationPending), `round ${round}`).toHaveLength(1);
      // The pending one says so in its answer and audit entry, and its mail asks to accept.
      const answers = [a.body.user, b.body.user] as { invitation_pending: boolean }[];
      expect(answers.filter((u) => u.invitation_pending), `round ${round}`).toHaveLength(1);
    }
  });
});

describe('the SSO users limit', () => {
  it('eight members switched to SSO at once with two places left: two are', async () => {
    await h.deps.db.update(tenants).set({ isSsoEnabled: true, featureSsoUsersLimit: 2 }).where(eq(tenants.id, 1));
    const admin = await signIn('admin@acme.test', ACME);
    // Eight plain members of Acme to switch.
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await admin.post(`${API}/admin/users`, newUser(`sso-${i}@acme.test`));
      expect(r.status).toBe(201);
      ids.push(r.body.user.id as number);
    }
    const rs = await Promise.all(ids.map((id, i) => admin.patch(`${API}/admin/users/${id}`, { name: '新人 一郎', email: `sso-${i}@acme.test`, is_sso_enabled: true, saml_name_id: `nid-${i}` })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(2);
    expect(rs.filter((r) => r.body.message === 'sso_users_limit_exceeded')).toHaveLength(6);
    const sso = await h.deps.db.select().from(tenantUsers).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.isSsoEnabled, true)));
    expect(sso).toHaveLength(2);
  });

  it('adds with SSO on and "SSO for all" racing for the last places never exceed the limit', async () => {
    const admin = await signIn('admin@acme.test', ACME);
    const members = (await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, 1))).filter((m) => !m.deactivatedAt && !m.invitationPending).length;
    // Exactly enough places for "SSO for all" as the tenant is now; parallel adds take them too.
    await h.deps.db.update(tenants).set({ isSsoEnabled: true, featureSsoUsersLimit: members + 1 }).where(eq(tenants.id, 1));
    const rs = await Promise.all([
      confirmed(admin, 'POST', `${API}/admin/users/enable-sso-for-all`),
      ...[0, 1, 2].map((i) => admin.post(`${API}/admin/users`, newUser(`sso-add-${i}@acme.test`, { is_sso_enabled: true, saml_name_id: `add-${i}` }))),
    ]);
    const limit = members + 1;
    const sso = (await h.deps.db.select().from(tenantUsers).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.isSsoEnabled, true)))).filter((m) => !m.deactivatedAt);
    expect(sso.length).toBeLessThanOrEqual(limit);
    for (const r of rs) expect([200, 201, 422]).toContain(r.status);
  });

  it('a reactivation of an SSO member takes a place only if one is left, also in parallel', async () => {
    await h.deps.db.update(tenants).set({ isSsoEnabled: true, featureSsoUsersLimit: 1 }).where(eq(tenants.id, 1));
    // Two deactivated SSO members, no active one: one place for two reactivations.
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true, deactivatedAt: h.clock.now() }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, U.user)));
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true, deactivatedAt: h.clock.now() }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, U.totp)));
    const admin = await signIn('admin@acme.test', ACME);
    const rs = await Promise.all([U.user, U.totp].map((id) => admin.post(`${API}/admin/users/${id}/reactivate`)));
    expect(rs.map((r) => r.status).sort()).toEqual([200, 422]);
    const active = (await h.deps.db.select().from(tenantUsers).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.isSsoEnabled, true)))).filter((m) => !m.deactivatedAt);
    expect(active).toHaveLength(1);
  });
});

describe('a SAML name id belongs to one member', () => {
  it('two members given the same name id at once: one gets it', async () => {
    await h.deps.db.update(tenants).set({ isSsoEnabled: true, featureSsoUsersLimit: 10 }).where(eq(tenants.id, 1));
    const admin = await signIn('admin@acme.test', ACME);
    const rs = await Promise.all([
      admin.patch(`${API}/admin/users/${U.user}`, { name: 'a', email: 'user@acme.test', is_sso_enabled: true, saml_name_id: 'same-person' }),
      admin.patch(`${API}/admin/users/${U.totp}`, { name: 'b', email: 'totp@acme.test', is_sso_enabled: true, saml_name_id: 'same-person' }),
    ]);
    expect(rs.map((r) => r.body.message).sort()).toEqual(['saml-name-id-taken', 'success']);
    expect(await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.samlNameId, 'same-person'))).toHaveLength(1);
  });
});

describe('an address is the identity in every tenant', () => {
  it('20 rounds: an email change never goes through while another tenant adds the old address', async () => {
    const acme = await signIn('admin@acme.test', ACME);
    const globex = await signIn('multi@example.test', GLOBEX);
    for (let round = 0; round < 20; round++) {
      // A member of Acme only, unregistered.
      const old = `mover-${round}@acme.test`;
      const made = await acme.post(`${API}/admin/users`, newUser(old));
      expect(made.status).toBe(201);
      const id = made.body.user.id as number;
      const [change, add] = await Promise.all([
        acme.patch(`${API}/admin/users/${id}`, { name: '新人 一郎', email: `moved-${round}@acme.test` }),
        globex.post(`${API}/admin/users`, newUser(old)),
      ]);
      const user = (await h.deps.db.select().from(users).where(eq(users.id, id)).get())!;
      const inGlobex = await h.deps.db.select().from(tenantUsers).where(and(eq(tenantUsers.tenantId, 2), eq(tenantUsers.userId, id))).get();
      // Either the change won (Globex then added a new account under the old address), or Globex's
      // row came first and the change was refused: never Globex's member renamed under it.
      if (inGlobex) {
        expect(user.email, `round ${round}`).toBe(old);
        expect(change.body.message, `round ${round}`).toBe('belongs-to-multiple-tenants');
      } else {
        expect(change.body.message, `round ${round}`).toBe('sent-register-mail-to-new-email-id');
      }
      expect(add.status, `round ${round}`).toBe(201);
    }
  });
});

describe("an admin's own address stays allowed", () => {
  it('20 rounds: deleting the entry that covers the admin and switching the restriction on, at once, never lock the admin out', async () => {
    const ip = '93.184.216.34';
    await h.deps.db.update(tenants).set({ isFeatureIpRestrictionSubscribed: true }).where(eq(tenants.id, 1));
    const admin = await signIn('admin@acme.test', ACME, ip);
    for (let round = 0; round < 20; round++) {
      await h.deps.db.update(tenants).set({ isIpRestrictionEnabled: false }).where(eq(tenants.id, 1));
      const added = await admin.post(`${API}/admin/whitelisted-ips`, { ipAddress: ip, prefixLength: 32 });
      expect(added.status).toBe(201);
      const [del, on] = await Promise.all([admin.request('DELETE', `${API}/admin/whitelisted-ips/${added.body.id}`), admin.request('PATCH', `${API}/admin/enable-ip-restriction`)]);
      const tenant = (await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!;
      const left = await h.deps.db.select().from(whitelistedIps).where(eq(whitelistedIps.tenantId, 1));
      if (tenant.isIpRestrictionEnabled) {
        expect(left.map((e) => e.ipAddress), `round ${round}`).toContain(ip);
        expect(del.body.message, `round ${round}`).toBe('cannot-delete');
      } else {
        expect(on.body.message, `round ${round}`).toBe('your-current-ip-address-is-not-whitelisted');
      }
      await h.deps.db.delete(whitelistedIps).where(eq(whitelistedIps.tenantId, 1));
    }
    expect(await h.deps.db.select().from(tenantUsers).where(and(eq(tenantUsers.tenantId, 1), isNotNull(tenantUsers.samlNameId)))).toHaveLength(0);
  });
});
