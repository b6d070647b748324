// The import dry-run (issue 26, decision 0043): `?preview=1` stages and checks the file and
// answers the diff (people added, fields changed before and after, counts) without changing the
// tenant; running it applies exactly the previewed rows, once, and refuses when a member it
// touches changed after the preview.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { additionalDepartments, importJobs, mailQueue, tenantApps, tenantUsers, users } from '../../src/db/schema';
import { IMPORT_HEADERS, IMPORT_READING_HEADER } from '../../src/shared/people/schemas';
import { runPeopleSweep } from '../../src/domain/people/sweep';
import { importRows } from '../../src/db/schema';
import { createHarness, TEST_IP_HEADER, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async (ctx) => {
  // A file of any size runs as a job in the "large file" test (answered 202, followed by its progress).
  h = await createHarness(ctx.task.name.includes('as a job') ? { IMPORT_INLINE_BYTES: '0', IMPORT_CHUNK_BYTES: '1024' } : {});
  await h.deps.db.update(tenantApps).set({ seats: null }).where(eq(tenantApps.tenantId, 1));
});
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 20));
  h.close();
});

const ACME = 'acme.localhost:8787';
const GLOBEX = 'globex-jp.localhost:8787';
const API = '/accounts/api';
const U = { admin: 1, user: 2, multi: 3, totp: 4 };

async function signIn(email = 'admin@acme.test', host = ACME): Promise<TestClient> {
  const b = h.client(host);
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

async function upload(b: TestClient, path: string, text: string) {
  const form = new FormData();
  form.append('csvFile', new File([text], 'users.csv', { type: 'text/csv' }));
  const res = await h.app.request(`${b.origin}${API}${path}`, {
    method: 'POST',
    body: form,
    headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-requested-with': 'XMLHttpRequest', origin: b.origin, [TEST_IP_HEADER]: '203.0.113.10' },
  });
  return { status: res.status, body: (await res.json()) as any };
}

const csv = (rows: string[][]) => `${IMPORT_HEADERS.ja.join(',')}\r\n${rows.map((r) => r.join(',')).join('\r\n')}\r\n`;
const member = (userId: number) => h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.userId, userId)).all().then((r) => r.find((m) => m.tenantId === 1)!);

describe('edit by import, previewed first', () => {
  it('answers the fields that would change, before and after, changes nothing, then the run applies them once', async () => {
    const b = await signIn();
    const file = csv([
      ['一般 花子', 'user@acme.test', '開発部', '', '1', '1', '0'],
      ['TOTP ユーザー', 'totp@acme.test', '', '', '1', '0', '0'],
    ]);
    // totp's row matches them as they are: unchanged.
    await h.deps.db.update(users).set({ name: 'TOTP ユーザー' }).where(eq(users.id, U.totp));
    await h.deps.db.update(tenantUsers).set({ displayName: null, departmentId: null, meishiAccessGrantedAt: 1, schedulerAccessGrantedAt: null, isAdmin: false }).where(eq(tenantUsers.userId, U.totp));
    await h.deps.db.delete(additionalDepartments).where(eq(additionalDepartments.tenantUserId, (await member(U.totp)).id));
    const before = await member(U.user);
    const p = await upload(b, '/admin/users/import/update?preview=1', file);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ message: 'previewed', kind: 'update', counts: { rows: 2, changed: 1, unchanged: 1, added: 0, deactivated: 0, errors: 0 } });
    const changes = p.body.changed[0];
    expect(changes).toMatchObject({ line: 2, email: 'user@acme.test' });
    expect(changes.changes).toContainEqual({ field: 'name', before: expect.any(String), after: '一般 花子' });
    expect(changes.changes).toContainEqual({ field: 'department', before: expect.anything(), after: '開発部' });
    expect(changes.changes).toContainEqual({ field: 'scheduler', before: false, after: true });
    // Nothing applied by the preview.
    expect(await member(U.user)).toEqual(before);
    // The diff again, by its own call, and the job's progress says previewed.
    expect((await b.get(`${API}/admin/users/import/${p.body.jobId}/preview`)).body).toEqual({ ...p.body, message: undefined });
    expect((await b.get(`${API}/admin/users/import/${p.body.jobId}`)).body.status).toBe('previewed');

    // Another tenant's admin, or a member, cannot read or run it.
    const g = await signIn('multi@example.test', GLOBEX);
    expect((await g.get(`${API}/admin/users/import/${p.body.jobId}/preview`)).status).toBe(404);
    expect((await g.post(`${API}/admin/users/import/${p.body.jobId}/run`)).status).toBe(404);

    expect((await b.post(`${API}/admin/users/import/${p.body.jobId}/run`)).body).toEqual({ message: 'success', count: 2 });
    const after = await member(U.user);
    expect(after.schedulerAccessGrantedAt).not.toBeNull();
    expect((await h.deps.db.select().from(users).where(eq(users.id, U.user)).get())!.name === '一般 花子' || after.displayName === '一般 花子').toBe(true);
    expect((await b.post(`${API}/admin/users/import/${p.body.jobId}/run`)).body).toEqual({ message: 'import-not-previewed' });
  });

  it('shows a reading the file sets or clears (decision 0045), and leaves it out when the file has no reading column', async () => {
    const b = await signIn();
    await h.deps.db.update(tenantUsers).set({ nameReading: 'イッパン ハナコ' }).where(eq(tenantUsers.userId, U.user));
    const withReading = (rows: string[][]) => `${[...IMPORT_HEADERS.ja, IMPORT_READING_HEADER.ja].join(',')}\r\n${rows.map((r) => r.join(',')).join('\r\n')}\r\n`;
    const set = await upload(b, '/admin/users/import/update?preview=1', withReading([['一般 花子', 'user@acme.test', '', '', '1', '1', '0', 'ハナコ']]));
    expect(set.body.changed[0].changes).toContainEqual({ field: 'name_reading', before: 'イッパン ハナコ', after: 'ハナコ' });
    const cleared = await upload(b, '/admin/users/import/update?preview=1', withReading([['一般 花子', 'user@acme.test', '', '', '1', '1', '0', '']]));
    expect(cleared.body.changed[0].changes).toContainEqual({ field: 'name_reading', before: 'イッパン ハナコ', after: null });
    const without = await upload(b, '/admin/users/import/update?preview=1', csv([['一般 花子', 'user@acme.test', '', '', '1', '1', '0']]));
    expect((without.body.changed[0]?.changes ?? []).map((c: { field: string }) => c.field)).not.toContain('name_reading');
  });

  it('refuses to run when a member it touches was edited after the preview, and applies nothing', async () => {
    const b = await signIn();
    const p = await upload(b, '/admin/users/import/update?preview=1', csv([['一般 花子', 'user@acme.test', '開発部', '', '1', '1', '0']]));
    expect(p.body.message).toBe('previewed');
    h.clock.advance(1000);
    // Another admin edits the person meanwhile.
    await h.deps.db.update(tenantUsers).set({ isAdmin: true, updatedAt: h.clock.now() }).where(eq(tenantUsers.userId, U.user));
    const before = await member(U.user);
    const r = await b.post(`${API}/admin/users/import/${p.body.jobId}/run`);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ message: 'import-target-changed' });
    expect(await member(U.user)).toEqual(before);
    expect((await h.deps.db.select().from(importJobs).where(eq(importJobs.id, p.body.jobId)).get())!.status).toBe('failed');
    // Previewing the file again shows the current state, and that one runs.
    const again = await upload(b, '/admin/users/import/update?preview=1', csv([['一般 花子', 'user@acme.test', '開発部', '', '1', '1', '0']]));
    expect(again.body.changed[0].changes).toContainEqual({ field: 'is_admin', before: true, after: false });
    expect((await b.post(`${API}/admin/users/import/${again.body.jobId}/run`)).body.message).toBe('success');
  });
});

describe('add by import, previewed first', () => {
  it('lists the people who would be added (an existing account is invited); parallel runs apply once', async () => {
    const b = await signIn();
    const file = csv([
      ['新人 一郎', 'new1@acme.test', '営業部', '開発部', '1', '0', '0'],
      ['新人 二郎', 'new2@acme.test', '', '', '1', '1', '1'],
      ['Initech 管理者', 'admin@initech.test', '', '', '1', '0', '0'],
    ]);
    const p = await upload(b, '/admin/users/import?preview=1', file);
    expect(p.body).toMatchObject({ message: 'previewed', kind: 'add', counts: { rows: 3, added: 3, invited: 1, changed: 0 } });
    expect(p.body.added[0]).toEqual({ line: 2, email: 'new1@acme.test', name: '新人 一郎', department: '営業部', additional_departments: ['開発部'], meishi: true, scheduler: false, is_admin: false, invited: false });
    expect(p.body.added[2]).toMatchObject({ email: 'admin@initech.test', invited: true });
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'new1@acme.test')).get()).toBeUndefined();

    const runs = await Promise.all([0, 1, 2].map(() => b.post(`${API}/admin/users/import/${p.body.jobId}/run`)));
    expect(runs.filter((r) => r.body.message === 'success')).toHaveLength(1);
    expect(runs.filter((r) => r.body.message === 'import-not-previewed')).toHaveLength(2);
    const members = (await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, 1))).length;
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'new2@acme.test')).all()).toHaveLength(1);
    expect((await h.deps.db.select().from(mailQueue)).filter((q) => q.tenantId === 1)).toHaveLength(3);
    expect(members).toBe(5 + 3);
  });

  it('a person added by hand after the preview makes the run refuse', async () => {
    const b = await signIn();
    const p = await upload(b, '/admin/users/import?preview=1', csv([['新人 一郎', 'new1@acme.test', '', '', '1', '0', '0']]));
    h.clock.advance(1000);
    expect((await b.post(`${API}/admin/users`, { name: '手入力', email: 'new1@acme.test', allowedApps: ['meishi'] })).status).toBeLessThan(300);
    expect((await b.post(`${API}/admin/users/import/${p.body.jobId}/run`)).body).toEqual({ message: 'import-target-changed' });
  });

  it('a file with errors fails as the import does, every error by line, and nothing waits to run', async () => {
    const b = await signIn();
    const r = await upload(b, '/admin/users/import?preview=1', csv([['', 'bad', '総務部', '', '1', '0', '0']]));
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('invalid-csv');
    expect(r.body.rows.map((e: { row: number }) => e.row)).toEqual([2, 2, 2]);
    expect((await h.deps.db.select().from(importJobs)).every((j) => j.status === 'failed')).toBe(true);
  });
});

describe('a large file', () => {
  it('previews as a job (202, then previewed), and its run is a job too', async () => {
    const b = await signIn();
    const rows = Array.from({ length: 60 }, (_, i) => [`社員 ${i}`, `big${i}@acme.test`, '営業部', '', '1', '0', '0']);
    const r = await upload(b, '/admin/users/import?preview=1', csv(rows));
    expect(r.status).toBe(202);
    await vi.waitFor(async () => expect((await b.get(`${API}/admin/users/import/${r.body.jobId}`)).body.status).toBe('previewed'), { timeout: 10_000 });
    const diff = (await b.get(`${API}/admin/users/import/${r.body.jobId}/preview`)).body;
    expect(diff.counts).toMatchObject({ rows: 60, added: 60 });
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'big0@acme.test')).get()).toBeUndefined();
    const run = await b.post(`${API}/admin/users/import/${r.body.jobId}/run`);
    expect(run.status).toBe(202);
    await vi.waitFor(async () => expect((await b.get(`${API}/admin/users/import/${r.body.jobId}`)).body).toMatchObject({ status: 'success', count: 60 }), { timeout: 10_000 });
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'big59@acme.test')).get()).toBeDefined();
  });
});

describe('an unrun preview', () => {
  it('expires after an hour through the sweep: the job fails, its staged rows go, the run is refused', async () => {
    const b = await signIn();
    const p = await upload(b, '/admin/users/import?preview=1', csv([['新人 一郎', 'new1@acme.test', '', '', '1', '0', '0']]));
    await runPeopleSweep(h.deps);
    expect((await b.get(`${API}/admin/users/import/${p.body.jobId}`)).body.status).toBe('previewed');
    h.clock.advance(61 * 60_000);
    await runPeopleSweep(h.deps);
    await runPeopleSweep(h.deps);
    expect((await b.get(`${API}/admin/users/import/${p.body.jobId}`)).body.status).toBe('failed');
    expect(await h.deps.db.select().from(importRows).where(eq(importRows.jobId, p.body.jobId))).toEqual([]);
    expect((await b.post(`${API}/admin/users/import/${p.body.jobId}/run`)).body).toEqual({ message: 'import-not-previewed' });
  });
});
