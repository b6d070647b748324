// Issue 21 root 1, decision 0035: a session a tenant's IdP made speaks for that tenant only. The
// matrix: every account-wide call x {the person's own password session, an IdP session} x {a
// target in the session's tenant, a target in another tenant}. multi@example.test is an Acme
// member (SSO on there, so Acme's admin controls the IdP that vouches for them) and a Globex admin.
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions, tenantUsers, users } from '../../src/db/schema';
import { rememberThisDevice } from '../../src/domain/twofa/login';
import { API_CATALOG } from '../../src/routes/openapi/catalog';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { makeKeyPair, type KeyPair } from '../support/saml-idp';
import { configureAcmeSso, ssoSignIn } from '../support/sso-session';

const ACME = 'acme.localhost:8787';
const GLOBEX = 'globex-jp.localhost:8787';
const MAIN = 'localhost:8787';
const EMAIL = 'multi@example.test';

let h: Harness;
let idpKeys: KeyPair;
beforeAll(async () => {
  idpKeys = await makeKeyPair('idp.example.test');
});
afterEach(() => h.close());

interface World {
  /** The person's own sessions: password sign-ins on Globex (two browsers) and the main domain. */
  globex: TestClient;
  globex2: TestClient;
  main: TestClient;
  /** Two sessions Acme's IdP made. */
  idp: TestClient;
  idp2: TestClient;
  userId: number;
}

let w: World;
beforeEach(async () => {
  h = await createHarness();
  h.clock.t = Date.now();
  await configureAcmeSso(h, idpKeys, EMAIL);
  const signIn = async (host: string) => {
    const b = h.client(host, { otherBrowser: true });
    expect((await b.login(EMAIL)).body.message, host).toBe('success');
    return b;
  };
  const globex = await signIn(GLOBEX);
  const globex2 = await signIn(GLOBEX);
  const main = await signIn(MAIN);
  const idp = await ssoSignIn(h.client(ACME, { otherBrowser: true }), idpKeys, EMAIL);
  const idp2 = await ssoSignIn(h.client(ACME, { otherBrowser: true }), idpKeys, EMAIL);
  const userId = (await h.deps.db.select().from(users).where(eq(users.email, EMAIL)).get())!.id;
  w = { globex, globex2, main, idp, idp2, userId };
});

const sessionIdOf = async (b: TestClient) => ((await b.get('/accounts/api/session-devices')).body as { currentSession: { id: string } }).currentSession.id;
const alive = async (b: TestClient) => (await b.get('/accounts/api/user')).status === 200;

describe('session devices', () => {
  it('an IdP session lists only its tenant\'s sessions and no remembered devices; the person\'s own session lists all', async () => {
    await rememberThisDevice(h.deps, (await h.deps.db.select().from(users).where(eq(users.id, w.userId)).get())!, { device: null, os: 'Linux', browser: 'Chrome' });
    const mine = (await w.globex.get('/accounts/api/session-devices')).body;
    expect(mine.scope).toBe('person');
    expect(mine.otherSessions).toHaveLength(4);
    expect(mine.rememberedDevices).toHaveLength(1);
    const idp = (await w.idp.get('/accounts/api/session-devices')).body;
    expect(idp.scope).toBe('tenant');
    expect(idp.otherSessions.map((s: { id: string }) => s.id)).toEqual([await sessionIdOf(w.idp2)]);
    expect(idp.rememberedDevices).toEqual([]);
    // Addresses and devices of the sessions elsewhere never reach it.
    expect(JSON.stringify(idp)).not.toContain(await sessionIdOf(w.globex));
  });

  it('logging out one session: same tenant works for both; another tenant\'s works only for the person\'s own session', async () => {
    // IdP session, same tenant: ends it.
    expect((await w.idp.post(`/accounts/api/session-devices/${await sessionIdOf(w.idp2)}/logout`)).status).toBe(200);
    expect(await alive(w.idp2)).toBe(false);
    // IdP session, another tenant: sign-in-required, and the session lives on.
    const r = await w.idp.post(`/accounts/api/session-devices/${await sessionIdOf(w.globex2)}/logout`);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('sign-in-required');
    expect(await alive(w.globex2)).toBe(true);
    // ...and a made-up id is still a plain 404.
    expect((await w.idp.post('/accounts/api/session-devices/not-a-session-id/logout')).status).toBe(404);
    // Password session, same tenant, then another tenant: both end.
    expect((await w.globex.post(`/accounts/api/session-devices/${await sessionIdOf(w.globex2)}/logout`)).status).toBe(200);
    expect(await alive(w.globex2)).toBe(false);
    expect((await w.globex.post(`/accounts/api/session-devices/${await sessionIdOf(w.idp)}/logout`)).status).toBe(200);
    expect(await alive(w.idp)).toBe(false);
  });

  it('"log out all other devices" from an IdP session ends its tenant\'s sessions only', async () => {
    const r = await w.idp.post('/accounts/api/session-devices/logout-others');
    expect(r.body).toEqual({ message: 'success', count: 1 });
    expect(await alive(w.idp2)).toBe(false);
    expect(await alive(w.idp)).toBe(true);
    for (const b of [w.globex, w.globex2, w.main]) expect(await alive(b), b.host).toBe(true);
  });

  it('"log out all other devices" from the person\'s own session ends every other session', async () => {
    const r = await w.main.post('/accounts/api/session-devices/logout-others');
    expect(r.body).toEqual({ message: 'success', count: 4 });
    for (const b of [w.globex, w.globex2, w.idp, w.idp2]) expect(await alive(b), b.host).toBe(false);
    expect(await alive(w.main)).toBe(true);
  });

  it('forgetting a remembered device: the person only', async () => {
    const user = (await h.deps.db.select().from(users).where(eq(users.id, w.userId)).get())!;
    await rememberThisDevice(h.deps, user, { device: null, os: 'Linux', browser: 'Chrome' });
    const id = (await w.globex.get('/accounts/api/session-devices')).body.rememberedDevices[0].id as string;
    const refused = await w.idp.request('DELETE', `/accounts/api/session-devices/remembered/${id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('sign-in-required');
    expect((await w.globex.get('/accounts/api/session-devices')).body.rememberedDevices).toHaveLength(1);
    expect((await w.globex.request('DELETE', `/accounts/api/session-devices/remembered/${id}`)).status).toBe(200);
  });
});

describe('what the account says about the person', () => {
  it('GET user: an IdP session sees its tenant\'s membership only, and not the SMS number', async () => {
    await h.deps.db.update(users).set({ contactNumber: '+819012345678' }).where(eq(users.id, w.userId));
    const idp = (await w.idp.get('/accounts/api/user')).body.user;
    expect(idp.tenants.map((t: { name: string }) => t.name)).toEqual(['Acme Corporation']);
    expect(idp.contact_number).toBeNull();
    const own = (await w.globex.get('/accounts/api/user')).body.user;
    expect(own.tenants.map((t: { name: string }) => t.name).sort()).toEqual(['Acme Corporation', 'Globex 株式会社']);
    expect(own.contact_number).toBe('+819012345678');
  });

  it('invitations into other tenants: listed, accepted and declined by the person only', async () => {
    const now = h.clock.now();
    await h.deps.db.insert(tenantUsers).values({ tenantId: 3, userId: w.userId, invitationPending: true, invitedAt: now, createdAt: now, updatedAt: now });
    for (const [method, path] of [
      ['GET', '/accounts/api/invitations'],
      ['POST', '/accounts/api/invitations/3/accept'],
      ['POST', '/accounts/api/invitations/3/decline'],
    ] as const) {
      const r = await w.idp.request(method, path, { json: method === 'POST' ? {} : undefined });
      expect(r.status, path).toBe(403);
      expect(r.body.message, path).toBe('sign-in-required');
    }
    const own = await w.globex.get('/accounts/api/invitations');
    expect(own.body.invitations.map((i: { tenant_id: number }) => i.tenant_id)).toEqual([3]);
    expect((await w.globex.post('/accounts/api/invitations/3/accept', {})).status).toBe(200);
  });

  it('the hand-off into another tenant: refused for the IdP session, made for the person\'s own', async () => {
    expect((await w.idp.post('/accounts/api/handoff', { tenant_id: 2, continue: '/accounts/my-account' })).body.message).toBe('sign-in-required');
    const own = await w.main.post('/accounts/api/handoff', { tenant_id: 2, continue: '/accounts/my-account' });
    expect(own.status).toBe(200);
    expect(own.body.url).toContain('/accounts/handoff?code=');
  });

  it('language is the person\'s display preference: either session may set it (decision 0035)', async () => {
    expect((await w.idp.patch('/accounts/api/user/language', { language: 'ja' })).body).toEqual({ message: 'success', language: 'ja' });
    expect((await w.globex.patch('/accounts/api/user/language', { language: 'en' })).body).toEqual({ message: 'success', language: 'en' });
  });
});

describe('every call the catalog marks person-wide', () => {
  const concrete = (path: string) => `/accounts/api${path.replace(':tenantId', '3').replace(':id', 'x').replace(':method{app|sms}', 'app')}`;
  const person = API_CATALOG.filter((o) => o.access === 'person');

  it('is the credentials, two-factor, passkeys, remembered devices and invitations, and nothing an IdP session needs is among them', () => {
    expect(person.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      [
        'DELETE /session-devices/remembered/:id',
        'DELETE /twofa',
        'GET /invitations',
        // passkeys (decision 0039): the person's own credentials
        'GET /passkeys',
        'POST /passkeys/options',
        'POST /passkeys',
        'PATCH /passkeys/:id',
        'DELETE /passkeys/:id',
        'POST /passkeys/verify-session/options',
        'POST /passkeys/verify-session',
        'GET /twofa/app/manual-code',
        'GET /twofa/app/qr',
        'GET /twofa/backup-codes',
        'PATCH /password',
        'POST /invitations/:tenantId/accept',
        'POST /invitations/:tenantId/decline',
        'POST /password/verify',
        'POST /twofa/:method{app|sms}',
        'POST /twofa/backup-codes/regenerate',
        'POST /twofa/setup',
        'POST /twofa/sms/otp',
        'POST /twofa/sms/otp/resend',
      ].sort(),
    );
    // A new call open to any session must be decided here too: tenant-bound, or the person's.
    expect(API_CATALOG.filter((o) => o.access === 'authenticated').map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      [
        'GET /session-devices',
        'PATCH /user/language',
        'POST /handoff',
        'POST /outlook-sso/map-user',
        'POST /session-devices/:id/logout',
        'POST /session-devices/logout-others',
        'POST /verification-mail/:id',
      ].sort(),
    );
  });

  it('answers an IdP session sign-in-required before anything else, and leaves the person\'s own session alone', async () => {
    for (const o of person) {
      const r = await w.idp.request(o.method, concrete(o.path), { json: o.method === 'GET' || o.method === 'DELETE' ? undefined : {} });
      expect(r.status, `${o.method} ${o.path}`).toBe(403);
      expect(r.body.message, `${o.method} ${o.path}`).toBe('sign-in-required');
      const own = await w.globex.request(o.method, concrete(o.path), { json: o.method === 'GET' || o.method === 'DELETE' ? undefined : {} });
      expect(own.body?.message, `${o.method} ${o.path}`).not.toBe('sign-in-required');
    }
    // Nothing changed for the person meanwhile.
    const user = (await h.deps.db.select().from(users).where(eq(users.id, w.userId)).get())!;
    expect(user.twofaMethod).toBeNull();
  });
});

describe('the screens', () => {
  it('account-wide pages send an IdP session to my-account, which explains what it can do and where to do the rest', async () => {
    // An SSO user's navigation to the two-factor pages is abandoned (spec 01 guards)...
    for (const path of ['/accounts/twofa', '/accounts/verify-password']) {
      const r = await w.idp.get(path);
      expect(r.status, path).toBe(302);
      expect(r.headers.get('location'), path).toBe('/accounts/my-account');
    }
    expect((await w.idp.get('/accounts/invitations')).headers.get('location')).toBe('/accounts/my-account?notice=sign-in-required');
    // ...and once the member's SSO is off, the IdP's session is still the tenant's only.
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: false }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, w.userId)));
    for (const path of ['/accounts/twofa', '/accounts/verify-password', '/accounts/invitations']) {
      const r = await w.idp.get(path);
      expect(r.status, path).toBe(302);
      expect(r.headers.get('location'), path).toBe('/accounts/my-account?notice=sign-in-required');
    }
    const page = await w.idp.get('/accounts/my-account?notice=sign-in-required');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="account-scope"');
    expect(page.text).toContain('http://localhost:8787/accounts/login?continue=%2Faccounts%2Fmy-account');
    expect(page.text).toContain('data-testid="devices-tenant-scope"');
    // Neither the password nor the two-factor entry, nor the other tenant in the switcher.
    expect(page.text).not.toContain('verify-password?redirect=twofa');
    expect(page.text).not.toContain('Globex');
    const own = await w.globex.get('/accounts/my-account');
    expect(own.text).not.toContain('data-testid="account-scope"');
    expect(own.text).toContain('verify-password?redirect=twofa');
    expect((await w.globex.get('/accounts/invitations')).status).toBe(200);
  });

  it('the IdP session itself still works in its tenant (admin pages follow the membership, not the scope)', async () => {
    await h.deps.db.update(tenantUsers).set({ isAdmin: true }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, w.userId)));
    expect((await w.idp.get('/accounts/admin/users')).status).toBe(200);
    expect((await w.idp.get('/accounts/api/admin/users')).status).toBe(200);
    expect(await h.deps.db.select().from(sessions).where(eq(sessions.userId, w.userId))).toHaveLength(5);
  });
});
