import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

describe('POST /accounts/api/v2/login', () => {
  it('signs in an Acme admin on acme.localhost and sets a host-only session cookie', async () => {
    const b = h.client('acme.localhost:8787');
    const r = await b.login('admin@acme.test');
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('success');
    expect(r.body.user.email).toBe('admin@acme.test');
    expect(r.body.user.isAdmin).toBe(true);
    expect(r.body.initial_subdomain).toBe('acme');
    expect(r.body.password_compliance).toMatchObject({ meets_current_policy: true });
    expect(r.body.password_compliance.score).toBeGreaterThanOrEqual(2);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('portal_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/Domain=/i);
    const me = await b.get('/accounts/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user.name).toBe('Acme 管理者');
  });

  it('answers invalid-credentials for a wrong password and for an unknown email alike', async () => {
    const b = h.client('acme.localhost:8787');
    const wrong = await b.login('admin@acme.test', 'nope');
    const unknown = await b.login('nobody@acme.test', 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'invalid-credentials' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'invalid-credentials' });
  });

  it('refuses a deactivated member with "deactivated"', async () => {
    const r = await h.client('acme.localhost:8787').login('gone@acme.test');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('deactivated');
  });
});
