// Adding an account that already exists elsewhere is an invitation the person accepts (issue 12
// section 1, decision 0027). Until then the tenant sees only the address it typed and can change
// nothing about the account; no way in counts the membership; a tenant admin never rewrites a
// person's own name (edit or import).
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenantUsers, users } from '../../src/db/schema';
import { IMPORT_HEADERS } from '../../src/shared/people/schemas';
import { createHarness, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 20));
  h.close();
});

const ACME = 'acme.localhost:8787';
const INITECH = 'initech.localhost:8787';
const MAIN = 'localhost:8787';
const API = '/accounts/api';
// user@acme.test (id 2) is someone else's account as far as Initech is concerned.
const VICTIM = { id: 2, email: 'user@acme.test', name: '山田 太郎' };

async function signIn(email: string, host: string): Promise<TestClient> {
  const b = h.client(host, { otherBrowser: true });
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

const invite = (admin: TestClient, over: Record<string, unknown> = {}) =>
  admin.post(`${API}/admin/users`, { name: '乗っ取り 太郎', email: VICTIM.email, department_id: null, is_admin: true, allowedApps: ['meishi'], additionalDepartmentIds: [], saml_name_id: null, is_sso_enabled: false, ...over });

const pendingRow = () => h.deps.db.select().from(tenantUsers).where(and(eq(tenantUsers.tenantId, 3), eq(tenantUsers.userId, VICTIM.id))).get();

describe('an admin of another tenant adds an existing account', () => {
  it('gets a pending invitation that shows only the address, and can read or change nothing about the account', async () => {
    const admin = await signIn('admin@initech.test', INITECH);
    expect((await invite(admin)).status).toBe(201);
    expect((await pendingRow())?.invitationPending).toBe(true);

    const list = await admin.get(`${API}/admin/users`);
    const row = list.body.data.find((u: { email: string }) => u.email === VICTIM.email);
    expect(row).toMatchObject({ name: '', invitation_pending: true, isRegistered: false, last_active_at: null, twofaMethod: null });
    // Searching by the person's real name finds nothing.
    expect((await admin.get(`${API}/admin/users?search=${encodeURIComponent('山田')}`)).body.data).toHaveLength(0);

    const edit = await admin.patch(`${API}/admin/users/${VICTIM.id}`, { name: '改名', email: VICTIM.email, is_sso_enabled: true, saml_name_id: 'victim' });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe('invitation-pending');
    expect((await admin.post(`${API}/admin/users/${VICTIM.id}/deactivate`)).body.message).toBe('invitation-pending');
    expect((await admin.get(`${API}/admin/users/${VICTIM.id}/cards-count`)).body.message).toBe('invitation-pending');
    const u = (await h.deps.db.select().from(users).where(eq(users.id, VICTIM.id)).get())!;
    expect(u.name).toBe(VICTIM.name);
    expect((await pendingRow())?.isSsoEnabled).toBe(false);
  });

  it('until accepted the person cannot enter that tenant, nor be handed off there, nor see it in the chooser', async () => {
    const admin = await signIn('admin@initech.test', INITECH);
    await invite(admin);
    const there = await h.client(INITECH, { otherBrowser: true }).login(VICTIM.email);
    expect(there.status).toBe(403);
    expect(there.body.message).toBe('not-a-member');
    const main = await signIn(VICTIM.email, MAIN);
    const me = await main.get(`${API}/user`);
    expect(me.body.user.tenants.map((t: { id: number }) => t.id)).toEqual([1]);
    expect((await main.post(`${API}/handoff`, { tenant_id: 3 })).status).toBe(404);
  });

  it('the person accepts once (parallel accepts: one wins); then the membership counts and the admin sees the person', async () => {
    const admin = await signIn('admin@initech.test', INITECH);
    await invite(admin);
    const main = await signIn(VICTIM.email, MAIN);
    const page = await main.get('/accounts/invitations');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Initech');
    expect((await main.get(`${API}/invitations`)).body.invitations).toEqual([expect.objectContaining({ tenant_id: 3, tenant_name: 'Initech' })]);
    const rs = await Promise.all(Array.from({ length: 5 }, () => main.post(`${API}/invitations/3/accept`)));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    expect((await pendingRow())?.invitationPending).toBe(false);
    expect((await h.client(INITECH, { otherBrowser: true }).login(VICTIM.email)).body.message).toBe('success');
    const row = (await admin.get(`${API}/admin/users`)).body.data.find((u: { email: string }) => u.email === VICTIM.email);
    expect(row).toMatchObject({ name: VICTIM.name, invitation_pending: false, isRegistered: true });
    // The person's own name is theirs: an admin's rename is this tenant's label only.
    const rename = await admin.patch(`${API}/admin/users/${VICTIM.id}`, { name: '初テック 山田', email: VICTIM.email });
    expect(rename.status).toBe(200);
    expect(rename.body.user.name).toBe('初テック 山田');
    expect((await h.deps.db.select().from(users).where(eq(users.id, VICTIM.id)).get())!.name).toBe(VICTIM.name);
    const acme = await signIn('admin@acme.test', ACME);
    const acmeRow = (await acme.get(`${API}/admin/users`)).body.data.find((u: { email: string }) => u.email === VICTIM.email);
    expect(acmeRow.name).toBe(VICTIM.name);
  });

  it('the person declines: the pending row is gone', async () => {
    const admin = await signIn('admin@initech.test', INITECH);
    await invite(admin);
    const main = await signIn(VICTIM.email, MAIN);
    expect((await main.post(`${API}/invitations/3/decline`)).status).toBe(200);
    expect(await pendingRow()).toBeUndefined();
    expect((await main.post(`${API}/invitations/3/accept`)).status).toBe(404);
  });

  it('the admin can cancel a pending invitation (delete)', async () => {
    const admin = await signIn('admin@initech.test', INITECH);
    await invite(admin);
    const r = await admin.request('DELETE', `${API}/admin/users/${VICTIM.id}`);
    expect([202, 204]).toContain(r.status);
  });

  it('a CSV import row with an existing account is a pending invitation too; an update import never renames a person', async () => {
    const admin = await signIn('admin@initech.test', INITECH);
    const csv = `${IMPORT_HEADERS.ja.join(',')}\r\n乗っ取り,${VICTIM.email},,,1,0,1\r\n`;
    const form = new FormData();
    form.append('csvFile', new File([csv], 'users.csv', { type: 'text/csv' }));
    const r = await h.app.request(`http://${INITECH}/accounts/api/admin/users/import`, {
      method: 'POST',
      body: form,
      headers: { cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-requested-with': 'XMLHttpRequest', origin: `http://${INITECH}` },
    });
    expect(r.status).toBeLessThan(300);
    expect((await pendingRow())?.invitationPending).toBe(true);
    expect((await h.deps.db.select().from(users).where(eq(users.id, VICTIM.id)).get())!.name).toBe(VICTIM.name);
  });
});
