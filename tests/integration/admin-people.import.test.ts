// CSV import (add and edit-by-import), the sample file, the import log, departments, and the
// audit-log export (spec 02 sections 5, 7, 8, 9). Shift_JIS test files are encoded by iconv-lite.
import { and, eq } from 'drizzle-orm';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activityLogs, additionalDepartments, departments, mailQueue, outbox, tenantApps, tenantUsers, users } from '../../src/db/schema';
import { drainMailQueue } from '../../src/domain/people/mail-queue';
import { IMPORT_HEADERS, IMPORT_MAX_BYTES } from '../../src/shared/people/schemas';
import { createHarness, TEST_IP_HEADER, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 20));
  h.close();
});

const ACME = 'acme.localhost:8787';
const API = '/accounts/api';
const U = { admin: 1, user: 2, multi: 3, totp: 4, gone: 5, initech: 6, manager: 7 };

async function signIn(email = 'admin@acme.test', host = ACME): Promise<TestClient> {
  const b = h.client(host);
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

/** A multipart upload as a browser sends it (the harness client sends JSON only). */
async function upload(b: TestClient, path: string, file: { bytes: Uint8Array | string; name?: string; type?: string } | null, field = 'csvFile') {
  const form = new FormData();
  if (file) form.append(field, new File([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)], file.name ?? 'users.csv', { type: file.type ?? 'text/csv' }));
  const res = await h.app.request(`${b.origin}${API}${path}`, {
    method: 'POST',
    body: form,
    headers: {
      cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-requested-with': 'XMLHttpRequest',
      origin: b.origin,
      [TEST_IP_HEADER]: '203.0.113.10',
      'user-agent': 'Mozilla/5.0 Chrome/156.0',
    },
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not json */
  }
  return { status: res.status, body };
}

const header = (lang: 'ja' | 'en' = 'ja') => IMPORT_HEADERS[lang].join(',');
const csv = (rows: string[][], lang: 'ja' | 'en' = 'ja') => `${header(lang)}\r\n${rows.map((r) => r.join(',')).join('\r\n')}\r\n`;

describe('CSV import: add', () => {
  it('imports a Shift_JIS file of Japanese names, all rows, with invitations through the queue', async () => {
    const b = await signIn();
    const text = csv([
      ['鈴木 一郎', 'ichiro@acme.test', '営業部', '開発部', '1', '0', '0'],
      ['高橋 髙子', 'takako@acme.test', '', '', '1', '1', '1'], // 髙 is a CP932 extension character
    ]);
    const r = await upload(b, '/admin/users/import', { bytes: iconv.encode(text, 'cp932'), name: '社員.csv' });
    expect(r.body).toEqual({ message: 'success', count: 2 });
    const list = await b.get(`${API}/admin/users?search=acme.test&sort=email&order=asc`);
    const byEmail = Object.fromEntries(list.body.data.map((u: { email: string }) => [u.email, u]));
    expect(byEmail['ichiro@acme.test']).toMatchObject({ name: '鈴木 一郎', department: { name: '営業部' }, additionalDepartments: [{ name: '開発部' }], allowedApps: ['meishi'], is_admin: 0 });
    expect(byEmail['ichiro@acme.test'].additional_departments_for_tenant).toEqual([byEmail['ichiro@acme.test'].additionalDepartments[0].id]);
    expect(byEmail['takako@acme.test']).toMatchObject({ name: '高橋 髙子', department: null, allowedApps: ['meishi', 'scheduler'], is_admin: 1 });
    await vi.waitFor(async () => {
      await drainMailQueue(h.deps);
      expect((await h.deps.db.select().from(mailQueue)).map((q) => q.status)).toEqual(['sent', 'sent']);
    });
    expect((await h.deps.db.select().from(outbox)).map((m) => m.recipient).sort()).toEqual(['ichiro@acme.test', 'takako@acme.test']);
    const logs = await b.get(`${API}/admin/users/import/update/logs`);
    expect(logs.body[0]).toMatchObject({ filename: '社員.csv', kind: 'add', status: 'success', number_of_users_updated: 2, user: { name: 'Acme 管理者' } });
    expect((await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'user.created'))).length).toBe(2);
    expect((await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'users.imported')).get())?.details).toEqual({ filename: '社員.csv', count: 2 });
  });

  it('a registered portal user in the file is invited to accept (decision 0027), not sent a registration link', async () => {
    const b = await signIn();
    const r = await upload(b, '/admin/users/import', { bytes: csv([['Initech Admin', 'admin@initech.test', '', '', '1', '0', '0']]) });
    expect(r.body).toEqual({ message: 'success', count: 1 });
    expect((await h.deps.db.select().from(mailQueue)).map((q) => q.kind)).toEqual(['added']);
    await vi.waitFor(async () => {
      await drainMailQueue(h.deps);
      expect((await h.deps.db.select().from(mailQueue)).map((q) => q.status)).toEqual(['sent']);
    });
    const [mail] = await h.deps.db.select().from(outbox).where(eq(outbox.recipient, 'admin@initech.test'));
    expect(mail?.subject).toMatch(/Acme Corporation/);
    expect(mail?.body).not.toMatch(/\/register\//);
    expect(mail?.body).toMatch(/localhost:8787\/accounts\/invitations/);
    expect((await h.deps.db.select().from(tenantUsers).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, U.initech))).get())?.invitationPending).toBe(true);
  });

  it('accepts UTF-8 with and without BOM and English headers', async () => {
    const b = await signIn();
    const one = csv([['A', 'a@acme.test', '', '', '1', '0', '0']], 'en');
    expect((await upload(b, '/admin/users/import', { bytes: one })).body.message).toBe('success');
    const two = `\uFEFF${csv([['B', 'b@acme.test', '', '', '1', '0', '0']])}`;
    expect((await upload(b, '/admin/users/import', { bytes: two })).body.message).toBe('success');
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'b@acme.test')).get()).toBeTruthy();
  });

  it('unexpected_format with expected and given columns', async () => {
    const b = await signIn();
    const r = await upload(b, '/admin/users/import', { bytes: 'Name,Mail,Dept\r\nA,a@acme.test,x\r\n' });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ message: 'unexpected_format', expected_format: [...IMPORT_HEADERS.ja], given_format: ['Name', 'Mail', 'Dept'] });
    const logs = await b.get(`${API}/admin/users/import/update/logs`);
    expect(logs.body[0]).toMatchObject({ status: 'failed' });
  });

  it('incorrect-encoding for UTF-16 and for bytes neither UTF-8 nor Shift_JIS', async () => {
    const b = await signIn();
    const utf16 = iconv.encode(csv([['A', 'a@acme.test', '', '', '1', '0', '0']]), 'utf16le', { addBOM: true });
    expect((await upload(b, '/admin/users/import', { bytes: utf16 })).body).toEqual({ message: 'incorrect-encoding' });
    const broken = new Uint8Array([...new TextEncoder().encode(header()), 0x0d, 0x0a, 0x82, 0xff, 0xfd]);
    expect((await upload(b, '/admin/users/import', { bytes: broken })).body).toEqual({ message: 'incorrect-encoding' });
  });

  it('no_data for a header-only file', async () => {
    const b = await signIn();
    expect((await upload(b, '/admin/users/import/update', { bytes: `${header()}\r\n` })).body).toEqual({ message: 'no_data' });
    expect((await upload(b, '/admin/users/import', { bytes: `${header()}\r\n\r\n` })).body).toEqual({ message: 'no_data' });
  });

  it('wrong file type, missing file, too large', async () => {
    const b = await signIn();
    const png = await upload(b, '/admin/users/import', { bytes: 'x', name: 'photo.png', type: 'image/png' });
    expect(png.status).toBe(422);
    expect(png.body).toEqual({ message: 'The given data was invalid.', errors: { csvFile: ['The csv file must be a file of type: csv, txt.'] } });
    expect((await upload(b, '/admin/users/import', null)).body.errors.csvFile).toEqual(['The csv file field is required.']);
    const big = new Uint8Array(IMPORT_MAX_BYTES + 1);
    const r = await upload(b, '/admin/users/import', { bytes: big });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ message: 'file-too-large' });
  });

  it('uploads are exempt from the 64 KiB JSON limit (not from CSRF); JSON calls keep it', async () => {
    const b = await signIn();
    await h.deps.db.update(tenantApps).set({ seats: null }).where(eq(tenantApps.tenantId, 1));
    const rows = Array.from({ length: 2000 }, (_, i) => [`社員 ${i}`, `bulk${i}@acme.test`, '営業部', '', '1', '0', '0']);
    const text = csv(rows);
    expect(text.length).toBeGreaterThan(64 * 1024);
    expect((await upload(b, '/admin/users/import', { bytes: text })).body).toEqual({ message: 'success', count: 2000 });
    expect((await b.get(`${API}/admin/users?search=bulk`)).body.total).toBe(2000);
    const json = await b.post(`${API}/admin/users`, { name: 'x'.repeat(70 * 1024), email: 'big@acme.test', allowedApps: ['meishi'] });
    expect(json.status).toBe(413);
    // Without the API headers a cross-site form could post a file: refused.
    const form = new FormData();
    form.append('csvFile', new File([text], 'x.csv', { type: 'text/csv' }));
    const res = await h.app.request(`${b.origin}${API}/admin/users/import`, { method: 'POST', body: form, headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: 'http://evil.test' } });
    expect(res.status).toBe(403);
  });

  it('a normal member cannot import; a tenant manager can', async () => {
    const user = await signIn('user@acme.test');
    expect((await upload(user, '/admin/users/import', { bytes: csv([['A', 'a@acme.test', '', '', '1', '0', '0']]) })).status).toBe(403);
    const m = await signIn('manager@staff.test');
    expect((await upload(m, '/admin/users/import', { bytes: csv([['A', 'a@acme.test', '', '', '1', '0', '0']]) })).body).toEqual({ message: 'success', count: 1 });
    expect((await m.get(`${API}/admin/users/import/update/logs`)).body[0].user).toEqual({ name: 'Staff Manager' });
  });

  it('a bad row rejects the whole file: nothing applied, every problem listed', async () => {
    const b = await signIn();
    const text = csv([
      ['Good', 'good@acme.test', '営業部', '', '1', '0', '0'],
      ['', 'bad-email', '無い部', '', '2', '0', '0'],
      ['Dup', 'user@acme.test', '', '', '1', '0', '0'],
      ['Dup2', 'good@acme.test', '', '', '0', '0', '0'],
    ]);
    const r = await upload(b, '/admin/users/import', { bytes: text });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('invalid-csv');
    expect(r.body.rows).toEqual(
      expect.arrayContaining([
        { row: 3, column: 'name', error: 'required' },
        { row: 3, column: 'email', error: 'emailInvalid', value: 'bad-email' },
        { row: 3, column: 'department', error: 'unknownDepartment', value: '無い部' },
        { row: 3, column: 'meishi', error: 'badFlag', value: '2' },
        { row: 4, column: 'email', error: 'alreadyMember', value: 'user@acme.test' },
        { row: 5, column: 'email', error: 'duplicateInFile', value: 'good@acme.test' },
        { row: 5, column: 'meishi', error: 'noApp' },
      ]),
    );
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'good@acme.test')).get()).toBeUndefined();
  });

  it('invalid CSV (broken quotes) is invalid-csv', async () => {
    const b = await signIn();
    const r = await upload(b, '/admin/users/import', { bytes: `${header()}\r\n"A,a@acme.test,,,1,0,0\r\n` });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('invalid-csv');
  });

  it('quota_finished when the file needs more seats than are free; nothing applied', async () => {
    const b = await signIn();
    await h.deps.db.update(tenantApps).set({ seats: 5 }).where(and(eq(tenantApps.tenantId, 1), eq(tenantApps.app, 'meishi')));
    const r = await upload(b, '/admin/users/import', { bytes: csv([['A', 'a@acme.test', '', '', '1', '0', '0'], ['B', 'b@acme.test', '', '', '1', '0', '0']]) });
    expect(r.body).toEqual({ message: 'quota_finished', app: 'meishi' });
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'a@acme.test')).get()).toBeUndefined();
  });
});

describe('CSV import: update', () => {
  it('updates existing members by email, all or nothing', async () => {
    const b = await signIn();
    const r = await upload(b, '/admin/users/import/update', { bytes: csv([['山田 花子', 'user@acme.test', '開発部', '営業部', '1', '1', '0'], ['佐藤', 'TOTP@acme.test', '', '', '0', '1', '1']]) });
    expect(r.body).toEqual({ message: 'success', count: 2 });
    const m = await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.id, 2)).get();
    expect(m).toMatchObject({ departmentId: 2, isAdmin: false });
    expect(m?.schedulerAccessGrantedAt).not.toBeNull();
    expect(await h.deps.db.select().from(additionalDepartments).where(eq(additionalDepartments.tenantUserId, 2))).toEqual([{ tenantId: 1, tenantUserId: 2, departmentId: 1 }]);
    const t = await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.id, 5)).get();
    expect(t).toMatchObject({ isAdmin: true, meishiAccessGrantedAt: null });
    // The person's own name stays theirs; the file's name is this tenant's label for them.
    expect((await h.deps.db.select().from(users).where(eq(users.id, U.user)).get())?.name).toBe('山田 太郎');
    expect((await h.deps.db.select().from(tenantUsers).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, U.user))).get())?.displayName).toBe('山田 花子');
    expect((await b.get(`${API}/admin/users/import/update/logs`)).body[0]).toMatchObject({ kind: 'update', status: 'success', number_of_users_updated: 2 });
  });

  it('unknown emails and other tenants members are rejected (404-like: notMember), nothing changes', async () => {
    const b = await signIn();
    const r = await upload(b, '/admin/users/import/update', { bytes: csv([['x', 'admin@initech.test', '', '', '1', '0', '0'], ['y', 'user@acme.test', '', '', '1', '0', '0']]) });
    expect(r.body.rows).toEqual([{ row: 2, column: 'email', error: 'notMember', value: 'admin@initech.test' }]);
    expect((await h.deps.db.select().from(users).where(eq(users.id, U.initech)).get())?.name).toBe('Initech Admin');
    expect((await h.deps.db.select().from(users).where(eq(users.id, U.user)).get())?.name).toBe('山田 太郎');
  });

  it('the last admin cannot be demoted by a file', async () => {
    const b = await signIn();
    const r = await upload(b, '/admin/users/import/update', { bytes: csv([['Acme 管理者', 'admin@acme.test', '', '', '1', '0', '0']]) });
    expect(r.body).toEqual({ message: 'invalid-csv', rows: [{ row: 2, column: 'is_admin', error: 'lastAdmin' }] });
    expect((await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.id, 1)).get())?.isAdmin).toBe(true);
  });

  it('import logs are per tenant', async () => {
    const b = await signIn();
    await upload(b, '/admin/users/import', { bytes: csv([['A', 'a@acme.test', '', '', '1', '0', '0']]) });
    const other = await signIn('admin@initech.test', 'initech.localhost:8787');
    expect((await other.get(`${API}/admin/users/import/update/logs`)).body).toEqual([]);
  });

  it('the sample is users-import-sample.csv with the expected header, in the caller language', async () => {
    const b = await signIn();
    const res = await h.app.request(`${b.origin}${API}/admin/users/import`, { headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="users-import-sample.csv"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes); // the decoder drops the BOM
    expect(text.split('\r\n')[0]).toBe(`${header('ja')},フリガナ`); // the optional reading column last (decision 0045)
    // The sample imports as it is once its departments exist.
    await h.deps.db.insert(departments).values({ tenantId: 1, name: '総務部' });
    expect((await upload(b, '/admin/users/import', { bytes: text })).body).toEqual({ message: 'success', count: 2 });
  });
});

describe('departments', () => {
  it('lists with own and additional counts; add, rename, delete with the spec errors', async () => {
    const b = await signIn();
    await h.deps.db.insert(additionalDepartments).values({ tenantId: 1, tenantUserId: 2, departmentId: 2 });
    const list = await b.get(`${API}/admin/departments`);
    expect(list.body).toEqual([
      { id: 1, name: '営業部', created_at: expect.any(String), users_count: 2, additional_users_count: 0 },
      { id: 2, name: '開発部', created_at: expect.any(String), users_count: 2, additional_users_count: 1 },
    ]);
    const added = await b.post(`${API}/admin/departments`, { name: ' 総務部 ' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: '総務部', users_count: 0 });
    const dup = await b.post(`${API}/admin/departments`, { name: '営業部' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toHaveLength(1);
    expect((await b.request('PATCH', `${API}/admin/departments/${added.body.id}`, { json: { name: '開発部' } })).status).toBe(422);
    expect((await b.request('PATCH', `${API}/admin/departments/${added.body.id}`, { json: { name: '人事部' } })).body).toMatchObject({ name: '人事部' });
    expect((await b.post(`${API}/admin/departments`, { name: '' })).status).toBe(422);
    expect((await b.request('DELETE', `${API}/admin/departments/1`)).body).toEqual({ message: 'cannot-delete-department-with-users' });
    expect((await b.request('DELETE', `${API}/admin/departments/${added.body.id}`)).body).toEqual({ message: 'success' });
    for (const a of ['department.created', 'department.renamed', 'department.deleted']) {
      expect(await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, a)).get(), a).toBeTruthy();
    }
  });

  it('another tenant department is 404 and unchanged', async () => {
    const b = await signIn('admin@initech.test', 'initech.localhost:8787');
    expect((await b.request('PATCH', `${API}/admin/departments/1`, { json: { name: 'x' } })).status).toBe(404);
    expect((await b.request('DELETE', `${API}/admin/departments/2`)).status).toBe(404);
    expect((await b.get(`${API}/admin/departments`)).body).toEqual([]);
    expect((await h.deps.db.select().from(departments).where(eq(departments.id, 1)).get())?.name).toBe('営業部');
  });

  it('departments with users', async () => {
    const b = await signIn();
    const r = await b.get(`${API}/departments-with-users`);
    expect(r.body.find((d: { id: number }) => d.id === 1).users.map((u: { email: string }) => u.email).sort()).toEqual(['admin@acme.test', 'user@acme.test']);
  });
});

describe('audit log export', () => {
  it('streams a CSV with BOM, localised name, RFC 4180 quoting and formula-safe cells', async () => {
    const b = await signIn();
    await b.post(`${API}/admin/departments`, { name: '=HYPERLINK("http://evil.test","x")' });
    await b.post(`${API}/admin/departments`, { name: '＠SUM(1)' });
    await h.deps.db.insert(activityLogs).values({ tenantId: 1, actorUserId: U.admin, action: 'test', details: { note: 'a,"b"\r\nc' }, userAgent: '-cmd', createdAt: h.clock.now() - 1000 });
    await h.deps.db.insert(activityLogs).values({ tenantId: 3, actorUserId: U.initech, action: 'other-tenant', createdAt: h.clock.now() });
    const res = await h.app.request(`${b.origin}${API}/admin/activity-logs/export-csv`, { headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    // 2026-11-21 00:00 UTC = 09:00 in Tokyo.
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="____20261121090000.csv"; filename*=UTF-8''${encodeURIComponent('監査ログ20261121090000.csv')}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true }).data; // the decoder dropped the BOM
    expect(parsed[0]![0]).toBe('日時');
    const actions = parsed.slice(1).map((r) => r[3]);
    expect(actions).toContain('department.created');
    expect(actions).not.toContain('other-tenant');
    const cells = parsed.flat();
    expect(cells).toContain('{"note":"a,\\"b\\"\\r\\nc"}');
    expect(cells).toContain("'-cmd");
    expect(cells.some((c) => c.startsWith('{"name":"=HYPERLINK'))).toBe(true); // inside JSON: not at the start
    expect(cells.every((c) => !/^[=+\-@\t\r＝＋－＠]/.test(c))).toBe(true);
    // Newest first; the export itself is audited.
    expect(parsed[1]![3]).toBe('activity_logs.exported');
  });

  it('the formula escape covers every dangerous first character', async () => {
    const b = await signIn();
    const evil = ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '＝1', '＋1', '－1', '＠x'];
    for (const [i, v] of evil.entries()) await h.deps.db.insert(activityLogs).values({ tenantId: 1, action: v, createdAt: h.clock.now() - i - 10 });
    const res = await h.app.request(`${b.origin}${API}/admin/activity-logs/export-csv`, { headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    const rows = Papa.parse<string[]>(await res.text(), { skipEmptyLines: true }).data;
    const actions = rows.slice(1).map((r) => r[3]!);
    for (const v of evil) expect(actions).toContain(`'${v}`);
  });

  it('English filename for an English admin', async () => {
    const b = await signIn();
    await b.request('PATCH', `${API}/user/language`, { json: { language: 'en' } });
    const res = await h.app.request(`${b.origin}${API}/admin/activity-logs/export-csv`, { headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''Audit%20Logs20261121090000.csv`);
    await res.arrayBuffer();
  });
});
