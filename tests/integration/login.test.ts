import bcrypt from 'bcryptjs';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activityLogs, knownDevices, loginChallenges, sessions, tenants, tenantUsers, users, whitelistedIps } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const countSessions = async () => (await h.deps.db.select().from(sessions)).length;

describe('POST /accounts/api/v2/login', () => {
  it('signs in an Acme admin on acme.localhost and sets a host-only session cookie', async () => {
    const b = h.client(ACME);
    const r = await b.login('admin@acme.test');
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('success');
    expect(r.body.user.email).toBe('admin@acme.test');
    expect(r.body.user.isAdmin).toBe(true);
    expect(r.body.initial_subdomain).toBe('acme');
    expect(r.body.password_compliance).toMatchObject({ meets_current_policy: true, policy: { minimum_password_length: 8 } });
    expect(r.body.password_compliance.score).toBeGreaterThanOrEqual(2);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('portal_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(cookie).not.toMatch(/Expires=/i); // not "keep me logged in": a browser-session cookie
    const me = await b.get('/accounts/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user.name).toBe('Acme 管理者');
    expect(me.body.user.current_tenant.initial_subdomain).toBe('acme');
  });

  it('keep me logged in makes the cookie persistent; under https it is __Host- and Secure', async () => {
    const b = h.client(ACME, { https: true });
    const r = await b.login('user@acme.test', 'Portal-Demo-2026!', true);
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('__Host-portal_session='))!;
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Expires=/);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
  });

  it('records the device, browser, address and location of the session', async () => {
    await h.client(ACME).login('user@acme.test');
    const [s] = await h.deps.db.select().from(sessions);
    expect(s).toMatchObject({ device: 'desktop', os: 'Linux', browser: 'Chrome 156', ipAddress: '203.0.113.10', countryCode: 'JP', city: 'Tokyo', tenantId: 1 });
    expect(s!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers invalid-credentials for a wrong password and for an unknown email alike, writing no session', async () => {
    const b = h.client(ACME);
    const wrong = await b.login('admin@acme.test', 'nope');
    const unknown = await b.login('nobody@acme.test', 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'invalid-credentials' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'invalid-credentials' });
    expect(await countSessions()).toBe(0);
    const log = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'login.failed'));
    expect(log).toHaveLength(2);
  });

  it('spends one password hash on unknown emails and on users without a password, as on known ones', async () => {
    const verify = vi.spyOn(h.deps.passwords, 'verify');
    await h.client(ACME).login('nobody@acme.test', 'x');
    await h.deps.db.update(users).set({ passwordHash: null }).where(eq(users.id, 2));
    await h.client(ACME).login('user@acme.test', 'x');
    await h.client(ACME).login('admin@acme.test', 'x');
    expect(verify).toHaveBeenCalledTimes(3);
    for (const [, stored] of verify.mock.calls) expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    verify.mockRestore(); // the hasher is shared by the files of a worker (vitest.config.ts)
  });

  it('matches the email case-insensitively', async () => {
    expect((await h.client(ACME).login('ADMIN@Acme.Test')).status).toBe(200);
  });

  it('refuses a deactivated member with "deactivated"', async () => {
    const r = await h.client(ACME).login('gone@acme.test');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('deactivated');
    expect(await countSessions()).toBe(0);
  });

  it('refuses a member of another tenant with "not-a-member"', async () => {
    const r = await h.client('initech.localhost:8787').login('user@acme.test');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('not-a-member');
  });

  it('lets a tenant manager sign in on any tenant host', async () => {
    const b = h.client('initech.localhost:8787');
    const r = await b.login('manager@staff.test');
    expect(r.status).toBe(200);
    expect(r.body.user.is_tenant_manager).toBe(true);
    expect((await b.get('/accounts/api/user')).body.user.current_tenant.name).toBe('Initech');
  });

  it('on the main domain signs in with no tenant and lists the memberships', async () => {
    const b = h.client('localhost:8787');
    const r = await b.login('multi@example.test');
    expect(r.status).toBe(200);
    expect(r.body.initial_subdomain).toBeNull();
    expect(r.body.user.tenants.map((t: { name: string }) => t.name).sort()).toEqual(['Acme Corporation', 'Globex 株式会社']);
    const [s] = await h.deps.db.select().from(sessions);
    expect(s!.tenantId).toBeNull();
  });

  it('reads the memberships once per login (with their apps, in one statement) and answers them', async () => {
    // Scheduler granted in both tenants; only Acme has it under contract.
    await h.deps.db.update(tenantUsers).set({ schedulerAccessGrantedAt: h.clock.now() }).where(eq(tenantUsers.userId, 3));
    const b = h.client('localhost:8787');
    h.queries.length = 0;
    const r = await b.login('multi@example.test');
    expect(r.status).toBe(200);
    expect(h.queries.filter((q) => /from "tenant_users" inner join "tenants"/.test(q))).toHaveLength(1);
    expect(h.queries.filter((q) => /from "tenant_apps"/.test(q) && !/json_group_array/.test(q))).toHaveLength(0);
    const apps = Object.fromEntries(r.body.user.tenants.map((t: { name: string; apps: string[] }) => [t.name, t.apps]));
    expect(apps).toEqual({ 'Acme Corporation': ['meishi', 'scheduler'], 'Globex 株式会社': ['meishi'] });
    // The browser is known from now on: recorded with the session.
    const devices = await h.deps.db.select().from(knownDevices);
    expect(devices.filter((d) => d.userId === r.body.user.id).length).toBeGreaterThan(0);
  });

  it('enforces the tenant IP allowlist when enabled: restricted-ip from elsewhere, success from a listed address', async () => {
    await h.deps.db.update(tenants).set({ isIpRestrictionEnabled: true }).where(eq(tenants.id, 1));
    await h.deps.db.insert(whitelistedIps).values({ tenantId: 1, ipAddress: '198.51.100.0', prefixLength: 24 });
    const outside = await h.client(ACME, { ip: '203.0.113.99' }).login('user@acme.test');
    expect(outside.status).toBe(403);
    expect(outside.body.message).toBe('restricted-ip');
    expect(await countSessions()).toBe(0);
    const inside = await h.client(ACME, { ip: '198.51.100.7' }).login('user@acme.test');
    expect(inside.status).toBe(200);
  });

  it('sends a user with two-factor on to the one-time-code step without a session', async () => {
    const b = h.client(ACME);
    const r = await b.login('totp@acme.test');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'enter-otp', initial_subdomain: 'acme' });
    expect(await countSessions()).toBe(0);
    expect(b.cookies.has('portal_login_challenge')).toBe(true);
    expect(b.cookies.has('portal_session')).toBe(false);
    const [c] = await h.deps.db.select().from(loginChallenges);
    expect(c).toMatchObject({ kind: 'otp', userId: 4 });
    expect((await b.get('/accounts/api/user')).status).toBe(401);
  });

  it('verifies a legacy bcrypt hash and re-hashes it with argon2id', async () => {
    await h.deps.db.update(users).set({ passwordHash: bcrypt.hashSync('Legacy-Pass-2019!', 4) }).where(eq(users.id, 2));
    expect((await h.client(ACME).login('user@acme.test', 'Legacy-Pass-2019!')).status).toBe(200);
    const u = await h.deps.db.select().from(users).where(eq(users.id, 2)).get();
    expect(u!.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await h.client(ACME).login('user@acme.test', 'Legacy-Pass-2019!')).status).toBe(200);
  });

  it('reports a password that no longer meets a stricter policy', async () => {
    await h.deps.db.update(tenants).set({ minimumPasswordLength: 20 }).where(eq(tenants.id, 1));
    const r = await h.client(ACME).login('user@acme.test');
    expect(r.body.password_compliance.meets_current_policy).toBe(false);
    expect(r.body.password_compliance.policy.minimum_password_length).toBe(20);
  });
});

describe('login throttling (database-held)', () => {
  it('after 5 failures for one email and address answers 429 too-many-attempts with a duration that runs down', async () => {
    const b = h.client(ACME);
    for (let i = 0; i < 5; i++) expect((await b.login('user@acme.test', 'wrong')).status).toBe(401);
    const locked = await b.login('user@acme.test', 'Portal-Demo-2026!');
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('too-many-attempts');
    expect(locked.body.duration).toBe(300);
    h.clock.advance(100_000);
    expect((await b.login('user@acme.test', 'Portal-Demo-2026!')).body.duration).toBe(200);
    // Another address is not locked by this one's failures.
    expect((await h.client(ACME, { ip: '198.51.100.1' }).login('user@acme.test')).status).toBe(200);
    h.clock.advance(200_000);
    expect((await b.login('user@acme.test', 'Portal-Demo-2026!')).status).toBe(200);
  });

  it('throttles unknown emails too (no account enumeration through the lock-out)', async () => {
    const b = h.client(ACME);
    for (let i = 0; i < 5; i++) await b.login('nobody@acme.test', 'x');
    expect((await b.login('nobody@acme.test', 'x')).status).toBe(429);
  });

  it('locks an account after 20 failures from many addresses', async () => {
    for (let i = 0; i < 20; i++) await h.client(ACME, { ip: `198.51.100.${i + 1}` }).login('user@acme.test', 'wrong');
    const r = await h.client(ACME, { ip: '192.0.2.200' }).login('user@acme.test');
    expect(r.status).toBe(429);
    expect(r.body.duration).toBeGreaterThan(0);
  });

  it('a success clears the failures of that email and address', async () => {
    const b = h.client(ACME);
    for (let i = 0; i < 4; i++) await b.login('user@acme.test', 'wrong');
    expect((await b.login('user@acme.test')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await b.login('user@acme.test', 'wrong')).status).toBe(401);
  });
});
