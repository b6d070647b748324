// Issue 13 on Workers: a signed-in GET is one D1 round trip (host, session, user, memberships
// in one statement), through a D1 session (Sessions API) whose bookmark the browser carries back.
// wrangler dev runs in dev mode here, where the worker reports its round trips in a header.
import { describe, expect, inject, it } from 'vitest';
import { Browser } from './support/client';

const port = inject('workerPort');

describe('D1 round trips per request', () => {
  it('GET api/user signed in: one round trip; signed out: at most one (the host, then cached)', async () => {
    const acme = new Browser(port).on('acme.localhost');
    const out = await acme.get('/accounts/api/user');
    expect(out.status).toBe(401);
    expect(Number(out.headers.get('x-d1-round-trips'))).toBeLessThanOrEqual(1);
    expect((await acme.login('user@acme.test', 'Portal-Demo-2026!')).body.message).toBe('success');
    for (let i = 0; i < 3; i++) {
      const r = await acme.get('/accounts/api/user');
      expect(r.status).toBe(200);
      expect(r.body.user.email).toBe('user@acme.test');
      expect(r.headers.get('x-d1-round-trips')).toBe('1');
    }
    // The main domain, signed in there: one too.
    const main = new Browser(port).on('localhost');
    expect((await main.login('admin@acme.test', 'Portal-Demo-2026!')).body.message).toBe('success');
    const r = await main.get('/accounts/api/user');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-d1-round-trips')).toBe('1');
  });

  it('a password login: the host, then the account, its memberships, what it knows of this browser and the limits in one batch, then the session with its audit entry, device and the limits cleared in one more', async () => {
    const acme = new Browser(port).on('acme.localhost');
    const login = await acme.login('user@acme.test', 'Portal-Demo-2026!');
    expect(login.body.message).toBe('success');
    expect(login.body.user.tenants.map((t: { name: string }) => t.name)).toEqual(['Acme Corporation']);
    expect(login.headers.get('x-d1-round-trips')).toBe('3');
    // Again from the same browser (now a known device), and a wrong password: three as well.
    expect((await acme.post('/accounts/api/logout', {})).status).toBe(200);
    const again = await acme.login('user@acme.test', 'Portal-Demo-2026!');
    expect(again.headers.get('x-d1-round-trips')).toBe('3');
    const wrong = await new Browser(port).on('acme.localhost').login('user@acme.test', 'not-the-password');
    expect(wrong.body.message).toBe('invalid-credentials');
    expect(wrong.headers.get('x-d1-round-trips')).toBe('3');
  });

  it('the memberships read in the login batch keep each joined column in its place (D1 answers a batch by column name)', async () => {
    const main = new Browser(port).on('localhost');
    const login = await main.login('multi@example.test', 'Portal-Demo-2026!');
    expect(login.body.message).toBe('success');
    const tenants = login.body.user.tenants as { name: string; subdomain: string | null; initial_subdomain: string; apps: string[] }[];
    expect(tenants.map((t) => [t.name, t.subdomain, t.initial_subdomain])).toEqual([
      ['Acme Corporation', null, 'acme'],
      ['Globex 株式会社', 'globex-jp', 'globex'],
    ]);
    expect(tenants.every((t) => t.apps.includes('meishi'))).toBe(true);
    // The main domain has no tenant to read: two.
    expect(login.headers.get('x-d1-round-trips')).toBe('2');
  });

  it('the host cache outlives each request\'s D1 session: a host read once is not read again', async () => {
    const label = `nobody-${Date.now()}.localhost`;
    const first = await new Browser(port).on(label).get('/accounts/api/user');
    expect(first.status).toBe(404);
    expect(first.headers.get('x-d1-round-trips')).toBe('1');
    const again = await new Browser(port).on(label).get('/accounts/api/user');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'unknown-host' });
    expect(again.headers.get('x-d1-round-trips')).toBe('0');
  });

  it('a write hands the browser a D1 bookmark, which later requests carry back', async () => {
    const acme = new Browser(port).on('acme.localhost');
    const login = await acme.login('admin@acme.test', 'Portal-Demo-2026!');
    expect(login.body.message).toBe('success');
    const bookmark = login.headers.getSetCookie().find((c) => c.startsWith('portal_d1_bookmark='));
    expect(bookmark).toMatch(/HttpOnly/i);
    expect(acme.browser.jar('acme.localhost').get('portal_d1_bookmark')).toBeTruthy();
    // D1's shape, so the worker follows it rather than starting unconstrained.
    expect(acme.browser.jar('acme.localhost').get('portal_d1_bookmark')).toMatch(/^[0-9a-f]{1,40}(-[0-9a-f]{1,40}){0,8}$/i);
    // The next read sees the write (the new session) through its own D1 session.
    const r = await acme.get('/accounts/api/user');
    expect(r.status).toBe(200);
    expect(r.body.user.email).toBe('admin@acme.test');
    // A bookmark is the browser's to send: a made-up one changes nothing.
    acme.browser.jar('acme.localhost').set('portal_d1_bookmark', 'not-a-bookmark!');
    const forged = await acme.get('/accounts/api/user');
    expect(forged.status).toBe(200);
    expect(forged.body.user.email).toBe('admin@acme.test');
  });
});
