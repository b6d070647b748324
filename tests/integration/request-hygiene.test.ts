// CSRF rule, content types, body limits, malformed input and unknown hosts (DESIGN.md section 4).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const body = JSON.stringify({ email: 'admin@acme.test', password: 'Portal-Demo-2026!' });
const post = (headers: Record<string, string>, payload: string | undefined = body, host = ACME) =>
  h.app.request(`http://${host}/accounts/api/v2/login`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });

describe('CSRF rule for state-changing API calls', () => {
  it('refuses a call without X-Requested-With', async () => {
    const r = await post({ origin: `http://${ACME}` });
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ message: 'csrf-check-failed' });
  });

  it('refuses a missing Origin, another site, another tenant of the same domain, and another scheme', async () => {
    for (const origin of [undefined, 'https://evil.example', 'http://globex-jp.localhost:8787', `https://${ACME}`, 'null']) {
      const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
      if (origin) headers.origin = origin;
      expect((await post(headers)).status).toBe(403);
    }
    expect((await h.deps.db.select().from(sessions)).length).toBe(0);
  });

  it('accepts the same origin with the header', async () => {
    expect((await post({ origin: `http://${ACME}`, 'x-requested-with': 'XMLHttpRequest' })).status).toBe(200);
  });
});

describe('bad input gets a clear 4xx and writes nothing', () => {
  const ok = { origin: `http://${ACME}`, 'x-requested-with': 'XMLHttpRequest' };

  it('malformed JSON -> 400 malformed-json', async () => {
    const r = await post(ok, '{"email": ');
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ message: 'malformed-json' });
  });

  it('a form-encoded body -> 415', async () => {
    const r = await post({ ...ok, 'content-type': 'application/x-www-form-urlencoded' }, 'email=a&password=b');
    expect(r.status).toBe(415);
  });

  it('an oversized body -> 413 before any parsing', async () => {
    const big = JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(70_000) });
    const r = await post(ok, big);
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ message: 'payload-too-large' });
  });

  it('field validation -> 422 with the spec messages in the request language', async () => {
    const c = h.client(ACME);
    const ja = await c.post('/accounts/api/v2/login', { email: 'not-an-email', password: '' });
    expect(ja.status).toBe(422);
    expect(ja.body).toEqual({
      message: 'The given data was invalid.',
      errors: { email: ['有効なメールアドレスを入力してください'], password: ['必須項目です'] },
    });
    const en = await c.request('POST', '/accounts/api/v2/login', { json: { email: '', password: 'x' }, headers: { 'accept-language': 'en' } });
    expect(en.body.errors.email).toEqual(['Required']);
    const wrongTypes = await c.post('/accounts/api/v2/login', { email: 'a@b.test', password: 42, remember: 'yes' });
    expect(wrongTypes.status).toBe(422);
    expect(Object.keys(wrongTypes.body.errors).sort()).toEqual(['password', 'remember']);
    expect((await c.post('/accounts/api/v2/login', [1, 2])).status).toBe(422);
  });

  it('unknown hosts are a 404 for pages and API alike, never a fallback tenant', async () => {
    const api = await h.app.request('http://nope.localhost:8787/accounts/api/user');
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ message: 'unknown-host' });
    const page = await h.app.request('http://nope.localhost:8787/accounts/login');
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('このアドレスの組織は見つかりませんでした');
    expect((await h.app.request('http://evil.example/accounts/login')).status).toBe(404);
    expect((await h.app.request('http://a.b.localhost:8787/accounts/login')).status).toBe(404);
  });

  it('the health endpoint answers on any host, including a bare address', async () => {
    const r = await h.app.request('http://127.0.0.1:8787/healthz');
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok', version: 'v2.53.2' });
  });

  it('unknown API paths and methods answer JSON 404', async () => {
    const r = await h.client(ACME).get('/accounts/api/nope');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: 'not-found' });
  });
});
