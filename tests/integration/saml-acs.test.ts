// The assertion consumer (issue 7; decisions 0015, 0016): a real IdP (samlify, keys generated in
// this process) signs responses; each attack alters a genuine response and must be refused with
// no session and an audit entry. The unaltered response is accepted (the positive control).
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, samlSettings, sessions, tenants, tenantUsers, users } from '../../src/db/schema';
import { createHarness, type Harness, type TestClient } from '../support/harness';
import { makeKeyPair, SIG_SHA1, TestIdp, type KeyPair } from '../support/saml-idp';
import { commentInjection, decode, encode, stripSignatures, withDoctype, withProcessingInstruction, xsw } from '../support/saml-attacks';

const ACME = 'acme.localhost:8787';
const IDP_ENTITY = 'https://idp.example.test/saml';
const SSO_USER = 'user@acme.test';
const VICTIM = 'admin@acme.test';
let idpKeys: KeyPair;
let attackerKeys: KeyPair;
let globexKeys: KeyPair;
let h: Harness;
let idp: TestIdp;
let metadata: string;

beforeAll(async () => {
  [idpKeys, attackerKeys, globexKeys] = await Promise.all([makeKeyPair('idp.example.test'), makeKeyPair('attacker'), makeKeyPair('globex-idp')]);
});

async function adminClient(host = ACME, email = 'admin@acme.test') {
  const b = h.client(host, { ip: '133.242.10.20' });
  expect((await b.login(email)).body.message).toBe('success');
  return b;
}

beforeEach(async () => {
  h = await createHarness();
  // node-saml checks times against the real clock; the portal's own checks use the harness clock.
  h.clock.t = Date.now();
  const admin = await adminClient();
  const saved = await admin.post('/accounts/api/admin/saml', { idpEntityId: IDP_ENTITY, idpSsoUrl: 'https://idp.example.test/sso', idpSloUrl: 'https://idp.example.test/slo', idpCertificate: idpKeys.certPem });
  expect(saved.status).toBe(200);
  expect((await admin.patch('/accounts/api/admin/saml/configure-idp-status', { isIdpConfigured: true })).status).toBe(200);
  // Per-user SSO switches belong to the users screens (issue 5); set them in the database here.
  const user = (await h.deps.db.select().from(users).where(eq(users.email, SSO_USER)).get())!;
  const victim = (await h.deps.db.select().from(users).where(eq(users.email, VICTIM)).get())!;
  await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, user.id)));
  await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, victim.id)));
  metadata = (await h.client(ACME).get('/accounts/api/saml2/all/metadata')).text;
  idp = new TestIdp({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.example.test/sso', sloUrl: 'https://idp.example.test/slo', keys: idpKeys });
});
afterEach(() => h.close());

/** The browser starts SSO: the portal redirects to the IdP with an AuthnRequest. */
async function start(b: TestClient, relay = '/accounts/my-account') {
  const r = await b.get(`/accounts/api/saml2/all/login?RelayState=${encodeURIComponent(relay)}`);
  expect(r.status).toBe(302);
  const location = r.headers.get('location')!;
  expect(location.startsWith('https://idp.example.test/sso?')).toBe(true);
  return TestIdp.requestOf(location);
}

/** The IdP's cross-site form POST (no X-Requested-With, a foreign Origin). */
function post(b: TestClient, samlResponse: string, relayState?: string) {
  const form = new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState ? { RelayState: relayState } : {}) });
  return b.request('POST', '/accounts/api/saml2/all/acs', {
    raw: true,
    body: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example.test' },
  });
}

const ssoSessions = () => h.deps.db.select().from(sessions).where(eq(sessions.authMethod, 'sso'));
const refusals = () => h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'login.sso.refused'));

async function expectRefused(r: Awaited<ReturnType<typeof post>>, b: TestClient, reason?: string) {
  expect(r.status).toBe(403);
  // The saml-login-error page (English fallback or Japanese default), with its close button.
  expect(r.text).toContain('data-island="CloseWindow"');
  expect(r.headers.getSetCookie().some((c) => c.startsWith('portal_session='))).toBe(false);
  expect(b.cookies.has('portal_session')).toBe(false);
  expect(await ssoSessions()).toHaveLength(0);
  const logs = await refusals();
  expect(logs.length).toBeGreaterThan(0);
  if (reason) expect(logs.at(-1)!.details).toMatchObject({ reason });
}

describe('a genuine response', () => {
  it('signs in the SSO member and goes to the RelayState; the session is an SSO session', async () => {
    const b = h.client(ACME);
    const req = await start(b);
    const r = await post(b, await idp.response(metadata, { inResponseTo: req.id, nameId: SSO_USER }), req.relayState!);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/accounts/my-account');
    const me = await b.get('/accounts/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(SSO_USER);
    expect(me.body.user.isSsoEnabled).toBe(true);
    expect(await ssoSessions()).toHaveLength(1);
  });

  it('the ACS is exempt from the CSRF rule, other API posts from the IdP origin are not', async () => {
    const b = h.client(ACME);
    const r = await b.request('POST', '/accounts/api/logout', { raw: true, headers: { origin: 'https://idp.example.test' } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ message: 'csrf-check-failed' });
  });

  it('a response signed at both levels (the XSW1/XSW2 fixture) is accepted unaltered', async () => {
    const b = h.client(ACME);
    const req = await start(b);
    const r = await post(b, await idp.response(metadata, { inResponseTo: req.id, nameId: SSO_USER, signResponseToo: true }));
    expect(r.status).toBe(303);
    expect(await ssoSessions()).toHaveLength(1);
  });

  it('20 concurrent posts of one response create exactly one session', async () => {
    const b = h.client(ACME);
    const req = await start(b);
    const response = await idp.response(metadata, { inResponseTo: req.id, nameId: SSO_USER });
    const results = await Promise.all(Array.from({ length: 20 }, () => post(b, response)));
    expect(results.filter((r) => r.status === 303)).toHaveLength(1);
    expect(results.filter((r) => r.status === 403)).toHaveLength(19);
    expect(await ssoSessions()).toHaveLength(1);
  });

  it('RelayState on return: another origin or more than 80 bytes falls back to the default', async () => {
    for (const relay of ['https://evil.example/', '//evil.example/x', `/accounts/my-account?${'x'.repeat(80)}`]) {
      const b = h.client(ACME);
      const req = await start(b, '/accounts/login');
      const r = await post(b, await idp.response(metadata, { inResponseTo: req.id, nameId: SSO_USER }), relay);
      expect(r.status).toBe(303);
      expect(r.headers.get('location')).toBe('/accounts/login');
    }
  });
});

describe('the assertion consumer refuses', () => {
  const genuine = async (b: TestClient, over: Record<string, string> = {}, nameId = SSO_USER, using = idp) => {
    const req = await start(b);
    return using.response(metadata, { inResponseTo: req.id, nameId, over });
  };

  it('a Destination other than this tenant ACS', async () => {
    const b = h.client(ACME);
    await expectRefused(await post(b, await genuine(b, { Destination: 'http://globex.localhost:8787/accounts/api/saml2/all/acs' })), b, 'destination');
  });

  it('a Recipient other than this tenant ACS', async () => {
    const b = h.client(ACME);
    await expectRefused(await post(b, await genuine(b, { SubjectRecipient: 'http://globex.localhost:8787/accounts/api/saml2/all/acs' })), b, 'subject-confirmation');
  });

  it('an Issuer other than the configured IdP entity id', async () => {
    const b = h.client(ACME);
    await expectRefused(await post(b, await genuine(b, { Issuer: 'https://other-idp.example.test' })), b, 'issuer');
  });

  it('an InResponseTo this portal never issued', async () => {
    const b = h.client(ACME);
    await start(b);
    await expectRefused(await post(b, await idp.response(metadata, { inResponseTo: '_never-issued', nameId: SSO_USER })), b, 'in-response-to');
  });

  it('an InResponseTo started by another browser', async () => {
    const starter = h.client(ACME);
    const req = await start(starter);
    const other = h.client(ACME);
    await start(other);
    await expectRefused(await post(other, await idp.response(metadata, { inResponseTo: req.id, nameId: SSO_USER })), other, 'in-response-to');
  });

  it('an unsolicited (IdP-initiated) response without InResponseTo', async () => {
    const b = h.client(ACME);
    await start(b);
    await expectRefused(await post(b, await idp.response(metadata, { inResponseTo: '', nameId: SSO_USER })), b, 'in-response-to');
  });

  it('an expired request', async () => {
    const b = h.client(ACME);
    // The assertion stays valid for 30 minutes; only the 10-minute request expires.
    const later = new Date(Date.now() + 30 * 60_000).toISOString();
    const response = await genuine(b, { ConditionsNotOnOrAfter: later, SubjectConfirmationDataNotOnOrAfter: later });
    h.clock.advance(11 * 60_000);
    await expectRefused(await post(b, response), b, 'in-response-to');
  });

  it('the same response twice (the request is single use)', async () => {
    const b = h.client(ACME);
    const response = await genuine(b);
    expect((await post(b, response)).status).toBe(303);
    await h.deps.db.delete(sessions);
    b.cookies.delete('portal_session');
    await expectRefused(await post(b, response), b, 'in-response-to');
  });

  it('a replayed assertion ID under a fresh request', async () => {
    const b = h.client(ACME);
    const first = await genuine(b, { AssertionID: '_replayed-assertion' });
    expect((await post(b, first)).status).toBe(303);
    await h.deps.db.delete(sessions);
    b.cookies.delete('portal_session');
    await expectRefused(await post(b, await genuine(b, { AssertionID: '_replayed-assertion' })), b, 'replay');
  });

  it('an audience other than this tenant SP', async () => {
    const b = h.client(ACME);
    await expectRefused(await post(b, await genuine(b, { Audience: 'http://globex.localhost:8787/accounts/api/saml2/all/metadata' })), b, 'audience');
  });

  it('an assertion not yet valid (NotBefore beyond the skew)', async () => {
    const b = h.client(ACME);
    const soon = new Date(Date.now() + 10 * 60_000).toISOString();
    await expectRefused(await post(b, await genuine(b, { ConditionsNotBefore: soon })), b);
  });

  it('an expired assertion (NotOnOrAfter past the skew)', async () => {
    const b = h.client(ACME);
    const past = new Date(Date.now() - 5 * 60_000).toISOString();
    await expectRefused(await post(b, await genuine(b, { ConditionsNotOnOrAfter: past, SubjectConfirmationDataNotOnOrAfter: past })), b);
  });

  it('an assertion that expires while the portal clock moves on', async () => {
    const b = h.client(ACME);
    const response = await genuine(b);
    h.clock.advance(7 * 60_000);
    await expectRefused(await post(b, response), b);
  });

  it('an RSA-SHA1 signature', async () => {
    const b = h.client(ACME);
    const sha1 = new TestIdp({ ...idp.opts, signatureAlgorithm: SIG_SHA1 });
    await expectRefused(await post(b, await genuine(b, {}, SSO_USER, sha1)), b, 'weak-signature-algorithm');
  });

  it('a DOCTYPE', async () => {
    const b = h.client(ACME);
    await expectRefused(await post(b, withDoctype(await genuine(b))), b, 'doctype');
  });

  it('a processing instruction', async () => {
    const b = h.client(ACME);
    await expectRefused(await post(b, withProcessingInstruction(await genuine(b))), b, 'processing-instruction');
  });

  it('comment injection in NameID', async () => {
    const b = h.client(ACME);
    // The IdP vouches for "admin@acme.test.evil.example"; the comment would make naive readers see "admin@acme.test".
    const signed = await genuine(b, {}, `${VICTIM}.evil.example`);
    await expectRefused(await post(b, commentInjection(signed, VICTIM)), b, 'comment');
  });

  it('a body over the size cap (before parsing)', async () => {
    const b = h.client(ACME);
    const big = encode(decode(await genuine(b)).replace('</saml:Issuer>', `</saml:Issuer>${' '.repeat(200 * 1024)}`));
    const r = await post(b, big);
    expect(r.status).toBe(413);
    expect(await ssoSessions()).toHaveLength(0);
  });

  it('a decoded response over the XML cap', async () => {
    const b = h.client(ACME);
    const big = encode(decode(await genuine(b)).replace('</saml:Issuer>', `</saml:Issuer>${' '.repeat(101 * 1024)}`));
    await expectRefused(await post(b, big), b, 'size');
  });

  it('a non-Success status shows the error page', async () => {
    const b = h.client(ACME);
    const r = await post(b, await genuine(b, { StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }));
    await expectRefused(r, b, 'status');
    expect(r.text).toContain('<h1');
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
  });

  for (const variant of [1, 2, 3, 4, 5, 6, 7, 8] as const) {
    it(`signature wrapping XSW${variant}`, async () => {
      const b = h.client(ACME);
      const req = await start(b);
      const signed = await idp.response(metadata, { inResponseTo: req.id, nameId: SSO_USER, signResponseToo: variant <= 2 });
      await expectRefused(await post(b, xsw(variant, signed, VICTIM)), b);
    });
  }

  it('signature stripping', async () => {
    const b = h.client(ACME);
    await expectRefused(await post(b, stripSignatures(await genuine(b), VICTIM)), b, 'signature');
  });

  it('a response re-signed with an attacker key carrying its own certificate', async () => {
    const b = h.client(ACME);
    const attacker = new TestIdp({ ...idp.opts, keys: attackerKeys });
    const r = await post(b, await genuine(b, {}, VICTIM, attacker));
    await expectRefused(r, b, 'signature');
  });

  it('a response signed with another tenant IdP key', async () => {
    const globexAdmin = await adminClient('globex.localhost:8787', 'multi@example.test');
    await h.deps.db.update(tenants).set({ featureSsoUsersLimit: 5 }).where(eq(tenants.id, 2));
    const saved = await globexAdmin.post('/accounts/api/admin/saml', { idpEntityId: 'https://globex-idp.example.test', idpSsoUrl: 'https://globex-idp.example.test/sso', idpCertificate: globexKeys.certPem });
    expect(saved.status).toBe(200);
    const b = h.client(ACME);
    const globexIdp = new TestIdp({ ...idp.opts, keys: globexKeys });
    await expectRefused(await post(b, await genuine(b, {}, VICTIM, globexIdp)), b, 'signature');
  });

  it('an email that is not a member of this tenant (never linked across tenants)', async () => {
    const b = h.client(ACME);
    // admin@initech.test exists, but only in Initech.
    await expectRefused(await post(b, await genuine(b, {}, 'admin@initech.test')), b, 'not-a-member');
    expect(await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, 1))).not.toContainEqual(expect.objectContaining({ userId: (await h.deps.db.select().from(users).where(eq(users.email, 'admin@initech.test')).get())!.id }));
  });

  it('a member whose SSO switch is off', async () => {
    const b = h.client(ACME);
    await expectRefused(await post(b, await genuine(b, {}, 'totp@acme.test')), b, 'sso-not-enabled-for-user');
  });

  it('a deactivated member', async () => {
    const gone = (await h.deps.db.select().from(users).where(eq(users.email, 'gone@acme.test')).get())!;
    await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, gone.id)));
    const b = h.client(ACME);
    await expectRefused(await post(b, await genuine(b, {}, 'gone@acme.test')), b, 'deactivated');
  });

  it('anything once the tenant switched SSO off', async () => {
    const b = h.client(ACME);
    const response = await genuine(b);
    await h.deps.db.update(tenants).set({ isSsoEnabled: false }).where(eq(tenants.id, 1));
    await h.deps.db.update(samlSettings).set({ isIdpConfigured: false });
    await expectRefused(await post(b, response), b, 'sso-disabled');
  });
});
