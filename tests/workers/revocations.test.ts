// Issue 21 root 2 on Workers, decision 0035: with D1 read replicas, a signed-in GET following
// its browser's bookmark could be answered by a replica that has not seen a revocation yet. Every
// request that brings a session starts its D1 session at the primary (reported in dev mode as
// X-D1-Session-Start), so the revocations that matter hold on the very next request: logout of
// the other devices, deactivation, the IP allowlist switched on and a password change.
// Signed-out reads still go to any replica (they decide nothing).
import { describe, expect, inject, it } from 'vitest';
import { Browser, type HostClient } from './support/client';

const port = inject('workerPort');
const HOST = 'revokew.localhost';
const PW = 'Portal-Demo-2026!';
const ADMIN_IP = '93.184.216.34';
const OTHER_IP = '93.184.216.99';

async function signedIn(email: string): Promise<HostClient> {
  const b = new Browser(port).on(HOST);
  const r = await b.post('/accounts/api/v2/login', { email, password: PW, remember: false }, { headers: { 'cf-connecting-ip': OTHER_IP } });
  expect(r.body.message, email).toBe('success');
  // The browser now carries the bookmark of its own write (the session).
  expect(b.cookies.get('portal_d1_bookmark')).toBeTruthy();
  return b;
}

const me = (b: HostClient, ip = OTHER_IP) => b.get('/accounts/api/user', { headers: { 'cf-connecting-ip': ip } });

describe('revocations hold on the next request', () => {
  it('signed-in requests start at the primary; signed-out reads follow the bookmark or any replica', async () => {
    const b = await signedIn('rev-a@revokew.test');
    const r = await me(b);
    expect(r.status).toBe(200);
    expect(r.headers.get('x-d1-session-start')).toBe('first-primary');
    const out = await new Browser(port).on(HOST).get('/accounts/login');
    expect(out.headers.get('x-d1-session-start')).toBe('first-unconstrained');
  });

  it('log out all other devices: the other browser is signed out at once, whatever bookmark it carries', async () => {
    const one = await signedIn('rev-a@revokew.test');
    const two = await signedIn('rev-a@revokew.test');
    expect((await me(two)).status).toBe(200);
    expect((await one.post('/accounts/api/session-devices/logout-others', {}, { headers: { 'cf-connecting-ip': OTHER_IP } })).status).toBe(200);
    const after = await me(two);
    expect(after.status).toBe(401);
    expect(after.headers.get('x-d1-session-start')).toBe('first-primary');
  });

  it('deactivation ends the member\'s access at the next request', async () => {
    const member = await signedIn('rev-b@revokew.test');
    const admin = await signedIn('rev-admin@revokew.test');
    const list = await admin.get('/accounts/api/admin/users?search=rev-b');
    const id = (list.body.data as { id: number; email: string }[]).find((u) => u.email === 'rev-b@revokew.test')!.id;
    expect((await admin.post(`/accounts/api/admin/users/${id}/deactivate`, {})).status).toBe(200);
    expect((await me(member)).status).toBe(401);
    expect((await admin.post(`/accounts/api/admin/users/${id}/reactivate`, {})).status).toBe(200);
  });

  it('a password change signs the other browsers out at once', async () => {
    const one = await signedIn('rev-c@revokew.test');
    const two = await signedIn('rev-c@revokew.test');
    const next = 'Quiet-Harbor-Lantern-88';
    const changed = await one.request('PATCH', '/accounts/api/password', { json: { current_password: PW, new_password: next, new_password_confirmation: next } });
    expect(changed.status).toBe(200);
    expect((await me(two)).status).toBe(401);
    expect((await me(one)).status).toBe(200);
  });

  it('the IP allowlist switched on refuses a signed-in member outside it at the next request', async () => {
    const member = await signedIn('rev-a@revokew.test');
    expect((await me(member, OTHER_IP)).status).toBe(200);
    const admin = new Browser(port).on(HOST);
    const ip = { headers: { 'cf-connecting-ip': ADMIN_IP } };
    expect((await admin.post('/accounts/api/v2/login', { email: 'rev-admin@revokew.test', password: PW, remember: false }, ip)).body.message).toBe('success');
    expect((await admin.post('/accounts/api/admin/whitelisted-ips', { ipAddress: ADMIN_IP, prefixLength: 32 }, ip)).status).toBe(201);
    // The member signed in from outside the list: the lock-out preview's count is confirmed (decision 0043).
    const asked = await admin.request('PATCH', '/accounts/api/admin/enable-ip-restriction', ip);
    // (Other files' members of this tenant signed in from elsewhere too: the count is at least this one.)
    expect(asked.body.message).toBe('lockout-confirmation-required');
    expect(asked.body.affected).toBeGreaterThanOrEqual(1);
    expect((await admin.request('PATCH', `/accounts/api/admin/enable-ip-restriction?confirmAffected=${asked.body.affected}`, ip)).status).toBe(200);
    try {
      const refused = await me(member, OTHER_IP);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('restricted-ip');
    } finally {
      expect((await admin.request('PATCH', '/accounts/api/admin/disable-ip-restriction', ip)).status).toBe(200);
    }
  });
});
