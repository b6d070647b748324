// CSV import as a streamed, chunked job (decision 0030): the upload is read as a stream and
// stored in pieces cut after a newline byte, each piece is staged in its own step, and the rows
// are switched in only when every one is valid. Small pieces (IMPORT_CHUNK_BYTES) and no inline
// run (IMPORT_INLINE_BYTES=0) make small files behave like a 50 MB one.
import { and, eq, sql } from 'drizzle-orm';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importChunks, importJobs, importLogs, importRows, mailQueue, tenantApps, tenantUsers, users } from '../../src/db/schema';
import { runImportJob } from '../../src/domain/people/import/runner';
import { runPeopleSweep } from '../../src/domain/people/sweep';
import { seatsUsed } from '../../src/domain/people/members';
import { scopeOf } from '../../src/domain/tenants/scope';
import { IMPORT_HEADERS } from '../../src/shared/people/schemas';
import { createHarness, TEST_IP_HEADER, type Harness, type TestClient } from '../support/harness';

let h: Harness;
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 20));
  h?.close();
});

const ACME = 'acme.localhost:8787';
const API = '/accounts/api';
const CHUNK = 1024;

async function start(env: Record<string, string> = {}) {
  h = await createHarness({ IMPORT_CHUNK_BYTES: String(CHUNK), IMPORT_INLINE_BYTES: '0', ...env });
  // Unlimited seats unless a test says otherwise.
  await h.deps.db.update(tenantApps).set({ seats: null }).where(eq(tenantApps.tenantId, 1));
}

async function signIn(email = 'admin@acme.test', host = ACME): Promise<TestClient> {
  const b = h.client(host);
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

const header = IMPORT_HEADERS.ja.join(',');
const FAMILY = ['髙橋', '﨑山', '渡邉', '鈴木', '齋藤'];

/** Rows of Japanese names (CP932 extension characters included), one per line. */
function rows(n: number, prefix: string): string[] {
  return Array.from({ length: n }, (_, i) => `${FAMILY[i % FAMILY.length]} 社員${i},${prefix}${i}@acme.test,営業部,${i % 3 ? '' : '開発部'},1,0,0`);
}

/**
 * The multipart body of one file field, delivered in pieces of the given sizes: the test decides
 * where the stream is cut (e.g. between a Shift_JIS lead byte and its trail byte).
 */
function multipartStream(file: Uint8Array, filename: string, cutsInFile: number[]) {
  const boundary = '----portaltest7MA4YWxkTrZu0gW';
  const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}\r\nContent-Disposition: form-data; name="csvFile"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`);
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const body = new Uint8Array(head.length + file.length + tail.length);
  body.set(head);
  body.set(file, head.length);
  body.set(tail, head.length + file.length);
  const cuts = [...new Set([0, ...cutsInFile.map((c) => head.length + c), body.length])].sort((a, b) => a - b);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i + 1 < cuts.length; i++) controller.enqueue(body.slice(cuts[i], cuts[i + 1]));
      controller.close();
    },
  });
  return { stream, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function post(b: TestClient, path: string, file: Uint8Array, opts: { name?: string; cuts?: number[] } = {}) {
  const { stream, contentType } = multipartStream(file, opts.name ?? 'users.csv', opts.cuts ?? [7, 1000, 1001, 4097]);
  const res = await h.app.request(`${b.origin}${API}${path}`, {
    method: 'POST',
    body: stream,
    duplex: 'half',
    headers: {
      'content-type': contentType,
      cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-requested-with': 'XMLHttpRequest',
      origin: b.origin,
      [TEST_IP_HEADER]: '203.0.113.10',
      'user-agent': 'Mozilla/5.0 Chrome/156.0',
    },
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as any };
}

/** Reads the job until it has finished; returns every answer seen on the way. */
async function follow(b: TestClient, jobId: number) {
  const seen: any[] = [];
  for (let i = 0; i < 2000; i++) {
    const r = await b.get(`${API}/admin/users/import/${jobId}`);
    expect(r.status).toBe(200);
    seen.push(r.body);
    if (r.body.status === 'success' || r.body.status === 'failed') return seen;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error('the job did not finish');
}

describe('import jobs', () => {
  it('a Shift_JIS file cut into many pieces, characters straddling the stream and its pieces, imports whole; progress moves', async () => {
    await start();
    const b = await signIn();
    const text = `${header}\r\n${rows(400, 'sj').join('\r\n')}\r\n`;
    const file = new Uint8Array(iconv.encode(text, 'cp932'));
    // Cut the upload stream between lead and trail bytes of double-byte characters, and check
    // that raw 1 KiB pieces would have split characters too (so the newline cut is what saves them).
    const leads: number[] = [];
    for (let i = 0; i < file.length; i++) {
      const x = file[i]!;
      if ((x >= 0x81 && x <= 0x9f) || (x >= 0xe0 && x <= 0xfc)) {
        leads.push(i);
        i++;
      }
    }
    const cuts = leads.filter((_, i) => i % 97 === 0).map((i) => i + 1);
    expect(cuts.length).toBeGreaterThan(10);
    expect(leads.some((i) => (i + 1) % CHUNK === 0)).toBe(true);

    const r = await post(b, '/admin/users/import', file, { name: '社員.csv', cuts });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ message: 'processing', jobId: expect.any(Number), kind: 'add', filename: '社員.csv', total_rows: 400 });
    const job = await h.deps.db.select().from(importJobs).where(eq(importJobs.id, r.body.jobId)).get();
    expect(job?.encoding).toBe('shift_jis');
    expect(job!.chunks).toBeGreaterThan(file.length / (2 * CHUNK));

    const seen = await follow(b, r.body.jobId);
    const last = seen.at(-1);
    expect(last).toMatchObject({ status: 'success', count: 400, processed_rows: 400, total_rows: 400, error: null });
    // Progress moved through values between none and all, never backwards.
    const processed = seen.map((s) => s.processed_rows as number);
    expect(processed.some((p) => p > 0 && p < 400)).toBe(true);
    expect(processed).toEqual([...processed].sort((x, y) => x - y));

    expect((await b.get(`${API}/admin/users?search=sj`)).body.total).toBe(400);
    const one = async (email: string) => (await b.get(`${API}/admin/users?search=${encodeURIComponent(email)}`)).body.data[0];
    expect(await one('sj0@acme.test')).toMatchObject({ name: '髙橋 社員0', department: { name: '営業部' }, additionalDepartments: [{ name: '開発部' }] });
    expect(await one('sj1@acme.test')).toMatchObject({ name: '﨑山 社員1', additionalDepartments: [] });
    // Every name came through intact.
    const names = await h.deps.db.all<{ name: string }>(sql`SELECT name FROM users WHERE email LIKE 'sj%@acme.test' ORDER BY id`);
    expect(names.map((n) => n.name)).toEqual(rows(400, 'sj').map((l) => l.split(',')[0]));
    // Invitations queued, the import logged and audited, the staging gone.
    expect((await h.deps.db.select().from(mailQueue)).length).toBe(400);
    expect((await b.get(`${API}/admin/users/import/update/logs`)).body[0]).toMatchObject({ filename: '社員.csv', status: 'success', number_of_users_updated: 400 });
    const audits = await h.deps.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM activity_logs WHERE action = 'user.created'`);
    expect(Number(audits[0]!.n)).toBe(400);
    await vi.waitFor(async () => {
      expect(await h.deps.db.select().from(importRows)).toEqual([]);
      expect(await h.deps.db.select().from(importChunks)).toEqual([]);
    });
  });

  it('a cell with a line break across a piece boundary stays one cell; UTF-8 with BOM', async () => {
    await start();
    const b = await signIn();
    const enc = new TextEncoder();
    const cell = `"改行\r\nあり",wrap@acme.test,,,1,0,0`;
    // As many filler rows as put the line break inside the quoted cell just before 2 KiB (the
    // first piece ends at the last newline before twice the piece size) and the record's end after.
    let k = 0;
    const prefix = (n: number) => enc.encode(`\uFEFF${header}\r\n${rows(n, 'pad').map((l) => `${l}\r\n`).join('')}`).length;
    while (prefix(k + 1) + enc.encode('"改行\r\n').length <= 2 * CHUNK) k++;
    expect(prefix(k) + enc.encode(`${cell}\r\n`).length).toBeGreaterThan(2 * CHUNK);
    const lines = [...rows(k, 'pad'), cell, ...rows(40, 'tail')];
    const file = enc.encode(`\uFEFF${header}\r\n${lines.join('\r\n')}\r\n`);
    // Hold the job (a queue that keeps the message) to look at its first piece.
    h.deps.jobs = { send: async () => undefined };
    const r = await post(b, '/admin/users/import', file, { cuts: [5000] });
    delete h.deps.jobs;
    const first = await h.deps.db.select().from(importChunks).where(and(eq(importChunks.jobId, r.body.jobId), eq(importChunks.seq, 0))).get();
    const firstText = new TextDecoder().decode(Uint8Array.from(first!.data, (ch) => ch.charCodeAt(0)));
    expect(firstText.endsWith('"改行\r\n')).toBe(true);
    expect(await runImportJob(h.deps, r.body.jobId)).toBe('success');
    expect((await b.get(`${API}/admin/users/import/${r.body.jobId}`)).body).toMatchObject({ status: 'success', count: k + 41 });
    expect((await h.deps.db.select().from(users).where(eq(users.email, 'wrap@acme.test')).get())?.name).toBe('改行\r\nあり');
  });

  it('an invalid row late in the file leaves nothing imported and says which row', async () => {
    await start();
    const b = await signIn();
    const lines = rows(300, 'late');
    lines[290] = lines[290]!.replace('late290@acme.test', 'not-an-address');
    lines[295] = lines[295]!.replace('late295@acme.test', 'late3@acme.test'); // a duplicate of an early row
    const file = new Uint8Array(iconv.encode(`${header}\r\n${lines.join('\r\n')}\r\n`, 'cp932'));
    const r = await post(b, '/admin/users/import', file, { name: 'late.csv' });
    expect(r.status).toBe(202);
    const last = (await follow(b, r.body.jobId)).at(-1);
    expect(last).toMatchObject({
      status: 'failed',
      count: null,
      error: {
        status: 422,
        message: 'invalid-csv',
        rows: [
          { row: 292, column: 'email', error: 'emailInvalid' },
          { row: 297, column: 'email', error: 'duplicateInFile' },
        ],
      },
    });
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'late0@acme.test')).get()).toBeUndefined();
    expect((await b.get(`${API}/admin/users?search=late`)).body.total).toBe(0);
    expect(await h.deps.db.select().from(mailQueue)).toEqual([]);
    expect((await b.get(`${API}/admin/users/import/update/logs`)).body[0]).toMatchObject({ filename: 'late.csv', status: 'failed' });
    await vi.waitFor(async () => expect(await h.deps.db.select().from(importRows)).toEqual([]));
  });

  it('the same import answered within the request when the file is small (the spec answer)', async () => {
    await start({ IMPORT_INLINE_BYTES: String(1024 * 1024) });
    const b = await signIn();
    const file = new Uint8Array(iconv.encode(`${header}\r\n${rows(120, 'inA-').join('\r\n')}\r\n`, 'cp932'));
    expect(await post(b, '/admin/users/import', file)).toEqual({ status: 200, body: { message: 'success', count: 120 } });
    const bad = new Uint8Array(iconv.encode(`${header}\r\n${rows(120, 'inB-').join('\r\n')}\r\nx,inB-0@acme.test,,,1,0,0\r\n`, 'cp932'));
    expect(await post(b, '/admin/users/import', bad)).toEqual({ status: 422, body: { message: 'invalid-csv', rows: [{ row: 122, column: 'email', error: 'duplicateInFile', value: 'inb-0@acme.test' }] } });
  });

  it('only the admin who started a job reads it, on its own tenant; others get 404', async () => {
    await start();
    const b = await signIn();
    const r = await post(b, '/admin/users/import', new TextEncoder().encode(`${header}\r\n${rows(5, 'own').join('\r\n')}\r\n`));
    expect((await follow(b, r.body.jobId)).at(-1).status).toBe('success');
    const initech = await signIn('admin@initech.test', 'initech.localhost:8787');
    expect(await initech.get(`${API}/admin/users/import/${r.body.jobId}`)).toMatchObject({ status: 404, body: { message: 'not-found' } });
    // A tenant manager on Acme's host is allowed the people calls, but the job is not theirs.
    const manager = await signIn('manager@staff.test');
    expect((await manager.get(`${API}/admin/users/import/${r.body.jobId}`)).status).toBe(404);
    expect((await (await signIn('user@acme.test')).get(`${API}/admin/users/import/${r.body.jobId}`)).status).toBe(403);
    expect((await b.get(`${API}/admin/users/import/999999`)).status).toBe(404);
    expect((await b.get(`${API}/admin/users/import/0x1`)).status).toBe(404);
  });

  it('two imports running side by side in one tenant never exceed its seats', async () => {
    await start();
    const b = await signIn();
    const used = (await seatsUsed(await scopeOf(h.deps.db, 1))).meishi;
    await h.deps.db.update(tenantApps).set({ seats: used + 40 }).where(and(eq(tenantApps.tenantId, 1), eq(tenantApps.app, 'meishi')));
    const one = new TextEncoder().encode(`${header}\r\n${rows(30, 'p1-').join('\r\n')}\r\n`);
    const two = new TextEncoder().encode(`${header}\r\n${rows(30, 'p2-').join('\r\n')}\r\n`);
    const [a, c] = await Promise.all([post(b, '/admin/users/import', one), post(b, '/admin/users/import', two)]);
    const outcomes = await Promise.all([follow(b, a.body.jobId), follow(b, c.body.jobId)]);
    const ends = outcomes.map((o) => o.at(-1));
    expect(ends.map((e) => e.status).sort()).toEqual(['failed', 'success']);
    expect(ends.find((e) => e.status === 'failed').error).toEqual({ status: 422, message: 'quota_finished', app: 'meishi' });
    expect((await seatsUsed(await scopeOf(h.deps.db, 1))).meishi).toBe(used + 30);
  });

  it('edit by import runs as a job too; the last admin stays protected', async () => {
    await start();
    const b = await signIn();
    const file = new TextEncoder().encode(`${header}\r\n山田 花子,user@acme.test,開発部,営業部,1,1,0\r\n`);
    const r = await post(b, '/admin/users/import/update', file);
    expect((await follow(b, r.body.jobId)).at(-1)).toMatchObject({ kind: 'update', status: 'success', count: 1 });
    expect((await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.id, 2)).get())).toMatchObject({ departmentId: 2, displayName: '山田 花子' });
    const demote = await post(b, '/admin/users/import/update', new TextEncoder().encode(`${header}\r\nAcme 管理者,admin@acme.test,,,1,0,0\r\n`));
    expect((await follow(b, demote.body.jobId)).at(-1).error).toEqual({ status: 422, message: 'invalid-csv', rows: [{ row: 2, column: 'is_admin', error: 'lastAdmin' }] });
    expect((await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.id, 1)).get())?.isAdmin).toBe(true);
  });

  it('a job whose runner went away is finished by the people sweep once its lease has expired', async () => {
    await start();
    const b = await signIn();
    // A queue that loses its message: the job is stored and queued, and nobody runs it.
    const sent: unknown[] = [];
    h.deps.jobs = { send: async (m) => void sent.push(m) };
    const r = await post(b, '/admin/users/import', new TextEncoder().encode(`${header}\r\n${rows(50, 'sw').join('\r\n')}\r\n`));
    expect(sent).toEqual([{ kind: 'import', jobId: r.body.jobId }]);
    expect((await b.get(`${API}/admin/users/import/${r.body.jobId}`)).body).toMatchObject({ status: 'queued', processed_rows: 0, total_rows: 50 });
    // Someone holds its lease (a runner that then died): the sweep leaves it alone until it expires.
    await h.deps.db.update(importJobs).set({ lockedUntil: h.clock.now() + 60_000 }).where(eq(importJobs.id, r.body.jobId));
    delete h.deps.jobs;
    await runPeopleSweep(h.deps);
    expect((await b.get(`${API}/admin/users/import/${r.body.jobId}`)).body.status).toBe('queued');
    h.clock.advance(61_000);
    await runPeopleSweep(h.deps);
    expect((await b.get(`${API}/admin/users/import/${r.body.jobId}`)).body).toMatchObject({ status: 'success', count: 50 });
    expect((await b.get(`${API}/admin/users?search=sw`)).body.total).toBe(50);
  });

  it('an upload that stopped half way is failed by the sweep and its pieces removed', async () => {
    await start();
    const b = await signIn();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const boundary = 'xyzzy';
        controller.enqueue(new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="csvFile"; filename="cut.csv"\r\nContent-Type: text/csv\r\n\r\n${header}\r\n${rows(100, 'cut').join('\r\n')}\r\n`));
        controller.close(); // no closing boundary: the browser went away
      },
    });
    const res = await h.app.request(`${b.origin}${API}/admin/users/import`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': 'multipart/form-data; boundary=xyzzy', cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-requested-with': 'XMLHttpRequest', origin: b.origin },
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'upload-failed' });
    const job = await h.deps.db.select().from(importJobs).get();
    expect(job).toMatchObject({ status: 'failed', errorCode: 'upload-failed' });
    expect((await h.deps.db.select().from(importLogs).where(eq(importLogs.id, job!.importLogId!)).get())?.status).toBe('failed');
    await runPeopleSweep(h.deps);
    expect(await h.deps.db.select().from(importChunks)).toEqual([]);
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'cut0@acme.test')).get()).toBeUndefined();
  });

  it('a tenant runs at most three imports at once; the next is refused until one ends', async () => {
    await start();
    const b = await signIn();
    h.deps.jobs = { send: async () => undefined }; // nobody runs them
    const file = (p: string) => new TextEncoder().encode(`${header}\r\n${rows(3, p).join('\r\n')}\r\n`);
    const ids: number[] = [];
    for (const p of ['q1-', 'q2-', 'q3-']) {
      const r = await post(b, '/admin/users/import', file(p));
      expect(r.status).toBe(202);
      ids.push(r.body.jobId);
    }
    expect(await post(b, '/admin/users/import', file('q4-'))).toEqual({ status: 409, body: { message: 'imports-in-progress' } });
    // Another tenant is not affected.
    const initech = await signIn('admin@initech.test', 'initech.localhost:8787');
    expect((await post(initech, '/admin/users/import', file('i1-'))).status).toBe(202);
    delete h.deps.jobs;
    expect(await runImportJob(h.deps, ids[0]!)).toBe('success');
    expect((await post(b, '/admin/users/import', file('q4-'))).status).toBe(202);
  });
});
