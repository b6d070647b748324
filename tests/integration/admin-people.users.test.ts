// People administration (spec 02 sections 3-8): users list, add, edit, deactivate, reactivate,
// delete (durable job), invitations, SSO for all, app usage counts, deactivated list, and who may
// call them (admins; tenant managers on the tenant's host). Another tenant's ids answer 404.
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activityLogs, backgroundJobs, mailQueue, outbox, sessions, tenantApps, tenants, tenantUsers, users } from '../../src/db/schema';
import type { AppUsageReporter } from '../../src/deps';
import { resumeDeletionJobs } from '../../src/domain/people/deletion';
import { drainMailQueue } from '../../src/domain/people/mail-queue';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { confirmed } from '../support/lockout';
import { islandProps } from '../support/island-props';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ USER_DELETE_WAIT_MS: '200' });
});
afterEach(async () => {
  // Let background work (mail drains, deletions) finish before the database closes.
  await new Promise((r) => setTimeout(r, 20));
  h.close();
});

const ACME = 'acme.localhost:8787';
const API = '/accounts/api';
// Demo ids (src/db/seed.ts): users
const U = { admin: 1, user: 2, multi: 3, totp: 4, gone: 5, initech: 6, manager: 7 };
const D = { sales: 1, dev: 2 };

async function signIn(email = 'admin@acme.test', host = ACME): Promise<TestClient> {
  const b = h.client(host);
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

const del = (b: TestClient, path: string) => b.request('DELETE', path);

async function memberOf(tenantId: number, userId: number) {
  return h.deps.db.select().from(tenantUsers).where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.userId, userId))).get();
}

async function lastAudit(action: string) {
  const rows = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, action));
  return rows.at(-1);
}

const newUser = (over: Record<string, unknown> = {}) => ({
  name: '新人 一郎',
  email: 'new@acme.test',
  department_id: D.dev,
  is_admin: false,
  allowedApps: ['meishi'],
  additionalDepartmentIds: [],
  saml_name_id: null,
  is_sso_enabled: false,
  ...over,
});

describe('who may call', () => {
  it('a normal member gets 403, a visitor 401, on every people call', async () => {
    const user = await signIn('user@acme.test');
    const anon = h.client(ACME);
    for (const [m, p] of [
      ['GET', '/admin/users'],
      ['POST', '/admin/users'],
      ['PATCH', `/admin/users/${U.user}`],
      ['DELETE', `/admin/users/${U.user}`],
      ['POST', `/admin/users/${U.user}/deactivate`],
      ['GET', '/admin/deactivated-users'],
      ['GET', '/admin/departments'],
      ['POST', '/admin/departments'],
      ['GET', '/admin/apps/allowed'],
      ['POST', '/admin/users/invite'],
      ['GET', `/admin/users/${U.user}/cards-count`],
    ] as const) {
      const opts = m === 'GET' || m === 'DELETE' ? {} : { json: {} };
      expect((await user.request(m, API + p, opts)).status, p).toBe(403);
      expect((await anon.request(m, API + p, opts)).status, p).toBe(401);
    }
    // Nothing changed.
    expect((await memberOf(1, U.user))?.operationStatus).toBeNull();
  });

  it('a tenant manager reaches users, deactivated users and departments of the host tenant, nothing else', async () => {
    const m = await signIn('manager@staff.test');
    const list = await m.get(`${API}/admin/users`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((u: { email: string }) => u.email)).toContain('admin@acme.test');
    expect((await m.get(`${API}/admin/deactivated-users`)).status).toBe(200);
    expect((await m.get(`${API}/admin/departments`)).status).toBe(200);
    const added = await m.post(`${API}/admin/departments`, { name: '総務部' });
    expect(added.status).toBe(201);
    expect((await lastAudit('department.created'))?.actorUserId).toBe(U.manager);
    // Admin-only calls stay closed.
    expect((await m.get(`${API}/admin/password-policy`)).status).toBe(403);
    expect((await m.get(`${API}/admin/activity-logs/export-csv`)).status).toBe(403);
  });

  it('a tenant manager on the main domain has no tenant to manage', async () => {
    const m = await signIn('manager@staff.test', 'localhost:8787');
    expect((await m.get(`${API}/admin/users`)).status).toBe(403);
  });
});

describe('users list', () => {
  it('answers newest first with every column, counts and SSO flags', async () => {
    const b = await signIn();
    const r = await b.get(`${API}/admin/users`);
    expect(r.status).toBe(200);
    const emails = r.body.data.map((u: { email: string }) => u.email);
    // Active Acme members, created_at descending (seed: totp 5, multi 3, user 2, admin 1); not the deactivated one.
    expect(emails).toEqual(['totp@acme.test', 'multi@example.test', 'user@acme.test', 'admin@acme.test']);
    expect(r.body).toMatchObject({ total: 4, page: 1, perPage: 25, ssoOptionsVisible: false, ssoUsersLimit: 10, schedulerAllowed: true });
    // admins: the demo tenant's one admin (the edit dialog's admin switch explains the last one, decision 0032).
    expect(r.body.counts).toEqual({ users: 4, neverActive: expect.any(Number), notRegistered: 0, admins: 1 });
    const admin = r.body.data.find((u: { email: string }) => u.email === 'admin@acme.test');
    expect(admin).toMatchObject({
      id: U.admin,
      name: 'Acme 管理者',
      department: { id: D.sales, name: '営業部' },
      additionalDepartments: [],
      additional_departments_for_tenant: [],
      is_admin: 1,
      role: 'admin',
      allowedApps: ['meishi', 'scheduler'],
      is_sso_enabled: false,
      saml_name_id: null,
      isTwofaEnabled: false,
      twofaMethod: null,
      deactivated_at: null,
      operationStatus: null,
      language: 'ja',
    });
    // The admin just signed in: last active is set (the session touch), others never were.
    expect(r.body.data.find((u: { email: string }) => u.email === 'totp@acme.test')).toMatchObject({ isTwofaEnabled: true, twofaMethod: 'app', last_active_at: null });
  });

  it('searches name and email, sorts, pages with the allowed sizes only', async () => {
    const b = await signIn();
    const s = await b.get(`${API}/admin/users?search=${encodeURIComponent('山田')}`);
    expect(s.body.data.map((u: { email: string }) => u.email)).toEqual(['user@acme.test']);
    expect(s.body.total).toBe(1);
    expect((await b.get(`${API}/admin/users?search=EXAMPLE.test`)).body.data.map((u: { email: string }) => u.email)).toEqual(['multi@example.test']);
    // LIKE wildcards are literal.
    expect((await b.get(`${API}/admin/users?search=%25`)).body.total).toBe(0);
    const byEmail = await b.get(`${API}/admin/users?sort=email&order=asc`);
    expect(byEmail.body.data.map((u: { email: string }) => u.email)).toEqual(['admin@acme.test', 'multi@example.test', 'totp@acme.test', 'user@acme.test']);
    const p2 = await b.get(`${API}/admin/users?perPage=5&page=1&sort=email&order=asc`);
    expect(p2.body.perPage).toBe(5);
    expect((await b.get(`${API}/admin/users?perPage=7`)).status).toBe(422);
    expect((await b.get(`${API}/admin/users?sort=password_hash`)).status).toBe(422);
  });

  it('the deactivated list holds only deactivated members, newest deactivation first', async () => {
    const b = await signIn();
    await b.post(`${API}/admin/users/${U.user}/deactivate`);
    const r = await b.get(`${API}/admin/deactivated-users`);
    expect(r.body.data.map((u: { email: string }) => u.email)).toEqual(['user@acme.test', 'gone@acme.test']);
    expect(r.body).toMatchObject({ total: 2, perPage: 25, page: 1 });
  });

  it('allowed apps show seats left', async () => {
    const b = await signIn();
    const r = await b.get(`${API}/admin/apps/allowed`);
    // meishi 10 seats, 4 active holders; scheduler 5 seats, admin holds it.
    expect(r.body).toEqual([
      { key: 'meishi', name: expect.any(String), availableSeats: 6, isSeatAvailable: true },
      { key: 'scheduler', name: expect.any(String), availableSeats: 4, isSeatAvailable: true },
    ]);
  });

  it('the users screen counts seats as the seat check does: a pending invitation holds none', async () => {
    const b = await signIn();
    // A person of another tenant invited with both apps: pending until they accept.
    expect((await b.post(`${API}/admin/users`, newUser({ email: 'admin@initech.test', allowedApps: ['meishi', 'scheduler'] }))).status).toBe(201);
    const allowed = (await b.get(`${API}/admin/apps/allowed`)).body;
    expect(allowed.map((a: { availableSeats: number }) => a.availableSeats)).toEqual([6, 4]);
    const page = await b.get('/accounts/admin/users');
    expect(page.status).toBe(200);
    expect(islandProps(page.text, 'UsersScreen').apps).toEqual(allowed);
  });
});

describe('add user', () => {
  it('adds a member, queues and sends the invitation, audits', async () => {
    const b = await signIn();
    const r = await b.post(`${API}/admin/users`, newUser({ additionalDepartmentIds: [D.sales, D.dev], allowedApps: ['meishi', 'scheduler'] }));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ message: 'success', invited: true });
    // The main department is left out of the additional ones.
    expect(r.body.user).toMatchObject({ email: 'new@acme.test', department: { id: D.dev }, additionalDepartments: [{ id: D.sales, name: '営業部' }], allowedApps: ['meishi', 'scheduler'], isRegistered: false });
    const mail = await h.deps.db.select().from(outbox).where(eq(outbox.recipient, 'new@acme.test')).get();
    expect(mail?.body).toMatch(/\/accounts\/register\/new%40acme\.test\?expires=/);
    const audit = await lastAudit('user.created');
    expect(audit).toMatchObject({ tenantId: 1, actorUserId: U.admin, targetType: 'user', targetId: String(r.body.user.id), ipAddress: '203.0.113.10' });
    expect(audit?.userAgent).toMatch(/Chrome/);
  });

  it('user_already_exists for a member (active or deactivated) of this tenant', async () => {
    const b = await signIn();
    expect((await b.post(`${API}/admin/users`, newUser({ email: 'USER@acme.test' }))).body).toEqual({ message: 'user_already_exists' });
    expect((await b.post(`${API}/admin/users`, newUser({ email: 'gone@acme.test' }))).body).toEqual({ message: 'user_already_exists' });
  });

  it('adding an existing portal user of another tenant invites it: only the address is shown, the person is mailed', async () => {
    const b = await signIn();
    const r = await b.post(`${API}/admin/users`, newUser({ email: 'admin@initech.test', is_sso_enabled: true }));
    expect(r.status).toBe(201);
    expect(r.body.user).toMatchObject({ id: U.initech, email: 'admin@initech.test', name: '', invitation_pending: true, isRegistered: false, isTwofaEnabled: false, last_active_at: null, is_sso_enabled: false });
    expect(r.body.invited).toBe(true);
    const mail = await h.deps.db.select().from(outbox).where(eq(outbox.recipient, 'admin@initech.test')).get();
    expect(mail?.subject).toMatch(/Acme Corporation/);
    expect(mail?.body).toContain('http://localhost:8787/accounts/invitations');
    // The name typed by the admin does not rename the person.
    expect((await h.deps.db.select().from(users).where(eq(users.id, U.initech)).get())?.name).toBe('Initech Admin');
  });

  it('quota_finished when an app has no free seat; nothing is written', async () => {
    const b = await signIn();
    await h.deps.db.update(tenantApps).set({ seats: 1 }).where(and(eq(tenantApps.tenantId, 1), eq(tenantApps.app, 'scheduler')));
    const r = await b.post(`${API}/admin/users`, newUser({ allowedApps: ['meishi', 'scheduler'] }));
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ message: 'quota_finished', app: 'scheduler' });
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'new@acme.test')).get()).toBeUndefined();
  });

  it('the seat guard rolls back a grant that a concurrent change made impossible', async () => {
    const b = await signIn();
    await h.deps.db.update(tenantApps).set({ seats: 5 }).where(and(eq(tenantApps.tenantId, 1), eq(tenantApps.app, 'meishi')));
    // Five adds racing for the one free meishi seat: exactly one wins.
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => b.post(`${API}/admin/users`, newUser({ email: `race${i}@acme.test` }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.body.message === 'quota_finished')).toHaveLength(4);
    const holders = await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, 1));
    expect(holders.filter((m) => m.deactivatedAt === null && m.meishiAccessGrantedAt !== null)).toHaveLength(5);
  });

  it('validates fields with the spec messages; another tenant department is 404', async () => {
    const b = await signIn();
    const bad = await b.post(`${API}/admin/users`, newUser({ name: ' ', email: 'nope', allowedApps: [] }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['allowedApps', 'email', 'name']);
    const globexDept = await h.deps.db.run("INSERT INTO departments (tenant_id, name) VALUES (2, 'Globex 部')");
    const gid = Number(globexDept.lastInsertRowid);
    expect((await b.post(`${API}/admin/users`, newUser({ department_id: gid }))).status).toBe(404);
  });

  it('sso_users_limit_exceeded beyond the SSO users limit', async () => {
    const b = await signIn();
    await h.deps.db.update(tenants).set({ isSsoEnabled: true, featureSsoUsersLimit: 1 }).where(eq(tenants.id, 1));
    expect((await b.post(`${API}/admin/users`, newUser({ is_sso_enabled: true, saml_name_id: 'n1' }))).status).toBe(201);
    const r = await b.post(`${API}/admin/users`, newUser({ email: 'x@acme.test', is_sso_enabled: true }));
    expect(r.body).toEqual({ message: 'sso_users_limit_exceeded' });
  });
});

describe('edit user', () => {
  it('changes name, department, apps, admin; audits', async () => {
    const b = await signIn();
    const r = await b.patch(`${API}/admin/users/${U.user}`, { name: '山田 次郎', email: 'user@acme.test', department_id: D.dev, is_admin: true, allowedApps: ['scheduler'], additionalDepartmentIds: [D.sales] });
    expect(r.body.message).toBe('success');
    expect(r.body.user).toMatchObject({ name: '山田 次郎', department: { id: D.dev }, additionalDepartments: [{ id: D.sales }], is_admin: 1, allowedApps: ['scheduler'] });
    expect((await lastAudit('user.updated'))?.targetId).toBe(String(U.user));
  });

  it('the list shows additional departments by name', async () => {
    const b = await signIn();
    // Named so that creation order and name order differ.
    const zed = (await b.post(`${API}/admin/departments`, { name: 'Z 総務部' })).body;
    const abc = (await b.post(`${API}/admin/departments`, { name: 'A 経理部' })).body;
    const ids = [zed.id ?? zed.department?.id, abc.id ?? abc.department?.id];
    expect(ids.every((id) => typeof id === 'number')).toBe(true);
    const r = await b.patch(`${API}/admin/users/${U.user}`, { name: '山田 花子', email: 'user@acme.test', department_id: D.dev, is_admin: false, allowedApps: ['meishi'], additionalDepartmentIds: [...ids, D.sales] });
    expect(r.body.message).toBe('success');
    const row = (await b.get(`${API}/admin/users?search=user%40acme.test`)).body.data.find((u: { id: number }) => u.id === U.user);
    expect(row.additionalDepartments.map((d: { name: string }) => d.name)).toEqual(['A 経理部', 'Z 総務部', '営業部']);
    expect(row.additional_departments_for_tenant).toEqual([ids[1], ids[0], D.sales]);
  });

  it('an email change starts over with an invitation to the new address and ends the sessions', async () => {
    const b = await signIn();
    const victim = await signIn('user@acme.test');
    const r = await b.patch(`${API}/admin/users/${U.user}`, { name: '山田 太郎', email: 'yamada@acme.test' });
    expect(r.body.message).toBe('sent-register-mail-to-new-email-id');
    const mail = await h.deps.db.select().from(outbox).where(eq(outbox.recipient, 'yamada@acme.test')).get();
    expect(mail?.body).toMatch(/register\/yamada%40acme\.test/);
    expect((await victim.get(`${API}/user`)).status).toBe(401);
    const u = await h.deps.db.select().from(users).where(eq(users.id, U.user)).get();
    expect(u).toMatchObject({ email: 'yamada@acme.test', passwordHash: null, emailVerifiedAt: null });
  });

  it('duplicate-email and belongs-to-multiple-tenants', async () => {
    const b = await signIn();
    expect((await b.patch(`${API}/admin/users/${U.user}`, { name: 'x', email: 'totp@acme.test' })).body).toEqual({ message: 'duplicate-email' });
    expect((await b.patch(`${API}/admin/users/${U.multi}`, { name: 'x', email: 'multi2@example.test' })).body).toEqual({ message: 'belongs-to-multiple-tenants' });
    expect((await h.deps.db.select().from(users).where(eq(users.id, U.multi)).get())?.email).toBe('multi@example.test');
  });

  it('cannot-make-last-admin-as-non-admin', async () => {
    const b = await signIn();
    const r = await b.patch(`${API}/admin/users/${U.admin}`, { name: 'Acme 管理者', email: 'admin@acme.test', is_admin: false });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ message: 'cannot-make-last-admin-as-non-admin' });
    expect((await memberOf(1, U.admin))?.isAdmin).toBe(true);
  });

  it('two admins demoting each other at once: one stays admin', async () => {
    const b = await signIn();
    await h.deps.db.update(tenantUsers).set({ isAdmin: true }).where(eq(tenantUsers.id, 2));
    const [x, y] = await Promise.all([
      b.patch(`${API}/admin/users/${U.admin}`, { name: 'a', email: 'admin@acme.test', is_admin: false }),
      b.patch(`${API}/admin/users/${U.user}`, { name: 'b', email: 'user@acme.test', is_admin: false }),
    ]);
    expect([x.body.message, y.body.message].sort()).toEqual(['cannot-make-last-admin-as-non-admin', 'success']);
    const admins = (await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, 1))).filter((m) => m.isAdmin);
    expect(admins).toHaveLength(1);
  });

  it('adding an app without a free seat is quota_finished; keeping a held app is fine', async () => {
    const b = await signIn();
    await h.deps.db.update(tenantApps).set({ seats: 1 }).where(and(eq(tenantApps.tenantId, 1), eq(tenantApps.app, 'scheduler')));
    expect((await b.patch(`${API}/admin/users/${U.user}`, { name: 'x', email: 'user@acme.test', allowedApps: ['meishi', 'scheduler'] })).body).toEqual({ message: 'quota_finished', app: 'scheduler' });
    expect((await b.patch(`${API}/admin/users/${U.admin}`, { name: 'x', email: 'admin@acme.test', allowedApps: ['meishi', 'scheduler'] })).body.message).toBe('success');
  });

  it('turning SSO off keeps the stored name id; the SSO users limit holds', async () => {
    const b = await signIn();
    await h.deps.db.update(tenants).set({ isSsoEnabled: true, featureSsoUsersLimit: 1 }).where(eq(tenants.id, 1));
    expect((await b.patch(`${API}/admin/users/${U.user}`, { name: 'x', email: 'user@acme.test', is_sso_enabled: true, saml_name_id: 'yamada' })).body.user).toMatchObject({ is_sso_enabled: true, saml_name_id: 'yamada' });
    expect((await b.patch(`${API}/admin/users/${U.totp}`, { name: 'x', email: 'totp@acme.test', is_sso_enabled: true })).body).toEqual({ message: 'sso_users_limit_exceeded' });
    // One name id per member: another member cannot take it.
    await h.deps.db.update(tenants).set({ featureSsoUsersLimit: 5 }).where(eq(tenants.id, 1));
    expect((await b.patch(`${API}/admin/users/${U.totp}`, { name: 'x', email: 'totp@acme.test', is_sso_enabled: true, saml_name_id: 'yamada' })).body).toEqual({ message: 'saml-name-id-taken' });
    expect((await b.post(`${API}/admin/users`, newUser({ is_sso_enabled: true, saml_name_id: 'yamada' }))).body).toEqual({ message: 'saml-name-id-taken' });
    const off = await b.patch(`${API}/admin/users/${U.user}`, { name: 'x', email: 'user@acme.test', is_sso_enabled: false, saml_name_id: 'changed' });
    expect(off.body.user).toMatchObject({ is_sso_enabled: false, saml_name_id: 'yamada' });
  });

  it('another tenant user is 404 and unchanged', async () => {
    const b = await signIn();
    const r = await b.patch(`${API}/admin/users/${U.initech}`, { name: 'hacked', email: 'admin@initech.test' });
    expect(r.status).toBe(404);
    expect((await h.deps.db.select().from(users).where(eq(users.id, U.initech)).get())?.name).toBe('Initech Admin');
    for (const p of ['deactivate', 'reactivate']) expect((await b.post(`${API}/admin/users/${U.initech}/${p}`)).status).toBe(404);
    expect((await del(b, `${API}/admin/users/${U.initech}`)).status).toBe(404);
    expect((await b.get(`${API}/admin/users/${U.initech}/cards-count`)).status).toBe(404);
    expect((await b.post(`${API}/admin/users/invite`, { users: [U.initech] })).status).toBe(404);
    expect(await memberOf(3, U.initech)).toMatchObject({ deactivatedAt: null, operationStatus: null });
    expect((await b.patch(`${API}/admin/users/abc`, { name: 'x', email: 'a@b.test' })).status).toBe(404);
  });
});

describe('deactivate and reactivate', () => {
  it('deactivating ends the member sessions on this tenant at once', async () => {
    const b = await signIn();
    const victim = await signIn('user@acme.test');
    expect((await victim.get(`${API}/user`)).status).toBe(200);
    expect((await b.post(`${API}/admin/users/${U.user}/deactivate`)).body).toEqual({ message: 'success' });
    expect((await victim.get(`${API}/user`)).status).toBe(401);
    expect(await h.deps.db.select().from(sessions).where(and(eq(sessions.userId, U.user), eq(sessions.tenantId, 1)))).toHaveLength(0);
    expect((await memberOf(1, U.user))?.deactivatedAt).toBe(h.clock.now());
    expect(await lastAudit('user.deactivated')).toMatchObject({ targetId: String(U.user), actorUserId: U.admin });
  });

  it('cannot-deactivate-last-admin', async () => {
    const b = await signIn();
    expect((await b.post(`${API}/admin/users/${U.admin}/deactivate`)).body).toEqual({ message: 'cannot-deactivate-last-admin' });
    expect((await memberOf(1, U.admin))?.deactivatedAt).toBeNull();
  });

  it('reactivating an SSO member needs a free SSO place', async () => {
    const b = await signIn();
    await h.deps.db.update(tenants).set({ isSsoEnabled: true, featureSsoUsersLimit: 1 }).where(eq(tenants.id, 1));
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(eq(tenantUsers.id, 6));
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(eq(tenantUsers.id, 2));
    expect((await b.post(`${API}/admin/users/${U.gone}/reactivate`)).body).toEqual({ message: 'sso_users_limit_exceeded' });
    expect((await memberOf(1, U.gone))?.deactivatedAt).not.toBeNull();
  });

  it('reactivate is refused while an app the user holds has no free seat', async () => {
    const b = await signIn();
    await h.deps.db.update(tenantApps).set({ seats: 4 }).where(and(eq(tenantApps.tenantId, 1), eq(tenantApps.app, 'meishi')));
    expect((await b.post(`${API}/admin/users/${U.gone}/reactivate`)).body).toEqual({ message: 'quota_finished', app: 'meishi' });
    expect((await memberOf(1, U.gone))?.deactivatedAt).not.toBeNull();
    await h.deps.db.update(tenantApps).set({ seats: 5 }).where(and(eq(tenantApps.tenantId, 1), eq(tenantApps.app, 'meishi')));
    expect((await b.post(`${API}/admin/users/${U.gone}/reactivate`)).body).toEqual({ message: 'success' });
    expect((await memberOf(1, U.gone))?.deactivatedAt).toBeNull();
    expect(await lastAudit('user.reactivated')).toBeTruthy();
  });
});

describe('delete', () => {
  function blockingApps() {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls: number[] = [];
    const port: AppUsageReporter = {
      cardsCount: async () => 12,
      schedulesCount: async () => 3,
      userRemoved: async (ref) => {
        calls.push(ref.userId);
        await gate;
      },
    };
    return { port, release, calls };
  }

  it('400 cannot-delete-last-admin', async () => {
    const b = await signIn();
    const r = await del(b, `${API}/admin/users/${U.admin}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: 'cannot-delete-last-admin' });
    expect((await memberOf(1, U.admin))?.operationStatus).toBeNull();
  });

  it('204 when the deletion finishes while the admin waits; the identity goes when no tenant holds it', async () => {
    const b = await signIn();
    const r = await del(b, `${API}/admin/users/${U.user}`);
    expect(r.status).toBe(204);
    expect(await memberOf(1, U.user)).toBeUndefined();
    expect(await h.deps.db.select().from(users).where(eq(users.id, U.user)).get()).toBeUndefined();
    expect(await lastAudit('user.deleted')).toMatchObject({ targetId: String(U.user), actorUserId: U.admin });
    // A multi-tenant user keeps their identity and the other membership.
    expect((await del(b, `${API}/admin/users/${U.multi}`)).status).toBe(204);
    expect(await memberOf(2, U.multi)).toBeTruthy();
    expect((await del(b, `${API}/admin/users/${U.user}`)).status).toBe(404);
  });

  it('202 while the apps are still removing data: the list shows deleting, then the row goes', async () => {
    const apps = blockingApps();
    h.deps.appUsage = apps.port;
    const b = await signIn();
    const r = await del(b, `${API}/admin/users/${U.user}`);
    expect(r.status).toBe(202);
    const during = await b.get(`${API}/admin/users`);
    expect(during.body.data.find((u: { id: number }) => u.id === U.user).operationStatus).toBe('deleting');
    // A second DELETE while it runs answers 202 again, with the same job.
    expect((await del(b, `${API}/admin/users/${U.user}`)).status).toBe(202);
    expect(await h.deps.db.select().from(backgroundJobs)).toHaveLength(1);
    apps.release();
    await vi.waitFor(async () => expect(await memberOf(1, U.user)).toBeUndefined());
    expect(apps.calls).toEqual([U.user]);
  });

  it('USER_DELETE_WAIT_MS=0 answers 202 at once and the job still finishes', async () => {
    h.deps.config.USER_DELETE_WAIT_MS = 0;
    const b = await signIn();
    expect((await del(b, `${API}/admin/users/${U.user}`)).status).toBe(202);
    await vi.waitFor(async () => expect(await memberOf(1, U.user)).toBeUndefined());
  });

  it('a restart mid-deletion is finished by the sweep', async () => {
    const apps = blockingApps();
    h.deps.appUsage = apps.port;
    const b = await signIn();
    expect((await del(b, `${API}/admin/users/${U.totp}`)).status).toBe(202);
    // The process "dies": the running attempt never completes. After its lease the sweep resumes.
    h.deps.appUsage = { ...apps.port, userRemoved: async () => undefined };
    expect(await resumeDeletionJobs(h.deps)).toBe(0); // still leased
    h.clock.advance(6 * 60_000);
    expect(await resumeDeletionJobs(h.deps)).toBe(1);
    expect(await memberOf(1, U.totp)).toBeUndefined();
    expect((await h.deps.db.select().from(backgroundJobs).get())?.status).toBe('done');
    apps.release();
  });
});

describe('invitations, SSO for all, app usage', () => {
  it('re-sends one invitation; refuses a registered user', async () => {
    const b = await signIn();
    await b.post(`${API}/admin/users`, newUser());
    const id = (await h.deps.db.select().from(users).where(eq(users.email, 'new@acme.test')).get())!.id;
    h.clock.advance(1000); // a new link (links are unique per user and expiry second)
    const r = await b.post(`${API}/admin/users/invite`, { users: [id] });
    expect(r.body).toEqual({ message: 'success', count: 1 });
    await drainMailQueue(h.deps);
    await vi.waitFor(async () => expect(await h.deps.db.select().from(outbox).where(eq(outbox.recipient, 'new@acme.test'))).toHaveLength(2));
    expect((await b.post(`${API}/admin/users/invite`, { users: [U.user] })).body).toEqual({ message: 'already-registered' });
  });

  it('a re-send within the same second mails the same, still valid link', async () => {
    const b = await signIn();
    await b.post(`${API}/admin/users`, newUser());
    const id = (await h.deps.db.select().from(users).where(eq(users.email, 'new@acme.test')).get())!.id;
    expect((await b.post(`${API}/admin/users/invite`, { users: [id] })).body).toEqual({ message: 'success', count: 1 });
    // The answer's own drain runs detached: wait until the queue has settled.
    await vi.waitFor(async () => {
      await drainMailQueue(h.deps);
      expect((await h.deps.db.select().from(mailQueue).where(eq(mailQueue.userId, id))).every((q) => q.status === 'sent')).toBe(true);
    });
    const mails = await h.deps.db.select().from(outbox).where(eq(outbox.recipient, 'new@acme.test'));
    expect(mails).toHaveLength(2);
    const link = (body: string) => /https?:\/\/\S+\/register\/\S+signature=[A-Za-z0-9_-]+/.exec(body)?.[0];
    expect(link(mails[1]!.body)).toBe(link(mails[0]!.body));
    // The link opens the registration page.
    const url = new URL(link(mails[1]!.body)!);
    const page = await h.client(ACME).get(url.pathname + url.search);
    expect(page.status).toBe(200);
    expect(page.text).toContain('new@acme.test');
  });

  it('invites all not-registered members through the throttled queue', async () => {
    const b = await signIn();
    for (let i = 0; i < 3; i++) await h.deps.db.insert(users).values({ name: `n${i}`, email: `n${i}@acme.test` });
    const ids = (await h.deps.db.select().from(users)).filter((u) => u.email.startsWith('n')).map((u) => u.id);
    await h.deps.db.insert(tenantUsers).values(ids.map((userId) => ({ tenantId: 1, userId })));
    h.deps.config.MAIL_QUEUE_BATCH = 2;
    const r = await b.post(`${API}/admin/users/invite`, { users: 'all' });
    expect(r.body).toEqual({ message: 'success', count: 3 });
    await vi.waitFor(async () => {
      await drainMailQueue(h.deps);
      expect((await h.deps.db.select().from(mailQueue)).every((q) => q.status === 'sent')).toBe(true);
    });
    expect((await h.deps.db.select().from(outbox)).filter((m) => /^n\d@/.test(m.recipient))).toHaveLength(3);
    expect(await lastAudit('users.invited')).toMatchObject({ details: { count: 3, all: true } });
  });

  it('enable SSO for all: refused without SSO or over the limit; otherwise every active member', async () => {
    const b = await signIn();
    expect((await b.post(`${API}/admin/users/enable-sso-for-all`)).body).toEqual({ message: 'cannot-enable-sso-for-all-users' });
    await h.deps.db.update(tenants).set({ isSsoEnabled: true, featureSsoUsersLimit: 3 }).where(eq(tenants.id, 1));
    expect((await b.post(`${API}/admin/users/enable-sso-for-all`)).body).toEqual({ message: 'cannot-enable-sso-for-all-users' });
    await h.deps.db.update(tenants).set({ featureSsoUsersLimit: 10 }).where(eq(tenants.id, 1));
    expect((await confirmed(b, 'POST', `${API}/admin/users/enable-sso-for-all`)).body).toEqual({ message: 'success' });
    const list = await b.get(`${API}/admin/users`);
    expect(list.body.ssoStatus).toBe('all');
    expect(list.body.ssoOptionsVisible).toBe(true);
    expect((await b.post(`${API}/admin/users/disable-sso-for-all`)).body).toEqual({ message: 'success' });
    expect((await b.get(`${API}/admin/users`)).body.ssoStatus).toBe('none');
    expect(await lastAudit('users.sso_disabled_for_all')).toBeTruthy();
  });

  it('cards and schedules counts come from the apps; an app that does not answer is 502', async () => {
    const b = await signIn();
    h.deps.appUsage = { cardsCount: async (ref) => ref.userId * 10, schedulesCount: async () => 7, userRemoved: async () => undefined };
    expect((await b.get(`${API}/admin/users/${U.user}/cards-count`)).body).toEqual({ data: 20 });
    expect((await b.get(`${API}/admin/users/${U.user}/schedules-count`)).body).toEqual({ data: 7 });
    h.deps.appUsage = { cardsCount: async () => Promise.reject(new Error('down')), schedulesCount: async () => 0, userRemoved: async () => undefined };
    const r = await b.get(`${API}/admin/users/${U.user}/cards-count`);
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ message: 'app-usage-unavailable' });
  });
});
