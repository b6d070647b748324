// Issue 23 on Workers: every screen of the route table, and every API read a screen makes, takes
// at most two D1 round trips (the request's principal, then the screen's data in one batch), a
// password login at most three (round-trips.test.ts). Each D1 round trip is a network hop in production; wrangler dev
// reports them in dev mode (`X-D1-Round-Trips`). Each figure is the second of two identical
// requests, so a host read once for the host cache is not counted again.
import { describe, expect, inject, it } from 'vitest';
import { ROUTES } from '../../src/shared/routes';
import { Browser, type HostClient } from './support/client';

const port = inject('workerPort');
const base = '/accounts';

async function trips(client: HostClient, path: string, expected: number[] = [200]) {
  await client.get(path);
  const r = await client.get(path);
  expect(expected, `${path}: ${r.status} ${r.text.slice(0, 160)}`).toContain(r.status);
  return Number(r.headers.get('x-d1-round-trips'));
}

// A path for each route of the table (parameters filled with the demo data's values).
const PATHS: Record<string, string> = {
  register: '/register/nobody%40acme.test',
  verify: '/verify/nobody%40acme.test',
};

describe('D1 round trips of every screen', () => {
  it('every screen of the route table: at most 2, signed in as an Acme admin or signed out', async () => {
    const admin = new Browser(port).on('acme.localhost');
    expect((await admin.login('admin@acme.test')).body.message).toBe('success');
    const anonymous = new Browser(port).on('acme.localhost');
    const seen: Record<string, number> = {};
    for (const route of ROUTES) {
      const path = `${base}${PATHS[route.name] ?? route.paths[0]!}`;
      const signedIn = route.access !== 'public' || route.openWhenAuthenticated;
      // Public pages signed out (a signed-in visit redirects); the rest signed in. Pages that need
      // a pending step answer with their own message, or send the browser on: what a visit costs.
      seen[route.name] = await trips(signedIn && route.access !== 'public' ? admin : anonymous, path, [200, 302, 303, 403, 404]);
    }
    // The users screen with its add-user dialog rendered open (decision 0047): the same reads.
    seen['admin-user-management?dialog=add-user'] = await trips(admin, `${base}/admin/users?dialog=add-user`);
    expect((await admin.get(`${base}/admin/users?dialog=add-user`)).text).toMatch(/<dialog open=""[^>]*data-testid="user-dialog"/);
    // Every screen listed, and each within its count.
    const over = Object.entries(seen).filter(([, n]) => n > 2);
    expect(over, JSON.stringify(seen)).toEqual([]);
  });

  it('a page reports its render time in dev mode (Server-Timing), as the bench reads it on Workers', async () => {
    const admin = new Browser(port).on('acme.localhost');
    expect((await admin.login('admin@acme.test')).body.message).toBe('success');
    const page = await admin.get(`${base}/admin/users`);
    expect(page.status).toBe(200);
    expect(page.headers.get('server-timing')).toMatch(/^render;dur=\d+\.\d{3}$/);
    expect((await admin.get(`${base}/api/user`)).headers.get('server-timing')).toBeNull();
  });

  it('the API reads the screens make: at most 2 each', async () => {
    const admin = new Browser(port).on('acme.localhost');
    expect((await admin.login('admin@acme.test')).body.message).toBe('success');
    const seen: Record<string, number> = {};
    for (const path of [
      '/api/user',
      '/api/session-devices',
      '/api/invitations',
      '/api/admin/users',
      '/api/admin/deactivated-users',
      '/api/admin/departments',
      '/api/departments-with-users',
      '/api/admin/apps/allowed',
      '/api/admin/whitelisted-ips',
      '/api/admin/password-policy',
      '/api/admin/tenant-contacts',
      '/api/admin/contract-details',
      '/api/admin/saml',
      '/api/admin/users/import',
      '/api/admin/scim',
    ]) {
      seen[path] = await trips(admin, `${base}${path}`, [200, 403]);
    }
    const over = Object.entries(seen).filter(([, n]) => n > 2);
    expect(over, JSON.stringify(seen)).toEqual([]);
  });
});
