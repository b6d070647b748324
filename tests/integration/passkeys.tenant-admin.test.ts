// A tenant's passkey policy and its admin's removal of a member's passkeys (issue 24, decision
// 0039): enrolment at the next sign-in, the users list, tenant isolation, the audit log.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, passkeys, tenants, users } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { createCredential } from '../support/authenticator';
import { makeKeyPair } from '../support/saml-idp';
import { configureAcmeSso, ssoSignIn } from '../support/sso-session';
import { ACME, addPasskey, GLOBEX, MAIN, passkeySignIn, PW } from '../support/passkeys';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const signedIn = (email: string, host = ACME): Promise<TestClient> => h.signedIn(email, host, { otherBrowser: true });

/** The admins' sessions, signed in before any policy asks them for a passkey. */
let admins: Map<string, TestClient>;
beforeEach(() => {
  admins = new Map();
});

async function setPolicy(passkeyPolicy: 'allowed' | 'admins' | 'everyone', host = ACME, admin = 'admin@acme.test') {
  const a = admins.get(admin) ?? (await signedIn(admin, host));
  admins.set(admin, a);
  const r = await a.post('/accounts/api/admin/twofa', { isTwofaEnforced: false, isTwofaSkipAllowed: false, passkeyPolicy });
  return r;
}

/** The enrolment a policy asks for, answered by the software authenticator. */
async function enrol(b: TestClient) {
  const o = await b.post('/accounts/api/passkeys/enrolment/options');
  expect(o.status).toBe(200);
  const { credential, response } = createCredential(o.body, { origin: b.origin });
  return { credential, r: await b.post('/accounts/api/passkeys/enrolment/verify', { response }) };
}

describe('the tenant\'s passkey policy', () => {
  it('is saved with the 2FA settings, audited, and read back', async () => {
    const r = await setPolicy('admins');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ passkeyPolicy: 'admins' });
    const a = admins.get('admin@acme.test')!;
    expect((await a.get('/accounts/api/admin/twofa')).body.passkeyPolicy).toBe('admins');
    expect(await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'tenant.passkey_policy_changed'))).toHaveLength(1);
    // A tenant without the 2FA enforcement subscription cannot set it.
    const g = await setPolicy('everyone', GLOBEX, 'multi@example.test');
    expect(g.body.message).toBe('feature-not-subscribed');
    // Nor can a member who is not an admin.
    const u = await signedIn('user@acme.test');
    expect((await u.post('/accounts/api/admin/twofa', { isTwofaEnforced: false, isTwofaSkipAllowed: false, passkeyPolicy: 'allowed' })).status).toBe(403);
  });

  it('required for admins: the admin adds one at the next sign-in, a normal member is not asked', async () => {
    await setPolicy('admins');
    const admin = h.client(ACME, { otherBrowser: true });
    const first = await admin.login('admin@acme.test');
    expect(first.body.message).toBe('enable-passkey');
    // No session yet: the pending sign-in reaches nothing else.
    expect((await admin.get('/accounts/api/user')).status).toBe(401);
    expect((await admin.get('/accounts/setup-passkey-at-login')).status).toBe(200);
    const { credential, r } = await enrol(admin);
    expect(r.status).toBe(200);
    expect(r.body.user.email).toBe('admin@acme.test');
    expect((await admin.get('/accounts/api/user')).status).toBe(200);
    const added = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'passkey.added'));
    expect(added[0]!.details).toMatchObject({ atSignIn: true });
    // Next time the password alone is enough (the person has one), and the passkey works.
    expect((await h.client(ACME, { otherBrowser: true }).login('admin@acme.test')).body.message).toBe('success');
    expect((await passkeySignIn(h.client(ACME, { otherBrowser: true }), credential)).status).toBe(200);
    expect((await h.client(ACME, { otherBrowser: true }).login('user@acme.test')).body.message).toBe('success');
  });

  it('required for everyone covers normal members; allowed asks nobody', async () => {
    await setPolicy('everyone');
    expect((await h.client(ACME, { otherBrowser: true }).login('user@acme.test')).body.message).toBe('enable-passkey');
    await setPolicy('allowed');
    expect((await h.client(ACME, { otherBrowser: true }).login('user@acme.test')).body.message).toBe('success');
  });

  it('on the main domain, a tenant\'s policy covers its members too', async () => {
    await h.deps.db.update(tenants).set({ isFeatureTwofaEnforcementSubscribed: true, passkeyPolicy: 'admins' }).where(eq(tenants.id, 2));
    // multi@example.test is Globex's admin (and a normal member of Acme).
    expect((await h.client(MAIN, { otherBrowser: true }).login('multi@example.test')).body.message).toBe('enable-passkey');
    expect((await h.client(GLOBEX, { otherBrowser: true }).login('multi@example.test')).body.message).toBe('enable-passkey');
    expect((await h.client(ACME, { otherBrowser: true }).login('multi@example.test')).body.message).toBe('success');
  });

  it('the enrolment is bound to its pending sign-in: another browser\'s options are refused', async () => {
    await setPolicy('admins');
    const admin = h.client(ACME, { otherBrowser: true });
    expect((await admin.login('admin@acme.test')).body.message).toBe('enable-passkey');
    const o = (await admin.post('/accounts/api/passkeys/enrolment/options')).body;
    const thief = h.client(ACME, { otherBrowser: true });
    const r = await thief.post('/accounts/api/passkeys/enrolment/verify', { response: createCredential(o, { origin: thief.origin }).response });
    expect(r.status).toBe(401);
    expect(await h.deps.db.select().from(passkeys)).toHaveLength(0);
  });
});

describe('an admin removes a member\'s passkeys', () => {
  it('the users list shows who has one; removal is audited and the person signs in with the password again', async () => {
    const u = await signedIn('user@acme.test');
    const { credential } = await addPasskey(u);
    await addPasskey(u);
    const admin = await signedIn('admin@acme.test');
    const list = (await admin.get('/accounts/api/admin/users')).body;
    const row = (list.data as { email: string; passkeys: number }[]).find((x) => x.email === 'user@acme.test');
    expect(row!.passkeys).toBe(2);
    const r = await admin.request('DELETE', '/accounts/api/admin/users/2/passkeys');
    expect(r.body).toEqual({ message: 'success', removed: 2 });
    expect(await h.deps.db.select().from(passkeys)).toHaveLength(0);
    const [entry] = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'user.passkeys_removed'));
    expect(entry).toMatchObject({ tenantId: 1, actorUserId: 1, targetId: '2' });
    expect((await passkeySignIn(h.client(ACME, { otherBrowser: true }), credential)).body.message).toBe('passkey-invalid');
    expect((await admin.request('DELETE', '/accounts/api/admin/users/2/passkeys')).body.message).toBe('no-passkey');
  });

  it('another tenant\'s admin can neither see nor remove them', async () => {
    const u = await signedIn('user@acme.test');
    await addPasskey(u);
    const initech = await signedIn('admin@initech.test', 'initech.localhost:8787');
    const list = (await initech.get('/accounts/api/admin/users')).body;
    expect((list.data as { email: string }[]).map((x) => x.email)).not.toContain('user@acme.test');
    const r = await initech.request('DELETE', '/accounts/api/admin/users/2/passkeys');
    expect(r.status).toBe(404);
    expect(await h.deps.db.select().from(passkeys)).toHaveLength(1);
    // A normal member of Acme cannot either.
    const member = await signedIn('user@acme.test');
    expect((await member.request('DELETE', '/accounts/api/admin/users/2/passkeys')).status).toBe(403);
  });

  it('a person in several tenants keeps theirs (belongs-to-multiple-tenants)', async () => {
    const m = await signedIn('multi@example.test');
    await addPasskey(m);
    const admin = await signedIn('admin@acme.test');
    const multi = (await h.deps.db.select().from(users).where(eq(users.email, 'multi@example.test')).get())!;
    const r = await admin.request('DELETE', `/accounts/api/admin/users/${multi.id}/passkeys`);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('belongs-to-multiple-tenants');
    expect(await h.deps.db.select().from(passkeys)).toHaveLength(1);
  });

  it('the last way in of a passwordless account is kept', async () => {
    const u = await signedIn('user@acme.test');
    await addPasskey(u);
    await h.deps.db.update(users).set({ passwordHash: null }).where(eq(users.id, 2));
    const admin = await signedIn('admin@acme.test');
    const r = await admin.request('DELETE', '/accounts/api/admin/users/2/passkeys');
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('cannot-remove-last-passkey');
    expect(await h.deps.db.select().from(passkeys)).toHaveLength(1);
  });
});

describe('a session an IdP made', () => {
  it('cannot add, list or remove the person\'s passkeys (it speaks for its tenant only)', async () => {
    h.clock.t = Date.now();
    const idpKeys = await makeKeyPair('idp.example.test');
    const own = await signedIn('multi@example.test', GLOBEX);
    const { r } = await addPasskey(own);
    await configureAcmeSso(h, idpKeys, 'multi@example.test');
    const idp = await ssoSignIn(h.client(ACME, { otherBrowser: true }), idpKeys, 'multi@example.test');
    expect((await idp.get('/accounts/api/passkeys')).status).toBe(403);
    expect((await idp.post('/accounts/api/passkeys/options')).status).toBe(403);
    expect((await idp.request('DELETE', `/accounts/api/passkeys/${r.body.passkey.id}`, { json: { password: PW } })).status).toBe(403);
    expect((await idp.patch(`/accounts/api/passkeys/${r.body.passkey.id}`, { name: 'x' })).status).toBe(403);
    expect(await h.deps.db.select().from(passkeys)).toHaveLength(1);
  });
});
