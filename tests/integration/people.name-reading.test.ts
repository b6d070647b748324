// The reading (フリガナ) of a person's name (issue 27 part 6, decision 0045): the users API (add,
// edit, list, sort, search), CSV import with and without the optional column, the users export,
// SCIM's portal extension, and tenant isolation.
import { and, eq } from 'drizzle-orm';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenantUsers, users } from '../../src/db/schema';
import { IMPORT_HEADERS } from '../../src/shared/people/schemas';
import { createHarness, TEST_IP_HEADER, type Harness, type TestClient } from '../support/harness';
import { makeToken, patchOp, scimClient, entraUser, oktaUser } from '../support/scim';

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
const PORTAL_URN = 'urn:ietf:params:scim:schemas:extension:portal:2.0:User';

async function signIn(email = 'admin@acme.test', host = ACME): Promise<TestClient> {
  const b = h.client(host);
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

const person = (name: string, email: string, extra: Record<string, unknown> = {}) => ({ name, email, allowedApps: ['meishi'], ...extra });

async function listed(b: TestClient, query: string) {
  return (await b.get(`${API}/admin/users?${query}`)).body.data as { name: string; email: string; name_reading: string | null }[];
}

async function readingOf(email: string, tenantId = 1) {
  const row = await h.deps.db
    .select({ r: tenantUsers.nameReading })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(users.email, email), eq(tenantUsers.tenantId, tenantId)))
    .get();
  return row?.r;
}

async function upload(b: TestClient, path: string, bytes: Uint8Array | string) {
  const form = new FormData();
  form.append('csvFile', new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], 'users.csv', { type: 'text/csv' }));
  const res = await h.app.request(`${b.origin}${API}${path}`, {
    method: 'POST',
    body: form,
    headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-requested-with': 'XMLHttpRequest', origin: b.origin, [TEST_IP_HEADER]: '203.0.113.10' },
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

describe('the users API', () => {
  it('adds with a reading normalised to katakana, refuses kanji, edits, keeps it when left out, clears it', async () => {
    const b = await signIn();
    const added = await b.post(`${API}/admin/users`, person('山田 太郎', 'taro@acme.test', { name_reading: ' やまだ　ﾀﾛｳ ' }));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.user.name_reading).toBe('ヤマダ タロウ');
    const bad = await b.post(`${API}/admin/users`, person('山田 花子', 'hanako@acme.test', { name_reading: '山田' }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['name_reading']);
    expect((await b.post(`${API}/admin/users`, person('山田 花子', 'hanako@acme.test', { name_reading: 'ア'.repeat(101) }))).status).toBe(422);
    const id = added.body.user.id;
    const edited = await b.patch(`${API}/admin/users/${id}`, person('山田 太郎', 'taro@acme.test', { name_reading: 'ヤマダ タロー' }));
    expect(edited.body.user.name_reading).toBe('ヤマダ タロー');
    // Left out: unchanged (older clients); null: none.
    expect((await b.patch(`${API}/admin/users/${id}`, person('山田 太郎', 'taro@acme.test'))).body.user.name_reading).toBe('ヤマダ タロー');
    expect((await b.patch(`${API}/admin/users/${id}`, person('山田 太郎', 'taro@acme.test', { name_reading: null }))).body.user.name_reading).toBeNull();
  });

  it('sorts by the reading where known (gojūon order), searches it in hiragana, and another tenant never sees it', async () => {
    const b = await signIn();
    // Kanji order (by code point) is not reading order: 渡辺 < 伊藤 < 佐藤 by reading would be wrong.
    await b.post(`${API}/admin/users`, person('渡辺 健', 'watanabe@acme.test', { name_reading: 'ワタナベ ケン' }));
    await b.post(`${API}/admin/users`, person('伊藤 愛', 'ito@acme.test', { name_reading: 'イトウ アイ' }));
    await b.post(`${API}/admin/users`, person('佐藤 翔', 'sato@acme.test', { name_reading: 'サトウ ショウ' }));
    const names = (await listed(b, 'search=%40acme.test&sort=name&order=asc&perPage=100')).map((u) => u.email);
    const ours = names.filter((e) => ['watanabe@acme.test', 'ito@acme.test', 'sato@acme.test'].includes(e));
    expect(ours).toEqual(['ito@acme.test', 'sato@acme.test', 'watanabe@acme.test']);
    const desc = (await listed(b, 'search=%40acme.test&sort=name&order=desc&perPage=100')).map((u) => u.email).filter((e) => ours.includes(e));
    expect(desc).toEqual([...ours].reverse());
    expect((await listed(b, `search=${encodeURIComponent('さとう')}`)).map((u) => u.email)).toEqual(['sato@acme.test']);
    // multi@example.test is a Globex admin too: Globex's reading of a shared person is its own.
    await h.deps.db.update(tenantUsers).set({ nameReading: 'マルチ' }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, 3)));
    const globex = await signIn('multi@example.test', 'globex-jp.localhost:8787');
    const there = await listed(globex, 'perPage=100');
    expect(there.every((u) => u.name_reading === null)).toBe(true);
    expect((await listed(globex, `search=${encodeURIComponent('マルチ')}`)).length).toBe(0);
  });
});

describe('CSV import and export', () => {
  const header = IMPORT_HEADERS.ja.join(',');
  const csv = (head: string, rows: string[][]) => `${head}\r\n${rows.map((r) => r.join(',')).join('\r\n')}\r\n`;

  it('a file without the reading column imports as before; with it (Shift_JIS, half-width kana) the readings are kept', async () => {
    const b = await signIn();
    const old = await upload(b, '/admin/users/import', csv(header, [['鈴木 一郎', 'ichiro@acme.test', '営業部', '', '1', '0', '0']]));
    expect(old.body).toEqual({ message: 'success', count: 1 });
    expect(await readingOf('ichiro@acme.test')).toBeNull();
    const text = csv(`${header},フリガナ`, [
      ['高橋 髙子', 'takako@acme.test', '', '', '1', '0', '0', 'ﾀｶﾊｼ ﾀｶｺ'],
      ['田中 実', 'minoru@acme.test', '', '', '1', '0', '0', ''],
    ]);
    const r = await upload(b, '/admin/users/import', iconv.encode(text, 'cp932'));
    expect(r.body).toEqual({ message: 'success', count: 2 });
    expect(await readingOf('takako@acme.test')).toBe('タカハシ タカコ');
    expect(await readingOf('minoru@acme.test')).toBeNull();
    // The English header names the column too.
    const en = csv(`${IMPORT_HEADERS.en.join(',')},Name reading`, [['Jiro', 'jiro@acme.test', '', '', '1', '0', '0', 'じろう']]);
    expect((await upload(b, '/admin/users/import', en)).body).toEqual({ message: 'success', count: 1 });
    expect(await readingOf('jiro@acme.test')).toBe('ジロウ');
  });

  it('refuses a bad reading with its line and column, and a row whose column count differs from the header', async () => {
    const b = await signIn();
    const bad = await upload(b, '/admin/users/import', csv(`${header},フリガナ`, [['A', 'a@acme.test', '', '', '1', '0', '0', '漢字']]));
    expect(bad.body).toEqual({ message: 'invalid-csv', rows: [{ row: 2, column: 'name_reading', error: 'readingKana' }] });
    const short = await upload(b, '/admin/users/import', csv(`${header},フリガナ`, [['A', 'a@acme.test', '', '', '1', '0', '0']]));
    expect(short.body).toEqual({ message: 'invalid-csv', rows: [{ row: 2, column: null, error: 'columns' }] });
    const long = await upload(b, '/admin/users/import', csv(header, [['A', 'a@acme.test', '', '', '1', '0', '0', 'ア']]));
    expect(long.body).toEqual({ message: 'invalid-csv', rows: [{ row: 2, column: null, error: 'columns' }] });
    // An unknown eighth header is still the wrong format.
    expect((await upload(b, '/admin/users/import', csv(`${header},備考`, [['A', 'a@acme.test', '', '', '1', '0', '0', 'x']]))).body.message).toBe('unexpected_format');
  });

  it('edit by import: without the column the readings stay; with it an empty cell clears them', async () => {
    const b = await signIn();
    await b.post(`${API}/admin/users`, person('山田 太郎', 'taro@acme.test', { name_reading: 'ヤマダ タロウ' }));
    expect((await upload(b, '/admin/users/import/update', csv(header, [['山田 太郎', 'taro@acme.test', '', '', '1', '0', '0']]))).body).toEqual({ message: 'success', count: 1 });
    expect(await readingOf('taro@acme.test')).toBe('ヤマダ タロウ');
    expect((await upload(b, '/admin/users/import/update', csv(`${header},フリガナ`, [['山田 太郎', 'taro@acme.test', '', '', '1', '0', '0', 'ヤマダ タロー']]))).body.count).toBe(1);
    expect(await readingOf('taro@acme.test')).toBe('ヤマダ タロー');
    expect((await upload(b, '/admin/users/import/update', csv(`${header},フリガナ`, [['山田 太郎', 'taro@acme.test', '', '', '1', '0', '0', '']]))).body.count).toBe(1);
    expect(await readingOf('taro@acme.test')).toBeNull();
  });

  it('the export is the import format with the reading last, and edit by import takes it back unchanged', async () => {
    const b = await signIn();
    await b.post(`${API}/admin/users`, person('山田 太郎', 'taro@acme.test', { name_reading: 'ヤマダ タロウ', department_id: 1, additionalDepartmentIds: [2] }));
    const res = await h.app.request(`${b.origin}${API}/admin/users/export`, { headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".*\.csv"; filename\*=UTF-8''/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split('\r\n');
    expect(lines[0]).toBe(`${header},フリガナ`);
    expect(lines).toContain('山田 太郎,taro@acme.test,営業部,開発部,1,0,0,ヤマダ タロウ');
    // Neither the deactivated member nor another tenant's people.
    expect(lines.some((l) => l.includes('gone@acme.test') || l.includes('initech.test'))).toBe(false);
    const back = await upload(b, '/admin/users/import/update', bytes);
    expect(back.body.message, JSON.stringify(back.body)).toBe('success');
    expect(await readingOf('taro@acme.test')).toBe('ヤマダ タロウ');
    // A normal member may not export.
    const user = await signIn('user@acme.test');
    expect((await user.get(`${API}/admin/users/export`)).status).toBe(403);
  });
});

describe('SCIM', () => {
  it("takes the reading from the portal extension's nameReading, echoes it, keeps it across PATCHes that leave it alone, and clears it", async () => {
    const s = scimClient(h, (await makeToken(h, { name: 'Entra ID' })).token);
    const created = await s.post('/Users', entraUser('taro@acme.test', { [PORTAL_URN]: { nameReading: 'やまだ たろう' } }));
    expect(created.status, created.text).toBe(201);
    expect(created.body[PORTAL_URN]).toMatchObject({ nameReading: 'ヤマダ タロウ' });
    expect(await readingOf('taro@acme.test')).toBe('ヤマダ タロウ');
    const id = created.body.id;
    // Entra: a dotted path-less key.
    const patched = await s.patch(`/Users/${id}`, patchOp({ op: 'Replace', value: { [`${PORTAL_URN}:nameReading`]: 'ヤマダ タロー' } }));
    expect(patched.status, patched.text).toBe(200);
    expect(await readingOf('taro@acme.test')).toBe('ヤマダ タロー');
    expect((await s.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'displayName', value: 'Taro' }))).status).toBe(200);
    expect(await readingOf('taro@acme.test')).toBe('ヤマダ タロー');
    // Okta: a PUT without the extension leaves it as it is; a Remove clears it.
    const okta = scimClient(h, (await makeToken(h, { name: 'Okta' })).token);
    expect((await okta.put(`/Users/${id}`, oktaUser('taro@acme.test'))).status).toBe(200);
    expect(await readingOf('taro@acme.test')).toBe('ヤマダ タロー');
    expect((await s.patch(`/Users/${id}`, patchOp({ op: 'Remove', path: `${PORTAL_URN}:nameReading` }))).status).toBe(200);
    expect(await readingOf('taro@acme.test')).toBeNull();
    const bad = await s.post('/Users', oktaUser('kanji@acme.test', { [PORTAL_URN]: { nameReading: '鈴木' } }));
    expect(bad.status).toBe(400);
    expect(bad.body.scimType).toBe('invalidValue');
  });
});
