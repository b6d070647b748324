// Passkeys in the account (issue 24, decision 0039): add after re-authentication with a genuine
// attestation from the software authenticator, the list, rename, remove with the password, and
// the last way in kept.
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, passkeyChallenges, passkeys, users } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';
import { assert, createCredential } from '../support/authenticator';
import { ACME, addPasskey, GLOBEX, PW } from '../support/passkeys';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const signedIn = (email = 'user@acme.test', host = ACME) => h.signedIn(email, host);

describe('adding a passkey', () => {
  it('needs the password confirmed within 15 minutes', async () => {
    const b = await signedIn();
    expect((await b.post('/accounts/api/passkeys/options')).body).toEqual({ message: 'password-verification-required' });
    await b.post('/accounts/api/password/verify', { password: PW });
    expect((await b.post('/accounts/api/passkeys/options')).status).toBe(200);
    h.clock.advance(15 * 60_000 + 1);
    expect((await b.post('/accounts/api/passkeys/options')).status).toBe(403);
  });

  it('stores the credential from a genuine attestation, named after its model, and lists it as synced', async () => {
    const b = await signedIn();
    const { credential, r } = await addPasskey(b);
    expect(r.status).toBe(201);
    expect(r.body.passkey).toMatchObject({ name: 'Google Password Manager', provider: 'Google Password Manager', storage: 'synced', lastUsedAt: null });
    expect(r.body.passkey).not.toHaveProperty('publicKey');
    const [row] = await h.deps.db.select().from(passkeys);
    expect(row).toMatchObject({ credentialId: credential.id, userId: 2, backupEligible: true, backedUp: true, counter: 0 });
    const list = await b.get('/accounts/api/passkeys');
    expect(list.body.passkeys).toEqual([r.body.passkey]);
    // The options named the portal's domain as the relying party, and asked for user verification.
    const audit = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'passkey.added'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ tenantId: 1, actorUserId: 2, targetId: r.body.passkey.id });
  });

  it('creation options: RP ID is the host in development (PORTAL_DOMAIN with portal.test: see the sign-in tests), attestation none, resident key and UV required, existing ones excluded', async () => {
    const b = await signedIn();
    const { credential } = await addPasskey(b);
    const o = (await b.post('/accounts/api/passkeys/options')).body;
    expect(o.rp.id).toBe('acme.localhost');
    expect(o.attestation).toBe('none');
    expect(o.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(o.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([credential.id]);
  });

  it('a device-bound key is listed as such, and an unknown model is named after the browser', async () => {
    const b = await signedIn();
    const { r } = await addPasskey(b, { synced: false, aaguid: '00000000-0000-0000-0000-000000000000' });
    expect(r.status).toBe(201);
    expect(r.body.passkey).toMatchObject({ storage: 'device', provider: null });
    expect(r.body.passkey.name).toMatch(/Chrome/);
  });

  it('refuses an answer for another origin, another RP ID, without user verification, or for another challenge', async () => {
    const b = await signedIn();
    await b.post('/accounts/api/password/verify', { password: PW });
    const cases = [
      { origin: 'http://globex.localhost:8787' },
      { origin: 'http://evil.example:8787' },
      { origin: b.origin, rpId: 'example.com' },
      { origin: b.origin, uv: false },
      { origin: b.origin, challenge: 'A'.repeat(43) },
    ];
    for (const c of cases) {
      const options = (await b.post('/accounts/api/passkeys/options')).body;
      const { response } = createCredential(options, c);
      const r = await b.post('/accounts/api/passkeys', { response });
      expect(r.body, JSON.stringify(c)).toEqual({ message: 'passkey-registration-failed' });
    }
    expect(await h.deps.db.select().from(passkeys)).toHaveLength(0);
  });

  it('a challenge is used once, and only by the browser and session it was made for', async () => {
    const b = await signedIn();
    await b.post('/accounts/api/password/verify', { password: PW });
    const options = (await b.post('/accounts/api/passkeys/options')).body;
    // Another browser of the same person cannot use this browser's challenge.
    const other = h.client(ACME, { otherBrowser: true });
    expect((await other.login('user@acme.test')).body.message).toBe('success');
    await other.post('/accounts/api/password/verify', { password: PW });
    expect((await other.post('/accounts/api/passkeys', { response: createCredential(options, { origin: b.origin }).response })).body.message).toBe('passkey-registration-failed');
    // The browser it was made for uses it once; a second answer with it is refused.
    expect((await b.post('/accounts/api/passkeys', { response: createCredential(options, { origin: b.origin }).response })).status).toBe(201);
    expect((await b.post('/accounts/api/passkeys', { response: createCredential(options, { origin: b.origin }).response })).body.message).toBe('passkey-registration-failed');
    // A failed answer spends its challenge too.
    const fresh = (await b.post('/accounts/api/passkeys/options')).body;
    expect((await b.post('/accounts/api/passkeys', { response: createCredential(fresh, { origin: b.origin, uv: false }).response })).body.message).toBe('passkey-registration-failed');
    expect((await b.post('/accounts/api/passkeys', { response: createCredential(fresh, { origin: b.origin }).response })).body.message).toBe('passkey-registration-failed');
    // Five minutes: after that the challenge is refused.
    const late = (await b.post('/accounts/api/passkeys/options')).body;
    h.clock.advance(5 * 60_000 + 1);
    await b.post('/accounts/api/password/verify', { password: PW });
    expect((await b.post('/accounts/api/passkeys', { response: createCredential(late, { origin: b.origin }).response })).body.message).toBe('passkey-registration-failed');
  });

  it('a credential id belongs to one account portal-wide', async () => {
    const a = await signedIn();
    const { credential, r } = await addPasskey(a);
    expect(r.status).toBe(201);
    const b = await signedIn('multi@example.test', GLOBEX);
    await b.post('/accounts/api/password/verify', { password: PW });
    const options = (await b.post('/accounts/api/passkeys/options')).body;
    // An authenticator that reports the other account's credential id (a cloned or lying one).
    const { response } = createCredential(options, { origin: b.origin, credentialId: Buffer.from(credential.id, 'base64url') });
    const res = await b.post('/accounts/api/passkeys', { response });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('passkey-already-registered');
    expect((await h.deps.db.select().from(passkeys)).map((p) => p.userId)).toEqual([2]);
  });
});

describe('rename and remove', () => {
  it('renames with a trimmed name; another person\'s passkey is not found', async () => {
    const b = await signedIn();
    const { r } = await addPasskey(b);
    const id = r.body.passkey.id as string;
    expect((await b.patch(`/accounts/api/passkeys/${id}`, { name: '  Work phone ' })).body.passkey.name).toBe('Work phone');
    expect((await b.patch(`/accounts/api/passkeys/${id}`, { name: '' })).status).toBe(422);
    expect((await b.patch(`/accounts/api/passkeys/${id}`, { name: 'x'.repeat(65) })).status).toBe(422);
    const other = await signedIn('admin@acme.test');
    expect((await other.patch(`/accounts/api/passkeys/${id}`, { name: 'mine' })).status).toBe(404);
    expect((await other.request('DELETE', `/accounts/api/passkeys/${id}`, { json: { password: PW } })).status).toBe(404);
  });

  it('removal needs the right password and is audited', async () => {
    const b = await signedIn();
    const { r } = await addPasskey(b);
    const id = r.body.passkey.id as string;
    expect((await b.request('DELETE', `/accounts/api/passkeys/${id}`, { json: { password: 'wrong' } })).body.message).toBe('wrong_password');
    expect(await h.deps.db.select().from(passkeys)).toHaveLength(1);
    expect((await b.request('DELETE', `/accounts/api/passkeys/${id}`, { json: { password: PW } })).body).toEqual({ message: 'success' });
    expect(await h.deps.db.select().from(passkeys)).toHaveLength(0);
    expect(await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'passkey.removed'))).toHaveLength(1);
  });

  it('the last passkey of an account without a password is not removed (the last way in)', async () => {
    const b = await signedIn();
    const first = await addPasskey(b);
    const second = await addPasskey(b);
    // The person has no password now (an account made for passkeys only).
    expect((await b.request('DELETE', `/accounts/api/passkeys/${first.r.body.passkey.id}`, { json: {} })).body.message).toBe('wrong_password');
    await h.deps.db.update(users).set({ passwordHash: null }).where(eq(users.id, 2));
    // Confirmed recently (password/verify above): a passkey-only account removes without a password.
    expect((await b.request('DELETE', `/accounts/api/passkeys/${first.r.body.passkey.id}`, { json: {} })).body).toEqual({ message: 'success' });
    const last = await b.request('DELETE', `/accounts/api/passkeys/${second.r.body.passkey.id}`, { json: {} });
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('cannot-remove-last-passkey');
    expect(await h.deps.db.select().from(passkeys).where(and(eq(passkeys.userId, 2)))).toHaveLength(1);
  });
});

describe('confirming with a passkey instead of the password', () => {
  it('opens the security changes for 15 minutes; only the person\'s own passkey, in this session, counts', async () => {
    const b = await signedIn();
    const { credential } = await addPasskey(b);
    const other = await signedIn('admin@acme.test');
    const { credential: theirs } = await addPasskey(other);
    h.clock.advance(15 * 60_000 + 1);
    expect((await b.post('/accounts/api/passkeys/options')).status).toBe(403);
    const o = await b.post('/accounts/api/passkeys/verify-session/options');
    expect(o.body.allowCredentials.map((c: { id: string }) => c.id)).toEqual([credential.id]);
    // Someone else's passkey does not confirm this person.
    expect((await b.post('/accounts/api/passkeys/verify-session', { response: assert(theirs, o.body, { origin: b.origin }) })).body).toEqual({ message: 'passkey-invalid' });
    const o2 = (await b.post('/accounts/api/passkeys/verify-session/options')).body;
    // Nor does an answer to this session's challenge sent from another session of the person.
    const elsewhere = await signedIn();
    expect((await elsewhere.post('/accounts/api/passkeys/verify-session', { response: assert(credential, o2, { origin: b.origin }) })).body).toEqual({ message: 'passkey-invalid' });
    const o3 = (await b.post('/accounts/api/passkeys/verify-session/options')).body;
    expect((await b.post('/accounts/api/passkeys/verify-session', { response: assert(credential, o3, { origin: b.origin }) })).body).toEqual({ message: 'verified' });
    expect((await b.post('/accounts/api/passkeys/options')).status).toBe(200);
    const failed = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'passkey.verification_failed'));
    expect(failed.length).toBeGreaterThanOrEqual(1);
  });
});

describe('who may', () => {
  it('a pending sign-in or no session cannot reach the account calls', async () => {
    const anon = h.client(ACME);
    expect((await anon.get('/accounts/api/passkeys')).status).toBe(401);
    expect((await anon.post('/accounts/api/passkeys/options')).status).toBe(401);
    const half = h.client(ACME);
    expect((await half.login('totp@acme.test')).body.message).toBe('enter-otp');
    expect((await half.post('/accounts/api/passkeys/options')).status).toBe(401);
  });

  it('challenges are rows with a five-minute life', async () => {
    const b = await signedIn();
    await b.post('/accounts/api/password/verify', { password: PW });
    await b.post('/accounts/api/passkeys/options');
    const [c] = await h.deps.db.select().from(passkeyChallenges);
    expect(c!.expiresAt - h.clock.now()).toBe(5 * 60_000);
    expect(c).toMatchObject({ purpose: 'register', tenantId: 1, userId: 2, usedAt: null });
  });
});
