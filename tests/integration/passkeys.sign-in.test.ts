// Signing in with a passkey (issue 24, decision 0039): one passkey on every tenant's host and the
// main domain (RP ID = PORTAL_DOMAIN), completeSignIn's rules, two factors, the origin and RP
// checks, single-use challenges under parallel answers, counters, and the second step.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, passkeys, sessions, tenants, tenantUsers } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';
import { assert, type SoftCredential } from '../support/authenticator';
import { ACME, addPasskey, GLOBEX, MAIN, passkeySignIn } from '../support/passkeys';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

/** `email` adds a passkey on `host` (after a password sign-in) and signs out. */
async function enrolled(email: string, host = ACME, o: Parameters<typeof addPasskey>[1] = {}): Promise<SoftCredential> {
  const b = h.client(host, { otherBrowser: true });
  const first = await b.login(email);
  if (first.body.message === 'enter-otp') throw new Error('use a user without 2FA here');
  const { credential, r } = await addPasskey(b, o);
  expect(r.status).toBe(201);
  return credential;
}

describe('one passkey, every host', () => {
  it('with PORTAL_DOMAIN portal.test, one made on acme signs in on acme, on globex and on the main domain', async () => {
    h.close();
    h = await createHarness({ PORTAL_DOMAIN: 'portal.test' });
    const [acme, globex, main] = ['acme.portal.test:8787', 'globex.portal.test:8787', 'portal.test:8787'];
    const credential = await enrolled('multi@example.test', acme);
    expect(credential.rpId).toBe('portal.test');
    for (const host of [acme, globex, main]) {
      const b = h.client(host, { otherBrowser: true });
      const r = await passkeySignIn(b, credential);
      expect(r.status, host).toBe(200);
      expect(r.body.user.email).toBe('multi@example.test');
      expect((await b.get('/accounts/api/user')).body.user.email).toBe('multi@example.test');
    }
    const rows = await h.deps.db.select().from(sessions);
    expect(rows.map((s) => [s.tenantId, s.authMethod, s.passkeyVerified, s.twofaPassed])).toEqual([
      [1, 'password', false, false],
      [1, 'passkey', true, true],
      [2, 'passkey', true, true],
      [null, 'passkey', true, true],
    ]);
    const audited = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'login.passkey'));
    expect(audited.map((a) => a.tenantId)).toEqual([1, 2, null]);
    const [row] = await h.deps.db.select().from(passkeys);
    expect(row!.lastUsedAt).toBe(h.clock.now());
  });

  it('with a single-label PORTAL_DOMAIN (localhost in development) each host is its own relying party', async () => {
    // Browsers refuse RP ID "localhost" on acme.localhost (it has no registrable domain).
    const credential = await enrolled('multi@example.test');
    expect(credential.rpId).toBe('acme.localhost');
    expect((await passkeySignIn(h.client(ACME, { otherBrowser: true }), credential)).status).toBe(200);
    // On globex the authenticator would not offer it; an answer scoped to acme is refused there.
    expect((await passkeySignIn(h.client(GLOBEX, { otherBrowser: true }), credential)).body).toEqual({ message: 'passkey-invalid' });
    expect((await h.client(MAIN).post('/accounts/api/passkeys/sign-in/options')).body.rpId).toBe('localhost');
  });

  it('request options name the portal\'s domain and require user verification, with no credentials listed', async () => {
    const o = (await h.client(GLOBEX).post('/accounts/api/passkeys/sign-in/options')).body;
    expect(o).toMatchObject({ rpId: 'globex.localhost', userVerification: 'required', timeout: 300_000 });
    expect(o.allowCredentials ?? []).toEqual([]);
    expect(o.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a tenant the person is not a member of refuses them like a password sign-in would', async () => {
    h.close();
    h = await createHarness({ PORTAL_DOMAIN: 'portal.test' });
    const credential = await enrolled('user@acme.test', 'acme.portal.test:8787');
    const r = await passkeySignIn(h.client('globex.portal.test:8787'), credential);
    const withPassword = await h.client('globex.portal.test:8787', { otherBrowser: true }).login('user@acme.test');
    expect([r.status, r.body]).toEqual([withPassword.status, withPassword.body]);
    expect(r.body.message).toBe('not-a-member');
    expect(await h.deps.db.select().from(sessions).where(eq(sessions.tenantId, 2))).toHaveLength(0);
  });

  it('a deactivated member is refused with the same word as after a password', async () => {
    const credential = await enrolled('user@acme.test');
    await h.deps.db.update(tenantUsers).set({ deactivatedAt: h.clock.now() }).where(eq(tenantUsers.userId, 2));
    const r = await passkeySignIn(h.client(ACME), credential);
    expect(r.body.message).toBe('deactivated');
  });
});

describe('what the answer must be', () => {
  it('another origin, another RP ID, no user verification or another challenge: passkey-invalid, and no session', async () => {
    const credential = await enrolled('user@acme.test');
    const cases = [
      { origin: 'http://globex.localhost:8787' }, // a challenge issued on acme, answered as if from globex
      { origin: 'http://acme.localhost:9999' },
      { origin: 'https://acme.localhost:8787' },
      { origin: 'http://acme.evil.example:8787' },
      { origin: ACME_ORIGIN, rpId: 'localhost' },
      { origin: ACME_ORIGIN, rpId: 'example.com' },
      { origin: ACME_ORIGIN, uv: false },
      { origin: ACME_ORIGIN, challenge: 'B'.repeat(43) },
    ];
    const b = h.client(ACME);
    for (const c of cases) {
      const r = await passkeySignIn(b, credential, c);
      expect(r.status, JSON.stringify(c)).toBe(401);
      expect(r.body).toEqual({ message: 'passkey-invalid' });
    }
    expect(await h.deps.db.select().from(sessions).where(eq(sessions.authMethod, 'passkey'))).toHaveLength(0);
    expect((await passkeySignIn(b, credential)).status).toBe(200);
  });

  it('an unknown credential answers exactly as a wrong signature', async () => {
    const credential = await enrolled('user@acme.test');
    const b = h.client(ACME);
    const stranger = { ...credential, id: Buffer.from('someone else').toString('base64url') };
    const unknown = await passkeySignIn(b, stranger);
    const tampered = await (async () => {
      const o = (await b.post('/accounts/api/passkeys/sign-in/options')).body;
      const answer = assert(credential, o, { origin: b.origin });
      const sig = Buffer.from(answer.response.signature, 'base64url');
      sig[sig.length - 1]! ^= 1;
      return b.post('/accounts/api/passkeys/sign-in/verify', { response: { ...answer, response: { ...answer.response, signature: sig.toString('base64url') } } });
    })();
    expect([unknown.status, unknown.body]).toEqual([tampered.status, tampered.body]);
    expect(unknown.body).toEqual({ message: 'passkey-invalid' });
  });

  it('a challenge from another browser is refused', async () => {
    const credential = await enrolled('user@acme.test');
    const mine = h.client(ACME);
    const theirs = h.client(ACME, { otherBrowser: true });
    const o = (await theirs.post('/accounts/api/passkeys/sign-in/options')).body;
    const r = await mine.post('/accounts/api/passkeys/sign-in/verify', { response: assert(credential, o, { origin: mine.origin }) });
    expect(r.body).toEqual({ message: 'passkey-invalid' });
  });

  it('a challenge issued on one tenant\'s host is refused on another\'s (tenant isolation)', async () => {
    h.close();
    h = await createHarness({ PORTAL_DOMAIN: 'portal.test' });
    const credential = await enrolled('multi@example.test', 'acme.portal.test:8787');
    const acme = h.client('acme.portal.test:8787');
    const o = (await acme.post('/accounts/api/passkeys/sign-in/options')).body;
    // The same browser's globex host, answering with acme's challenge and globex's origin.
    const globex = h.client('globex.portal.test:8787');
    globex.cookies = new Map(acme.cookies);
    const r = await globex.post('/accounts/api/passkeys/sign-in/verify', { response: assert(credential, o, { origin: globex.origin }) });
    expect(r.body).toEqual({ message: 'passkey-invalid' });
  });

  it('20 parallel answers with one challenge: exactly one session', async () => {
    const credential = await enrolled('user@acme.test');
    const b = h.client(ACME);
    const o = (await b.post('/accounts/api/passkeys/sign-in/options')).body;
    const answer = assert(credential, o, { origin: b.origin });
    const results = await Promise.all(Array.from({ length: 20 }, () => b.post('/accounts/api/passkeys/sign-in/verify', { response: answer })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.message === 'passkey-invalid')).toBe(true);
    expect(await h.deps.db.select().from(sessions).where(eq(sessions.authMethod, 'passkey'))).toHaveLength(1);
  });

  it('a counting authenticator: a counter that does not move forward (a clone) is refused and audited', async () => {
    const credential = await enrolled('user@acme.test', ACME, { counter: 5 });
    const b = h.client(ACME);
    expect((await passkeySignIn(b, credential)).status).toBe(200);
    expect((await h.deps.db.select().from(passkeys).get())!.counter).toBe(6);
    // The clone answers with the counter it had.
    const clone = await passkeySignIn(h.client(ACME, { otherBrowser: true }), credential, { keepCounter: true });
    expect(clone.body).toEqual({ message: 'passkey-invalid' });
    const refused = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'login.passkey_failed'));
    expect(refused.map((a) => (a.details as { reason: string }).reason)).toEqual(['counter']);
    expect((await passkeySignIn(h.client(ACME, { otherBrowser: true }), credential)).status).toBe(200);
  });

  it('failed answers count in the password login\'s address budget (50 in 15 minutes)', async () => {
    const credential = await enrolled('user@acme.test');
    const b = h.client(ACME, { ip: '198.51.100.7' });
    let last;
    let tries = 0;
    for (; tries < 60; tries++) {
      // The options call has its own per-minute limit: these are a few seconds apart.
      h.clock.advance(3_000);
      last = await passkeySignIn(b, credential, { uv: false });
      if (last.status === 429) break;
    }
    expect(tries).toBe(50);
    expect(last!.status).toBe(429);
    expect(last!.body.message).toBe('too-many-attempts');
    // Even a good answer waits until the budget refills.
    expect((await passkeySignIn(b, credential)).status).toBe(429);
  });
});

const ACME_ORIGIN = `http://${ACME}`;

describe('two factors', () => {
  it('a person with an authenticator app is not asked for the code after a passkey', async () => {
    // totp@acme.test adds a passkey after their own second step.
    const b = h.client(ACME, { otherBrowser: true });
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
    const { totpAt, DEMO_TOTP_SECRET } = await import('../support/totp');
    expect((await b.post('/accounts/api/otp/verify', { otp: await totpAt(DEMO_TOTP_SECRET, h.clock.now()) })).status).toBe(200);
    const { credential } = await addPasskey(b);
    const r = await passkeySignIn(h.client(ACME), credential);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('success');
  });

  it('the tenant\'s 2FA enforcement is satisfied by a passkey', async () => {
    const credential = await enrolled('user@acme.test');
    await h.deps.db.update(tenants).set({ isFeatureTwofaEnforcementSubscribed: true, isTwofaEnforced: true, isTwofaSkipAllowed: false }).where(eq(tenants.id, 1));
    expect((await h.client(ACME, { otherBrowser: true }).login('user@acme.test')).body.message).toBe('enable-twofa');
    const r = await passkeySignIn(h.client(ACME), credential);
    expect(r.body.message).toBe('success');
  });

  it('after the password, a passkey answers for the one-time code (the person\'s own only)', async () => {
    const b = h.client(ACME, { otherBrowser: true });
    expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
    const { totpAt, DEMO_TOTP_SECRET } = await import('../support/totp');
    await b.post('/accounts/api/otp/verify', { otp: await totpAt(DEMO_TOTP_SECRET, h.clock.now()) });
    const { credential } = await addPasskey(b);
    const someoneElses = await enrolled('user@acme.test');

    const c = h.client(ACME);
    expect((await c.login('totp@acme.test')).body.message).toBe('enter-otp');
    const o = await c.post('/accounts/api/passkeys/second-factor/options');
    expect(o.body.allowCredentials.map((x: { id: string }) => x.id)).toEqual([credential.id]);
    const wrong = await c.post('/accounts/api/passkeys/second-factor/verify', { response: assert(someoneElses, o.body, { origin: c.origin }) });
    expect(wrong.body).toEqual({ message: 'passkey-invalid' });
    const o2 = (await c.post('/accounts/api/passkeys/second-factor/options')).body;
    const ok = await c.post('/accounts/api/passkeys/second-factor/verify', { response: assert(credential, o2, { origin: c.origin }) });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe('totp@acme.test');
    const s = await h.deps.db.select().from(sessions).where(eq(sessions.id, (await h.deps.db.select().from(sessions)).at(-1)!.id)).get();
    expect(s).toMatchObject({ twofaPassed: true, passkeyVerified: true });
    // Without a pending login there is nothing to answer for.
    expect((await h.client(ACME, { otherBrowser: true }).post('/accounts/api/passkeys/second-factor/options')).status).toBe(401);
  });
});
