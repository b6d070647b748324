// People administration in workerd with a local D1 (wrangler dev, started by global-setup.ts):
// a Shift_JIS CSV import (TextDecoder + papaparse + one D1 batch through json_each), the users
// list, the streamed audit export, and a user deletion (waitUntil + job row); and a file over
// 1 MiB imported as a job: streamed into D1 pieces, staged step by step in queue consumer
// invocations (the local Queue of wrangler dev), switched in in one D1 batch (decision 0030).
import iconv from 'iconv-lite';
import { request as httpRequest } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { IMPORT_HEADERS } from '../../src/shared/people/schemas';
import { Browser, type HostClient } from './support/client';

const port = inject('workerPort');

/** A binary POST (the shared client sends UTF-8 strings only). */
function postBytes(c: HostClient, path: string, body: Buffer, contentType: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const headers = {
      host: c.host,
      origin: c.origin,
      'x-requested-with': 'XMLHttpRequest',
      'content-type': contentType,
      'content-length': String(body.length),
      cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    const r = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not json */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    r.on('error', reject);
    r.end(body);
  });
}

function multipart(field: string, filename: string, type: string, content: Buffer) {
  const boundary = `----portal${Date.now()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`, 'utf8');
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  return { body: Buffer.concat([head, content, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('people administration in workerd', () => {
  it('imports a Shift_JIS file, lists it, exports the audit log, deletes a user', async () => {
    const acme = new Browser(port).on('acme.localhost');
    expect((await acme.login('admin@acme.test')).body.message).toBe('success');

    const text = `${IMPORT_HEADERS.ja.join(',')}\r\n髙橋 﨑子,wk-takahashi@acme.test,営業部,開発部,1,0,0\r\n渡邉 一,wk-watanabe@acme.test,,,1,0,0\r\n`;
    const { body, contentType } = multipart('csvFile', '社員.csv', 'text/csv', iconv.encode(text, 'cp932'));
    const imported = await postBytes(acme, '/accounts/api/admin/users/import', body, contentType);
    expect(imported).toEqual({ status: 200, body: { message: 'success', count: 2 } });

    const list = await acme.get(`/accounts/api/admin/users?search=wk-&sort=email&order=asc`);
    expect(list.body.data.map((u: { name: string }) => u.name)).toEqual(['髙橋 﨑子', '渡邉 一']);
    expect(list.body.data[0]).toMatchObject({ department: { name: '営業部' }, additionalDepartments: [{ name: '開発部' }] });

    // A 100-row page: the id lists travel as one JSON value (D1 binds at most 100 parameters).
    // Globex has unlimited meishi seats and no departments yet.
    const globex = new Browser(port).on('globex-jp.localhost');
    expect((await globex.login('multi@example.test')).body.message).toBe('success');
    for (const name of ['営業部', '開発部']) expect((await globex.post('/accounts/api/admin/departments', { name })).status).toBe(201);
    const many = Array.from({ length: 120 }, (_, i) => `社員${i},wk-bulk${i}@acme.test,営業部,開発部,1,0,0`).join('\r\n');
    const bulk = multipart('csvFile', 'bulk.csv', 'text/csv', Buffer.from(`${IMPORT_HEADERS.ja.join(',')}\r\n${many}\r\n`, 'utf8'));
    expect((await postBytes(globex, '/accounts/api/admin/users/import', bulk.body, bulk.contentType)).body).toEqual({ message: 'success', count: 120 });
    const page = await globex.get('/accounts/api/admin/users?perPage=100&search=wk-bulk');
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(100);
    expect(page.body.data.every((u: { additionalDepartments: unknown[] }) => u.additionalDepartments.length === 1)).toBe(true);

    const wrong = await postBytes(acme, '/accounts/api/admin/users/import', ...(() => {
      const m = multipart('csvFile', 'x.csv', 'text/csv', Buffer.from('a,b\r\n1,2\r\n'));
      return [m.body, m.contentType] as const;
    })());
    expect(wrong.body).toMatchObject({ message: 'unexpected_format', given_format: ['a', 'b'] });

    const exported = await acme.get('/accounts/api/admin/activity-logs/export-csv');
    expect(exported.status).toBe(200);
    expect(exported.text.charCodeAt(0)).toBe(0xfeff);
    expect(exported.text).toContain('users.imported');
    expect(exported.headers.get('content-disposition')).toMatch(/filename\*=UTF-8''%E7%9B%A3%E6%9F%BB%E3%83%AD%E3%82%B0\d{14}\.csv/);

    const id = list.body.data[1].id;
    const del = await acme.request('DELETE', `/accounts/api/admin/users/${id}`);
    expect([202, 204]).toContain(del.status);
    await expect
      .poll(async () => (await acme.get(`/accounts/api/admin/users?search=wk-watanabe`)).body.total, { timeout: 15_000 })
      .toBe(0);
  });

  it('a 1.3 MB Shift_JIS file runs as an import job: 202, progress, every row; another tenant cannot read the job', async () => {
    const initech = new Browser(port).on('initech.localhost');
    expect((await initech.login('admin@initech.test')).body.message).toBe('success');
    // Initech's meishi has 5 seats: unlimited for this test.
    const globex = new Browser(port).on('globex-jp.localhost');
    expect((await globex.login('multi@example.test')).body.message).toBe('success');
    const names = ['髙橋 﨑子', '渡邉 一', '齋藤 花', '鈴木 太郎'];
    const lines = Array.from({ length: 25_000 }, (_, i) => `${names[i % names.length]}${i},wk-job${i}@globex.test,,,1,0,0`);
    const file = iconv.encode(`${IMPORT_HEADERS.ja.join(',')}\r\n${lines.join('\r\n')}\r\n`, 'cp932');
    expect(file.length).toBeGreaterThan(1024 * 1024);
    const m = multipart('csvFile', '大量.csv', 'text/csv', file);
    const accepted = await postBytes(globex, '/accounts/api/admin/users/import', m.body, m.contentType);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ message: 'processing', jobId: expect.any(Number), total_rows: 25_000 });
    const path = `/accounts/api/admin/users/import/${accepted.body.jobId}`;
    // The job is Globex's: Initech's admin is told it does not exist.
    expect((await initech.get(path)).status).toBe(404);
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          const r = await globex.get(path);
          seen.push(r.body.processed_rows);
          return r.body.status === 'failed' ? JSON.stringify(r.body.error) : r.body.status;
        },
        { timeout: 50_000, interval: 250 },
      )
      .toBe('success');
    expect((await globex.get(path)).body).toMatchObject({ status: 'success', count: 25_000, processed_rows: 25_000 });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const list = await globex.get(`/accounts/api/admin/users?search=${encodeURIComponent('wk-job24999@')}`);
    expect(list.body.data.map((u: { name: string }) => u.name)).toEqual(['鈴木 太郎24999']);
    expect((await globex.get('/accounts/api/admin/users?search=wk-job')).body.total).toBe(25_000);
    const logs = await globex.get('/accounts/api/admin/users/import/update/logs');
    expect(logs.body[0]).toMatchObject({ filename: '大量.csv', status: 'success', number_of_users_updated: 25_000 });
  });
});
