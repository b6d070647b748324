// One post-authentication step for every way in (issue 12 section 1, decision 0026): every way in
// x every target (same tenant, other tenant, main domain) x tenant 2FA enforcement on/off, each
// asserting what the person would see. Ways in: password, the emailed new-device code, the
// one-time code, reset, registration, SSO and hand-off.
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions, tenants, tenantUsers, users, whitelistedIps } from '../../src/db/schema';
import { sendInvitation } from '../../src/domain/account/registration';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { codeIn, lastMail, linkIn } from '../support/mail';
import { makeKeyPair, TestIdp, type KeyPair } from '../support/saml-idp';
import { DEMO_TOTP_SECRET, totpAt } from '../support/totp';

const ACME = 'acme.localhost:8787';
const GLOBEX = 'globex-jp.localhost:8787';
const MAIN = 'localhost:8787';
const PW = 'Portal-Demo-2026!';
const NEW_PW = 'Quiet-Harbor-Lantern-88';
const IDP_ENTITY = 'https://idp.example.test/saml';

let h: Harness;
let idpKeys: KeyPair;
beforeAll(async () => {
  idpKeys = await makeKeyPair('idp.example.test');
});
beforeEach(async () => {
  h = await createHarness();
  h.clock.t = Date.now();
});
afterEach(() => h.close());

async function enforce(tenantId: number, on: boolean, skipAllowed = false) {
  await h.deps.db.update(tenants).set({ isFeatureTwofaEnforcementSubscribed: true, isTwofaEnforced: on, isTwofaSkipAllowed: skipAllowed }).where(eq(tenants.id, tenantId));
}

/** A browser that has signed in before (its device is known), so no new-device code applies. */
async function knownBrowser(email: string, host = ACME) {
  const b = h.client(host);
  expect((await b.login(email)).body.message).toBe('success');
  await b.post('/accounts/api/logout');
  return b;
}

async function resetOn(host: string, email: string, b: TestClient) {
  expect((await h.client(host).post('/accounts/api/password/email', { email })).body).toEqual({ message: 'email_sent' });
  const url = linkIn((await lastMail(h, email)).body);
  return b.post('/accounts/api/password/reset', { email, token: url.searchParams.get('token'), password: NEW_PW, password_confirmation: NEW_PW });
}

async function registerOn(b: TestClient, email = 'new@acme.test') {
  const now = h.clock.now();
  const [u] = await h.deps.db.insert(users).values({ name: '新人', email, createdAt: now, updatedAt: now }).returning();
  await h.deps.db.insert(tenantUsers).values({ tenantId: 1, userId: u!.id, meishiAccessGrantedAt: now, invitedAt: now, createdAt: now, updatedAt: now });
  await sendInvitation(h.deps, u!, (await h.deps.db.select().from(tenants).where(eq(tenants.id, 1)).get())!);
  const url = linkIn((await lastMail(h, email)).body);
  const q = new URLSearchParams({ expires: url.searchParams.get('expires')!, signature: url.searchParams.get('signature')! });
  return b.post(`/accounts/api/users/register/${url.searchParams.get('id')}?${q}`, { password: NEW_PW, password_confirmation: NEW_PW });
}

const sessionCount = async () => (await h.deps.db.select().from(sessions)).length;

describe('the matrix: every way in x target x enforcement', () => {
  for (const enforced of [false, true]) {
    const next = enforced ? 'enable-twofa' : 'success';
    describe(`tenant 2FA enforcement ${enforced ? 'on' : 'off'}`, () => {
      beforeEach(() => enforce(1, enforced));

      it(`password, same tenant: ${next}`, async () => {
        const r = await h.client(ACME).login('user@acme.test');
        expect(r.body.message).toBe(next);
      });

      it('password from a new device: the emailed code first, then what enforcement asks', async () => {
        await enforce(1, false);
        await knownBrowser('user@acme.test');
        await enforce(1, enforced);
        const fresh = h.client(ACME, { ip: '198.51.100.20', otherBrowser: true });
        expect((await fresh.login('user@acme.test')).body.message).toBe('enter-additional-challenge');
        // The person holding only the password cannot reach the authenticator setup.
        expect((await fresh.get('/accounts/api/setup-twofa-at-login/app')).status).toBe(401);
        const code = codeIn((await lastMail(h, 'user@acme.test')).body);
        const r = await fresh.post('/accounts/api/additional-challenge/verify', { otp: code });
        expect(r.body.message).toBe(next);
        expect(await sessionCount()).toBe(enforced ? 0 : 1);
      });

      it(`reset, same tenant: ${next}, never a session before it`, async () => {
        const b = h.client(ACME);
        const r = await resetOn(ACME, 'user@acme.test', b);
        expect(r.body.message).toBe(next);
        expect(await sessionCount()).toBe(enforced ? 0 : 1);
      });

      it(`registration, same tenant: ${next}`, async () => {
        const r = await registerOn(h.client(ACME));
        expect(r.body.message).toBe(next);
        expect(await sessionCount()).toBe(enforced ? 0 : 1);
      });

      it('one-time code (a 2FA user): the code is always asked, then a session', async () => {
        const b = h.client(ACME);
        expect((await b.login('totp@acme.test')).body.message).toBe('enter-otp');
        const r = await b.post('/accounts/api/otp/verify', { otp: await totpAt(DEMO_TOTP_SECRET, h.clock.now()) });
        expect(r.body.message).toBe('success');
      });

      it('reset of a 2FA user: the one-time code next, whatever enforcement says', async () => {
        const r = await resetOn(ACME, 'totp@acme.test', h.client(ACME));
        expect(r.body.message).toBe('enter-otp');
        expect(await sessionCount()).toBe(0);
      });

      it('password, other tenant: not-a-member, no session', async () => {
        const r = await h.client(GLOBEX).login('user@acme.test');
        expect(r.status).toBe(403);
        expect(r.body.message).toBe('not-a-member');
        expect(await sessionCount()).toBe(0);
      });

      it('reset on another tenant host: the password is set, the person signs in where they belong', async () => {
        const r = await resetOn(GLOBEX, 'user@acme.test', h.client(GLOBEX));
        expect(r.body).toEqual({ message: 'password-set', requires_login: true, user: null });
        expect(await sessionCount()).toBe(0);
      });

      it(`password, main domain (an Acme member): ${next}`, async () => {
        const r = await h.client(MAIN).login('user@acme.test');
        expect(r.body.message).toBe(next);
      });
    });
  }
});

describe('hand-off', () => {
  async function mainSession(email = 'multi@example.test') {
    const main = h.client(MAIN);
    expect((await main.login(email)).body.message).toBe('success');
    return main;
  }
  const follow = (url: string, b?: TestClient) => {
    const u = new URL(url);
    return (b ?? h.client(u.host)).get(u.pathname + u.search);
  };

  it('into a tenant that enforces 2FA: the target asks for the setup, no session before it', async () => {
    const main = await mainSession();
    await enforce(2, true);
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 2 })).body;
    const target = h.client(new URL(url).host);
    const r = await follow(url, target);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toMatch(/^\/accounts\/setup-twofa-at-login\?continue=/);
    expect(target.cookies.has('portal_session')).toBe(false);
    expect(target.cookies.has('portal_login_challenge')).toBe(true);
  });

  it('without enforcement: a session on the target host', async () => {
    const main = await mainSession();
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 2 })).body;
    const target = h.client(new URL(url).host);
    expect((await follow(url, target)).status).toBe(302);
    expect((await target.get('/accounts/api/user')).status).toBe(200);
  });

  it('is bound to the browser that asked: the same URL in another browser is refused', async () => {
    const main = await mainSession();
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 2 })).body;
    const thief = h.client(new URL(url).host, { otherBrowser: true });
    expect((await follow(url, thief)).status).toBe(400);
    expect((await thief.get('/accounts/api/user')).status).toBe(401);
  });

  it('re-checks the source session: after logout the code is dead', async () => {
    const main = await mainSession();
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 2 })).body;
    await main.post('/accounts/api/logout');
    expect((await follow(url)).status).toBe(400);
  });

  it('is refused behind the target tenant address allowlist', async () => {
    const main = await mainSession();
    await h.deps.db.update(tenants).set({ isFeatureIpRestrictionSubscribed: true, isIpRestrictionEnabled: true }).where(eq(tenants.id, 2));
    await h.deps.db.insert(whitelistedIps).values({ tenantId: 2, ipAddress: '192.0.2.1', createdAt: h.clock.now(), updatedAt: h.clock.now() } as never);
    const { url } = (await main.post('/accounts/api/handoff', { tenant_id: 2 })).body;
    expect((await follow(url)).status).toBe(400);
    expect(await sessionCount()).toBe(1);
  });
});

describe('SSO sessions stay in their tenant', () => {
  async function ssoSession(email: string) {
    const admin = h.client(ACME);
    expect((await admin.login('admin@acme.test')).body.message).toBe('success');
    const settings = { idpEntityId: IDP_ENTITY, idpSsoUrl: 'https://idp.example.test/sso', idpSloUrl: 'https://idp.example.test/slo', idpCertificate: idpKeys.certPem };
    expect((await admin.post('/accounts/api/admin/saml', settings)).status).toBe(200);
    expect((await admin.patch('/accounts/api/admin/saml/configure-idp-status', { isIdpConfigured: true })).status).toBe(200);
    const u = (await h.deps.db.select().from(users).where(eq(users.email, email)).get())!;
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, u.id)));
    // The tenant admin's IdP asserts the email: what an attacker controlling that IdP can do.
    const idp = new TestIdp({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.example.test/sso', sloUrl: 'https://idp.example.test/slo', keys: idpKeys });
    const b = h.client(ACME, { otherBrowser: true });
    const metadata = (await b.get('/accounts/api/saml2/all/metadata')).text;
    const start = await b.get(`/accounts/api/saml2/all/login?RelayState=${encodeURIComponent('/accounts/my-account')}`);
    const req = TestIdp.requestOf(start.headers.get('location')!);
    const response = await idp.response(metadata, { inResponseTo: req.id, nameId: email });
    const acs = await b.request('POST', '/accounts/api/saml2/all/acs', {
      raw: true,
      body: new URLSearchParams({ SAMLResponse: response, RelayState: req.relayState ?? '' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example.test' },
    });
    expect(acs.status).toBe(303);
    expect((await b.get('/accounts/api/user')).status).toBe(200);
    return b;
  }

  it("an SSO session never hands off into the person's other tenant: they sign in there on their own", async () => {
    // multi@example.test is an Acme member and a Globex admin.
    const b = await ssoSession('multi@example.test');
    const r = await b.post('/accounts/api/handoff', { tenant_id: 2, continue: '/accounts/admin/users' });
    expect(r.body.message).toBe('sign-in-required');
    expect(r.body.url).toBe(`http://${GLOBEX}/accounts/login?continue=${encodeURIComponent('/accounts/admin/users')}`);
    expect(await h.deps.db.select().from(sessions).where(eq(sessions.tenantId, 2))).toHaveLength(0);
  });

  it('a hand-off code made from an SSO session before the rule cannot be exchanged elsewhere either', async () => {
    const b = await ssoSession('multi@example.test');
    const s = (await h.deps.db.select().from(sessions).where(eq(sessions.authMethod, 'sso')).get())!;
    // Forge what an older build could have issued: a code from the SSO session to Globex.
    const { createHandoff } = await import('../../src/domain/sign-in/handoff');
    await expect(createHandoff(h.deps, s, 2, '/accounts/my-account')).rejects.toMatchObject({ code: 'sign-in-required' });
    expect((await b.get('/accounts/api/user')).status).toBe(200);
  });
});

describe('the address allowlist is decided before the password', () => {
  it('outside the allowlist a wrong and a right password get the same answer, and neither is checked', async () => {
    await h.deps.db.update(tenants).set({ isFeatureIpRestrictionSubscribed: true, isIpRestrictionEnabled: true }).where(eq(tenants.id, 1));
    await h.deps.db.insert(whitelistedIps).values({ tenantId: 1, ipAddress: '192.0.2.1', createdAt: h.clock.now(), updatedAt: h.clock.now() } as never);
    const b = h.client(ACME, { ip: '198.51.100.99' });
    const wrong = await b.login('user@acme.test', 'not-the-password');
    const right = await b.login('user@acme.test', PW);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual(right.body);
    expect(right.body.message).toBe('restricted-ip');
  });
});
