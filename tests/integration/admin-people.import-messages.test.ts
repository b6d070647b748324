// CSV import messages a person can act on (issue 27 part 7): each row error carries the bad cell
// (quoted under the header the person sees), errors come in file order, and the sample file is
// built from the tenant's own departments and apps, so uploading it unchanged imports.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenantApps } from '../../src/db/schema';
import { IMPORT_COLUMNS, IMPORT_HEADERS, IMPORT_READING_HEADER } from '../../src/shared/people/schemas';
import ja from '../../locales/ja.json';
import en from '../../locales/en.json';
import { createHarness, TEST_IP_HEADER, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.deps.db.update(tenantApps).set({ seats: null }).where(eq(tenantApps.tenantId, 1));
});
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 20));
  h.close();
});

const ACME = 'acme.localhost:8787';
const API = '/accounts/api';

async function signIn(email = 'admin@acme.test', host = ACME): Promise<TestClient> {
  const b = h.client(host);
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

async function upload(b: TestClient, text: string) {
  const form = new FormData();
  form.append('csvFile', new File([text], 'users.csv', { type: 'text/csv' }));
  const res = await h.app.request(`${b.origin}${API}/admin/users/import`, {
    method: 'POST',
    body: form,
    headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-requested-with': 'XMLHttpRequest', origin: b.origin, [TEST_IP_HEADER]: '203.0.113.10' },
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('CSV import messages', () => {
  it('quotes the bad cell of each error, in the order of the file', async () => {
    const b = await signIn();
    const file = `${IMPORT_HEADERS.ja.join(',')}\r\n${[
      ['一郎', 'ichiro@acme.test', '総務部', '', '1', '0', '0'],
      ['二郎', 'not-an-address', '', '人事部', 'yes', '0', '0'],
      ['三郎', 'ichiro@acme.test', '', '', '1', '0', '0'],
    ]
      .map((r) => r.join(','))
      .join('\r\n')}\r\n`;
    const r = await upload(b, file);
    expect(r.body.message).toBe('invalid-csv');
    expect(r.body.rows).toEqual([
      { row: 2, column: 'department', error: 'unknownDepartment', value: '総務部' },
      { row: 3, column: 'email', error: 'emailInvalid', value: 'not-an-address' },
      { row: 3, column: 'additional_departments', error: 'unknownDepartment', value: '人事部' },
      { row: 3, column: 'meishi', error: 'badFlag', value: 'yes' },
      { row: 3, column: 'meishi', error: 'noApp' },
      { row: 4, column: 'email', error: 'duplicateInFile', value: 'ichiro@acme.test' },
    ]);
  });

  it('the screens name each column by the header the person sees', () => {
    for (const [lang, texts] of [['ja', ja], ['en', en]] as const) {
      expect(IMPORT_COLUMNS.map((c) => texts.people.import.columns[c])).toEqual([...IMPORT_HEADERS[lang]]);
      // The optional reading column (decision 0045) too.
      expect(texts.people.import.columns.name_reading).toBe(IMPORT_READING_HEADER[lang]);
    }
    expect(`${ja.people.import.rowErrors.unknownDepartment}: 総務部`).toBe(ja.people.import.rowErrorValue.replace('{{error}}', ja.people.import.rowErrors.unknownDepartment).replace('{{value}}', '総務部'));
  });

  it('the sample uses the tenant\'s departments and apps, and imports unchanged', async () => {
    const b = await signIn();
    const res = await h.app.request(`${b.origin}${API}/admin/users/import`, {
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-requested-with': 'XMLHttpRequest', [TEST_IP_HEADER]: '203.0.113.10' },
    });
    const sample = (await res.text()).replace(/^\uFEFF/, '');
    const lines = sample.trim().split('\r\n');
    // The optional reading column last (decision 0045).
    expect(lines[0]).toBe([...IMPORT_HEADERS.ja, IMPORT_READING_HEADER.ja].join(','));
    // Acme: 営業部 and 開発部, meishi and scheduler.
    expect(lines[1]).toBe('山田 太郎,taro.yamada@example.com,営業部,開発部,1,1,0,ヤマダ タロウ');
    expect((await upload(b, sample)).body).toEqual({ message: 'success', count: 2 });
  });
});
