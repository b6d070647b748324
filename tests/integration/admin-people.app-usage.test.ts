// The app-usage port's HTTP adapter (docs/decisions/0013-app-usage-port.md) against a real HTTP
// server on loopback standing in for the card app and the scheduler.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpAppUsage } from '../../src/adapters/app-usage';
import { createHarness, type Harness } from '../support/harness';

interface Seen {
  method: string;
  url: string;
  auth?: string;
  email?: string;
}
let server: Server;
let base: string;
const seen: Seen[] = [];
let answer: (req: IncomingMessage) => { status: number; body: string } = () => ({ status: 200, body: '{"count":0}' });

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, email: req.headers['x-portal-user-email'] as string });
    const a = answer(req);
    res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

let h: Harness;
beforeEach(async () => {
  seen.length = 0;
  h = await createHarness();
  h.deps.appUsage = httpAppUsage({ urls: { meishi: `${base}/meishi/`, scheduler: `${base}/scheduler` }, token: 'app-token' });
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';

describe('app usage over HTTP', () => {
  it('asks the card app and the scheduler, with the bearer token, and answers their numbers', async () => {
    answer = (req) => ({ status: 200, body: JSON.stringify({ count: req.url!.includes('cards') ? 42 : 7 }) });
    const b = h.client(ACME);
    await b.login('admin@acme.test');
    expect((await b.get('/accounts/api/admin/users/2/cards-count')).body).toEqual({ data: 42 });
    expect((await b.get('/accounts/api/admin/users/2/schedules-count')).body).toEqual({ data: 7 });
    expect(seen).toEqual([
      { method: 'GET', url: '/meishi/portal-api/v1/tenants/acme/users/2/cards-count', auth: 'Bearer app-token', email: 'user@acme.test' },
      { method: 'GET', url: '/scheduler/portal-api/v1/tenants/acme/users/2/schedules-count', auth: 'Bearer app-token', email: 'user@acme.test' },
    ]);
  });

  it('an error status or a body without a count is app-usage-unavailable, never a guess', async () => {
    const b = h.client(ACME);
    await b.login('admin@acme.test');
    for (const a of [{ status: 500, body: '{}' }, { status: 200, body: '{"count":-1}' }, { status: 200, body: 'not json' }, { status: 200, body: '{"count":"3"}' }]) {
      answer = () => a;
      const r = await b.get('/accounts/api/admin/users/2/cards-count');
      expect(r.status, a.body).toBe(502);
      expect(r.body).toEqual({ message: 'app-usage-unavailable' });
    }
  });

  it('deletion tells each app the user held; a failing app keeps the job pending for a retry', async () => {
    const b = h.client(ACME);
    await b.login('admin@acme.test');
    answer = () => ({ status: 503, body: '{}' });
    // user@acme.test holds meishi only. The app fails: the member stays, marked deleting.
    expect((await b.request('DELETE', '/accounts/api/admin/users/2')).status).toBe(202);
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', url: '/meishi/portal-api/v1/tenants/acme/users/2' });
    const list = await b.get('/accounts/api/admin/users');
    expect(list.body.data.find((u: { id: number }) => u.id === 2).operationStatus).toBe('deleting');
    // The app answers 404 (never knew the user): that counts as done.
    answer = () => ({ status: 404, body: '{}' });
    h.clock.advance(31_000);
    const { resumeDeletionJobs } = await import('../../src/domain/people/deletion');
    expect(await resumeDeletionJobs(h.deps)).toBe(1);
    expect((await b.get('/accounts/api/admin/users')).body.data.find((u: { id: number }) => u.id === 2)).toBeUndefined();
  });
});
