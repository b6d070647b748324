// Lock-out previews (issue 26, decision 0043): each preview counts the people its change keeps
// out by the rule that enforces it (checked here against real sign-ins after the save), never
// counts another tenant's members, and the saves refuse a change that affects someone unless it
// carries the count confirmed, as it is now.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, passkeys, tenants, tenantUsers, users } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const ACME = 'acme.localhost:8787';
const GLOBEX = 'globex-jp.localhost:8787';
const API = '/accounts/api';
const ADMIN_IP = '133.242.10.20';
const OFFICE = '133.242.20.0';
// Seeded ids (src/db/seed.ts).
const U = { admin: 1, user: 2, multi: 3, totp: 4, gone: 5 };

async function admin(host = ACME, email = 'admin@acme.test', ip = ADMIN_IP): Promise<TestClient> {
  const b = h.client(host, { ip });
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

const emails = (body: { people: { email: string }[] }) => body.people.map((p) => p.email).sort();

/** A Globex-only member without 2FA, passkey or sign-ins: must never be counted for Acme. */
async function globexOnlyMember() {
  const [u] = await h.deps.db.insert(users).values({ name: 'Globex Only', email: 'only@globex.test', passwordHash: 'x', passwordTraits: 0, updatedAt: 0 }).returning();
  await h.deps.db.insert(tenantUsers).values({ tenantId: 2, userId: u!.id, updatedAt: 0 });
  return u!;
}

async function signInEntry(userId: number, tenantId: number, ip: string, action = 'login.succeeded', daysAgo = 1) {
  await h.deps.db.insert(activityLogs).values({ tenantId, actorUserId: userId, action, ipAddress: ip, createdAt: h.clock.now() - daysAgo * 86_400_000 });
}

describe('2FA enforcement without skip', () => {
  it('counts members without a second factor (a passkey counts), and the sign-in agrees with the preview', async () => {
    await globexOnlyMember();
    await h.deps.db.update(users).set({ passwordHash: null }).where(eq(users.id, U.multi));
    await h.deps.db.insert(passkeys).values({ id: 'pk1', userId: U.user, credentialId: 'cred1', publicKey: 'k', aaguid: '00000000-0000-0000-0000-000000000000', name: 'Key', createdAt: 0 });
    const b = await admin();
    const change = { kind: 'twofa', isTwofaEnforced: true, isTwofaSkipAllowed: false };
    const p = (await b.post(`${API}/admin/lockout-preview`, change)).body;
    // admin: nothing; multi: no password yet (enrols when registering); user has a passkey; totp has an app; gone is deactivated.
    expect(p).toMatchObject({ kind: 'twofa', affected: 2, members: 4, confirmationRequired: true, enrolAtSignIn: 1, enrolAtRegistration: 1 });
    expect(emails(p)).toEqual(['admin@acme.test', 'multi@example.test']);
    expect(p.people.find((x: { email: string }) => x.email === 'multi@example.test').reason).toBe('notRegistered');

    // With "allow skip" nobody is kept out, and no confirmation is asked for.
    expect((await b.post(`${API}/admin/lockout-preview`, { ...change, isTwofaSkipAllowed: true })).body).toMatchObject({ confirmationRequired: false });

    // The save needs the count.
    expect((await b.post(`${API}/admin/twofa`, { isTwofaEnforced: true, isTwofaSkipAllowed: false })).body).toEqual({ message: 'lockout-confirmation-required', affected: 2 });
    expect((await b.post(`${API}/admin/twofa`, { isTwofaEnforced: true, isTwofaSkipAllowed: false, confirmAffected: 1 })).status).toBe(409);
    expect((await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!.isTwofaEnforced).toBe(false);
    expect((await b.post(`${API}/admin/twofa`, { isTwofaEnforced: true, isTwofaSkipAllowed: false, confirmAffected: 2 })).body.message).toBe('success');
    const audited = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'tenant.twofa_policy_changed'));
    expect(audited).toHaveLength(1);

    // Agreement: the next password sign-in of each member asks for the setup exactly when counted.
    expect((await h.client(ACME, { otherBrowser: true }).login('totp@acme.test')).body.message).toBe('enter-otp');
    const user = await h.client(ACME, { otherBrowser: true }).login('user@acme.test');
    // The passkey holder signing in with a password still meets the setup (the passkey is the
    // way in that needs none); the preview counts people who have no way in without it.
    expect(['enable-twofa', 'enter-additional-challenge']).toContain(user.body.message);
    // The admin was counted: their next sign-in asks for the setup (a known browser skips the emailed code).
    expect((await h.client(ACME, { ip: ADMIN_IP }).login('admin@acme.test')).body.message).toBe('enable-twofa');
    // Re-saving the same policy is not a new lock-out.
    expect((await b.post(`${API}/admin/lockout-preview`, change)).body.confirmationRequired).toBe(false);
  });

  it('another tenant: its admin sees only its own members, and its own subscription rules', async () => {
    await globexOnlyMember();
    const g = await admin(GLOBEX, 'multi@example.test');
    expect((await g.post(`${API}/admin/lockout-preview`, { kind: 'twofa', isTwofaEnforced: true, isTwofaSkipAllowed: false })).body).toEqual({ message: 'feature-not-subscribed' });
    await h.deps.db.update(tenants).set({ isFeatureTwofaEnforcementSubscribed: true }).where(eq(tenants.id, 2));
    const p = (await g.post(`${API}/admin/lockout-preview`, { kind: 'twofa', isTwofaEnforced: true, isTwofaSkipAllowed: false })).body;
    expect(emails(p)).toEqual(['multi@example.test', 'only@globex.test']);
    const member = h.client(ACME);
    await member.login('user@acme.test');
    expect((await member.post(`${API}/admin/lockout-preview`, { kind: 'twofa', isTwofaEnforced: true, isTwofaSkipAllowed: false })).status).toBe(403);
  });
});

describe('IP allowlist', () => {
  it('counts members whose recent sign-ins all came from outside the list; the sign-in refuses exactly them', async () => {
    const b = await admin();
    const office = (await b.post(`${API}/admin/whitelisted-ips`, { ipAddress: OFFICE, prefixLength: 24 })).body;
    const own = (await b.post(`${API}/admin/whitelisted-ips`, { ipAddress: ADMIN_IP })).body;
    // user: only from home (and once from the office, 40 days ago: outside the window).
    await signInEntry(U.user, 1, '192.0.2.10');
    await signInEntry(U.user, 1, '133.242.20.7', 'login.succeeded', 40);
    // totp: home and office. multi: only by SSO, from home, in Acme; from the office in Globex (another tenant).
    await signInEntry(U.totp, 1, '192.0.2.11');
    await signInEntry(U.totp, 1, '133.242.20.8', 'login.passkey');
    await signInEntry(U.multi, 1, '192.0.2.12', 'login.sso');
    await signInEntry(U.multi, 2, '133.242.20.9');
    // A refused attempt from the office is no sign-in.
    await signInEntry(U.user, 1, '133.242.20.7', 'login.failed');

    const p = (await b.post(`${API}/admin/lockout-preview`, { kind: 'ip-enable' })).body;
    expect(p).toMatchObject({ kind: 'ip-enable', affected: 2, members: 4, unknown: 0, ownAddress: ADMIN_IP, ownAddressAllowed: true, confirmationRequired: true });
    expect(emails(p)).toEqual(['multi@example.test', 'user@acme.test']);

    expect((await b.request('PATCH', `${API}/admin/enable-ip-restriction`)).body).toEqual({ message: 'lockout-confirmation-required', affected: 2 });
    expect((await b.request('PATCH', `${API}/admin/enable-ip-restriction?confirmAffected=2`)).body).toEqual({ message: 'success' });

    // Agreement: from their recent addresses, the counted are refused, the others let in.
    expect((await h.client(ACME, { ip: '192.0.2.10', otherBrowser: true }).login('user@acme.test')).body.message).toBe('restricted-ip');
    expect((await h.client(ACME, { ip: '133.242.20.8', otherBrowser: true }).login('totp@acme.test')).body.message).not.toBe('restricted-ip');

    // Removing the office entry now would keep totp out too.
    const del = (await b.post(`${API}/admin/lockout-preview`, { kind: 'ip-delete', id: office.id })).body;
    expect(del).toMatchObject({ kind: 'ip-delete', confirmationRequired: true });
    expect(emails(del)).toContain('totp@acme.test');
    expect((await b.request('DELETE', `${API}/admin/whitelisted-ips/${office.id}`)).body).toMatchObject({ message: 'lockout-confirmation-required', affected: del.affected });
    expect((await b.request('DELETE', `${API}/admin/whitelisted-ips/${office.id}?confirmAffected=${del.affected}`)).body).toEqual({ message: 'success' });
    // The admin's own entry stays guarded as before.
    const last = (await b.post(`${API}/admin/lockout-preview`, { kind: 'ip-delete', id: own.id })).body;
    expect(last.ownAddressAllowed).toBe(false);
    expect((await b.request('DELETE', `${API}/admin/whitelisted-ips/${own.id}?confirmAffected=${last.affected}`)).body).toEqual({ message: 'cannot-delete' });
  });

  it('members without a sign-in in 30 days are unknown, and another tenant\'s entry is not found', async () => {
    const b = await admin();
    await b.post(`${API}/admin/whitelisted-ips`, { ipAddress: ADMIN_IP });
    const p = (await b.post(`${API}/admin/lockout-preview`, { kind: 'ip-enable' })).body;
    // Only the admin has signed in (just now, from a listed address).
    expect(p).toMatchObject({ affected: 0, unknown: 3, confirmationRequired: false });
    expect((await b.request('PATCH', `${API}/admin/enable-ip-restriction`)).body).toEqual({ message: 'success' });
    await h.deps.db.update(tenants).set({ isFeatureIpRestrictionSubscribed: true }).where(eq(tenants.id, 2));
    const g = await admin(GLOBEX, 'multi@example.test');
    const mine = (await b.get(`${API}/admin/whitelisted-ips`)).body[0];
    expect((await g.post(`${API}/admin/lockout-preview`, { kind: 'ip-delete', id: mine.id })).status).toBe(404);
  });
});

describe('SSO for all users', () => {
  it('counts active members the IdP has never signed in on this tenant; the save needs the count', async () => {
    await h.deps.db.update(tenants).set({ isSsoEnabled: true, featureSsoUsersLimit: 10 }).where(eq(tenants.id, 1));
    await h.deps.db.update(tenantUsers).set({ samlNameId: 'u-2' }).where(eq(tenantUsers.userId, U.user));
    await signInEntry(U.admin, 1, ADMIN_IP, 'login.sso', 90);
    // An SSO sign-in on another tenant does not count for this one.
    await signInEntry(U.multi, 2, ADMIN_IP, 'login.sso');
    const b = await admin();
    const p = (await b.post(`${API}/admin/users/enable-sso-for-all/preview`)).body;
    expect(p).toMatchObject({ kind: 'sso-for-all', affected: 3, members: 4, confirmationRequired: true });
    expect(emails(p)).toEqual(['multi@example.test', 'totp@acme.test', 'user@acme.test']);
    expect(p.people.find((x: { email: string }) => x.email === 'user@acme.test').hasNameId).toBe(true);
    expect((await b.post(`${API}/admin/users/enable-sso-for-all`)).body).toEqual({ message: 'lockout-confirmation-required', affected: 3 });
    expect((await b.post(`${API}/admin/users/enable-sso-for-all?confirmAffected=3`)).body).toEqual({ message: 'success' });
    // Agreement: a counted member is now sent to the IdP instead of the password form.
    expect((await h.client(ACME, { otherBrowser: true }).login('user@acme.test')).body.message).toBe('redirect-to-sso');
  });
});

describe('stricter password policy', () => {
  const stricter = { minimumPasswordLength: 20, isMixedCaseRequired: true, isNumberRequired: true, isSpecialCharacterRequired: true };

  it('counts members whose password does not meet the new policy, by the rule the sign-in applies', async () => {
    await globexOnlyMember();
    // A password not typed since traits are kept: unknown until the next sign-in.
    await h.deps.db.update(users).set({ passwordTraits: null }).where(eq(users.id, U.totp));
    const b = await admin();
    const p = (await b.post(`${API}/admin/lockout-preview`, { kind: 'password-policy', policy: stricter })).body;
    expect(p).toMatchObject({ kind: 'password-policy', affected: 3, unknown: 1, members: 4, confirmationRequired: true });
    expect(emails(p)).toEqual(['admin@acme.test', 'multi@example.test', 'user@acme.test']);
    // The demo password (17 characters, every kind) meets a 17-character minimum.
    expect((await b.post(`${API}/admin/lockout-preview`, { kind: 'password-policy', policy: { ...stricter, minimumPasswordLength: 17 } })).body).toMatchObject({ affected: 0, confirmationRequired: false });
    // A looser policy needs no confirmation.
    expect((await b.post(`${API}/admin/lockout-preview`, { kind: 'password-policy', policy: { ...stricter, minimumPasswordLength: 8, isSpecialCharacterRequired: false } })).body.confirmationRequired).toBe(false);

    expect((await b.patch(`${API}/admin/password-policy`, stricter)).body).toEqual({ message: 'lockout-confirmation-required', affected: 3 });
    // The unknown member signs in meanwhile: their traits are recorded and the count changes.
    expect((await h.client(ACME, { otherBrowser: true }).login('totp@acme.test')).body.message).toBe('enter-otp');
    expect((await h.deps.db.select().from(users).where(eq(users.id, U.totp)).get())!.passwordTraits).not.toBeNull();
    expect((await b.patch(`${API}/admin/password-policy`, { ...stricter, confirmAffected: 3 })).body).toEqual({ message: 'lockout-confirmation-required', affected: 4 });
    expect((await b.patch(`${API}/admin/password-policy`, { ...stricter, confirmAffected: 4 })).body.message).toBe('success');
    // Agreement: the counted member's next sign-in is told the password no longer meets the policy.
    const login = await h.client(ACME, { ip: ADMIN_IP }).login('admin@acme.test');
    expect(login.body.password_compliance.meets_current_policy).toBe(false);
  });

  it('a password set after the change is judged by its own traits', async () => {
    const b = await admin();
    await b.patch(`${API}/admin/password-policy`, { ...stricter, minimumPasswordLength: 17 });
    const longer = 'Portal-Demo-2026!-longer-and-longer';
    expect((await b.patch(`${API}/password`, { current_password: 'Portal-Demo-2026!', new_password: longer, new_password_confirmation: longer })).body.message).toBe('success');
    const p = (await b.post(`${API}/admin/lockout-preview`, { kind: 'password-policy', policy: { ...stricter, minimumPasswordLength: 30 } })).body;
    expect(emails(p)).not.toContain('admin@acme.test');
    expect(emails(p)).toContain('user@acme.test');
  });
});
