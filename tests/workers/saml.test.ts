// SAML in workerd (issue 7, decision 0017): node-saml verifying signatures, the certificate
// parsing of the settings call, the D1 compare-and-set of the request and the replay cache, an
// SSO sign-in and single logout, through `wrangler dev`. The IdP (samlify, keys made here) runs
// in this Node process. The tenant `ssow` (support/sso-tenant.sql) has an SSO member.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { makeKeyPair, TestIdp } from '../support/saml-idp';
import { stripSignatures, xsw } from '../support/saml-attacks';
import { Browser, rawRequest, type HostClient } from './support/client';
import { idpMetadataXml } from '../support/idp-metadata';

const port = inject('workerPort');
const IDP_ENTITY = 'https://idp.workers.test/saml';
const MEMBER = 'sso-member@ssow.test';
let idp: TestIdp;
let admin: HostClient;
let metadata: string;

beforeAll(async () => {
  idp = new TestIdp({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.workers.test/sso', sloUrl: 'https://idp.workers.test/slo', keys: await makeKeyPair('idp.workers.test') });
  admin = new Browser(port).on('ssow.localhost');
  expect((await admin.login('sso-admin@ssow.test')).status).toBe(200);
  const saved = await admin.post('/accounts/api/admin/saml', { idpEntityId: IDP_ENTITY, idpSsoUrl: 'https://idp.workers.test/sso', idpSloUrl: 'https://idp.workers.test/slo', idpCertificate: idp.opts.keys.certPem });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  expect(Date.parse(saved.body.saml_setting.certificate_expires_at)).toBeGreaterThan(Date.now());
  metadata = (await admin.get('/accounts/api/saml2/all/metadata')).text;
});

async function start(b: HostClient, relay: string) {
  const r = await b.get(`/accounts/api/saml2/all/login?RelayState=${encodeURIComponent(relay)}`);
  expect(r.status).toBe(302);
  return TestIdp.requestOf(r.headers.get('location')!);
}

/** The IdP's cross-site form POST, with this browser's cookies for the host. */
function post(b: HostClient, samlResponse: string) {
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return rawRequest(port, {
    method: 'POST',
    path: '/accounts/api/saml2/all/acs',
    host: b.host,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.workers.test', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
  });
}

describe('SAML in workerd', () => {
  it('serves the SP metadata with the ACS under the initial subdomain', () => {
    const origin = `http://ssow.localhost:${inject('publicPort')}`;
    expect(metadata).toContain(`entityID="${origin}/accounts/api/saml2/all/metadata"`);
    expect(metadata).toContain(`Location="${origin}/accounts/api/saml2/all/acs"`);
  });

  it('accepts a genuine signed response once (connection test passed), then refuses its replay', async () => {
    const req = await start(admin, '/accounts/saml-test-passed');
    const response = await idp.response(metadata, { inResponseTo: req.id, nameId: 'anyone@idp.workers.test' });
    const ok = await post(admin, response);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('data-island="CloseWindow"');
    expect((await post(admin, response)).status).toBe(403);
  });

  it('refuses signature stripping and signature wrapping', async () => {
    for (const alter of [(r: string) => stripSignatures(r, MEMBER), (r: string) => xsw(3, r, MEMBER)]) {
      const req = await start(admin, '/accounts/saml-test-passed');
      const r = await post(admin, alter(await idp.response(metadata, { inResponseTo: req.id, nameId: 'someone@idp.workers.test' })));
      expect(r.status).toBe(403);
    }
  });

  it('signs in the SSO member once SSO is on, and logout answers the IdP single-logout URL', async () => {
    const on = await admin.request('PATCH', '/accounts/api/admin/saml/configure-idp-status', { json: { isIdpConfigured: true } });
    expect(on.status).toBe(200);
    const member = new Browser(port).on('ssow.localhost');
    const pw = await member.login(MEMBER);
    expect(pw.body).toEqual({ message: 'redirect-to-sso', initial_subdomain: 'ssow' });
    const req = await start(member, '/accounts/my-account');
    const r = await post(member, await idp.response(metadata, { inResponseTo: req.id, nameId: MEMBER }));
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/accounts/my-account');
    const session = r.headers.getSetCookie().find((c) => c.startsWith('portal_session='));
    expect(session).toBeDefined();
    member.cookies.set('portal_session', session!.split(';')[0]!.slice('portal_session='.length));
    const me = await member.get('/accounts/api/user');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(MEMBER);
    const out = await member.post('/accounts/api/logout');
    expect(out.body.sloUrl).toMatch(/^https:\/\/idp\.workers\.test\/slo\?SAMLRequest=/);
  });
});

describe('metadata and rollover in workerd (decision 0042)', () => {
  it('reads metadata XML, refuses a private metadata URL, and accepts an assertion signed by either of two certificates', async () => {
    const next = new TestIdp({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.workers.test/sso', sloUrl: 'https://idp.workers.test/slo', keys: await makeKeyPair('idp.workers.test next', 730) });
    const xml = idpMetadataXml({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.workers.test/sso', sloUrl: 'https://idp.workers.test/slo', certPems: [idp.opts.keys.certPem, next.opts.keys.certPem] });
    const read = await admin.post('/accounts/api/admin/saml/metadata', { xml });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.metadata.certificates).toHaveLength(2);
    // workerd cannot resolve names: literal private addresses and local names are refused by the URL check.
    for (const url of ['https://169.254.169.254/latest', 'https://10.0.0.1/m', 'https://localhost/m', 'https://metadata.internal/m']) {
      const refused = await admin.post('/accounts/api/admin/saml/metadata', { url });
      expect([url, refused.status, Object.keys(refused.body.errors ?? {})]).toEqual([url, 422, ['metadataUrl']]);
    }
    const m = read.body.metadata;
    const saved = await admin.post('/accounts/api/admin/saml', { idpEntityId: m.idp_entity_id, idpSsoUrl: m.idp_sso_url, idpSloUrl: m.idp_slo_url, idpCertificate: m.idp_certificate });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    for (const signer of [idp, next]) {
      const req = await start(admin, '/accounts/saml-test-passed');
      const ok = await post(admin, await signer.response(metadata, { inResponseTo: req.id, nameId: 'anyone@idp.workers.test' }));
      expect(ok.status).toBe(200);
    }
    const stranger = new TestIdp({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.workers.test/sso', sloUrl: 'https://idp.workers.test/slo', keys: await makeKeyPair('stranger') });
    const req = await start(admin, '/accounts/saml-test-passed');
    expect((await post(admin, await stranger.response(metadata, { inResponseTo: req.id, nameId: 'anyone@idp.workers.test' }))).status).toBe(403);
  });
});
