// The operator API and the scheduled handler in workerd with a local D1 (issue 8): the token was
// written by the CLI through `wrangler d1 execute` (global setup); tenant creation's batch with
// sub-selects runs on D1; the invitation leaves through worker-mailer to the SMTP receiver.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { rawRequest } from './support/client';

const port = inject('workerPort');
const token = inject('operatorToken');
const host = `localhost:${port}`;

function call(method: string, path: string, body?: unknown, bearer: string | null = token) {
  return rawRequest(port, {
    method,
    path: `/accounts/api/operator${path}`,
    host,
    headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('operator API in workerd', () => {
  it('refuses a call without a token and with a wrong one', async () => {
    expect((await call('GET', '/tenants', undefined, null)).body).toEqual({ message: 'unauthenticated' });
    expect((await call('GET', '/tenants', undefined, `pop_${'Q'.repeat(43)}`)).body).toEqual({ message: 'invalid-token' });
  });

  it('creates a tenant whose first admin is invited by mail, and reads it back', async () => {
    const r = await call('POST', '/tenants', {
      name: 'Workerd 株式会社',
      subdomain: 'workerd-co',
      apps: [{ app: 'meishi', seats: 3 }],
      admin: { email: 'first@workerd.test', name: 'First Admin' },
    });
    expect(r.status).toBe(201);
    expect(r.body.admin).toMatchObject({ email: 'first@workerd.test', invitation: 'sent' });
    expect(r.body.tenant).toMatchObject({ initialSubdomain: 'workerd-co', apps: [{ app: 'meishi', seats: 3, used: 1 }], members: { active: 1, admins: 1 } });
    const got = await call('GET', `/tenants/${r.body.tenant.id}`);
    expect(got.body.name).toBe('Workerd 株式会社');
    const dir = inject('mailDir');
    const mail = readdirSync(dir).find((f) => f.endsWith('first@workerd.test.eml'));
    expect(mail).toBeDefined();
    expect(readFileSync(join(dir, mail!), 'utf8')).toMatch(/workerd-co\.localhost/);
    // The new host answers at once.
    expect((await rawRequest(port, { method: 'GET', path: '/accounts/api/saml2/check', host: `workerd-co.localhost:${port}` })).status).toBe(200);
  });
});

describe('operator token lifetimes on D1 (written by the CLI through wrangler)', () => {
  it('the rotated token is refused like an unknown one; its successor has the same name and scopes', async () => {
    const retired = await call('GET', '/whoami', undefined, inject('retiredOperatorToken'));
    expect(retired.status).toBe(401);
    expect(retired.body).toEqual({ message: 'invalid-token' });
    const me = await call('GET', '/whoami');
    expect(me.body).toMatchObject({ name: 'workers', scopes: expect.arrayContaining(['tenants:write', 'requests:read']) });
  });

  it('token list reads D1: the successor active with an expiry 90 days out, the first one ended by the rotation', () => {
    const out = inject('operatorTokenList');
    const { tokens } = JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1));
    expect(tokens).toHaveLength(2);
    const [successor, first] = tokens;
    expect(successor).toMatchObject({ name: 'workers', state: 'active', replacesId: first.id, replacedById: null });
    expect(successor.expiresAt - successor.createdAt).toBe(90 * 86_400_000);
    expect(first).toMatchObject({ name: 'workers', state: 'rotated', replacedById: successor.id });
    expect(first.endsAt).toBeLessThanOrEqual(successor.createdAt);
  });

  it('one address: a tool with a broken token is locked out after 20 failures, even in parallel, and a good token keeps working', async () => {
    const ip = { 'cf-connecting-ip': '192.0.2.70' };
    const broken = `pop_${'K'.repeat(43)}`;
    // More than the per-address cap (100): only the 20 its own limit let through count there.
    // In waves of 26 at once: 130 sockets at a time kept wrangler dev on a loaded 2-core machine
    // past the client's timeout, and each wave still races the limit. A connection wrangler dev
    // leaves unanswered (seen once in a full run, never alone) is asked again: every answer is
    // a 401 or a 429 whatever the count, so the bounds below hold for any number of attempts.
    const attempt = async () => {
      const ask = () => rawRequest(port, { method: 'GET', path: '/accounts/api/operator/whoami', host, headers: { authorization: `Bearer ${broken}`, ...ip } }, 15_000);
      return ask().catch((e: Error) => (/no answer within/.test(e.message) ? ask() : Promise.reject(e)));
    };
    const rs = [];
    for (let wave = 0; wave < 5; wave++) rs.push(...(await Promise.all(Array.from({ length: 26 }, attempt))));
    expect(rs.filter((r) => r.status === 401).length).toBeLessThanOrEqual(20);
    expect(rs.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(110);
    for (let i = 0; i < 3; i++) {
      expect((await rawRequest(port, { method: 'GET', path: '/accounts/api/operator/whoami', host, headers: { authorization: `Bearer ${token}`, ...ip } })).status).toBe(200);
    }
  }, 150_000);
});

describe('scheduled handler', () => {
  it('runs the scheduled jobs when the cron trigger fires, and the app keeps answering', async () => {
    const r = await rawRequest(port, { method: 'GET', path: '/__scheduled?cron=17+*+*+*+*', host });
    expect(r.status).toBe(200);
    expect((await rawRequest(port, { method: 'GET', path: '/readyz', host })).body).toMatchObject({ status: 'ok', database: 'ok' });
  });
});
