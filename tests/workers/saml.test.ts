// The SAML assertion consumer in workerd (issue 7): node-saml validating signatures, the
// certificate parsing of the settings call, the D1 compare-and-set of the request and the replay
// cache, through `wrangler dev`. The IdP (samlify, keys made here) runs in this Node process.
// It uses the connection-test path (no member needs the per-user SSO switch, which has no API in
// this branch); a real SSO sign-in shares every check and differs only in the session it starts.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { makeKeyPair, TestIdp } from '../support/saml-idp';
import { stripSignatures, xsw } from '../support/saml-attacks';
import { Browser, rawRequest, type HostClient } from './support/client';

const port = inject('workerPort');
const IDP_ENTITY = 'https://idp.workers.test/saml';
let idp: TestIdp;
let admin: HostClient;
let metadata: string;

beforeAll(async () => {
  idp = new TestIdp({ entityId: IDP_ENTITY, ssoUrl: 'https://idp.workers.test/sso', sloUrl: 'https://idp.workers.test/slo', keys: await makeKeyPair('idp.workers.test') });
  admin = new Browser(port).on('acme.localhost');
  expect((await admin.login('admin@acme.test')).status).toBe(200);
  const saved = await admin.post('/accounts/api/admin/saml', { idpEntityId: IDP_ENTITY, idpSsoUrl: 'https://idp.workers.test/sso', idpCertificate: idp.opts.keys.certPem });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  expect(Date.parse(saved.body.saml_setting.certificate_expires_at)).toBeGreaterThan(Date.now());
  metadata = (await admin.get('/accounts/api/saml2/all/metadata')).text;
});

async function testRequest(b: HostClient) {
  const r = await b.get(`/accounts/api/saml2/all/login?RelayState=${encodeURIComponent('/accounts/saml-test-passed')}`);
  expect(r.status).toBe(302);
  return TestIdp.requestOf(r.headers.get('location')!);
}

async function rawPost(b: HostClient, samlResponse: string) {
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return rawRequest(port, {
    method: 'POST',
    path: '/accounts/api/saml2/all/acs',
    host: b.host,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.workers.test', cookie },
    body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
  });
}

describe('SAML in workerd', () => {
  it('serves the SP metadata with the ACS under the initial subdomain', () => {
    expect(metadata).toContain('entityID="http://acme.localhost:8787/accounts/api/saml2/all/metadata"');
    expect(metadata).toContain('Location="http://acme.localhost:8787/accounts/api/saml2/all/acs"');
  });

  it('accepts a genuine signed response once (connection test passed), then refuses its replay', async () => {
    const req = await testRequest(admin);
    const response = await idp.response(metadata, { inResponseTo: req.id, nameId: 'admin@acme.test' });
    const ok = await rawPost(admin, response);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('data-island="CloseWindow"');
    const again = await rawPost(admin, response);
    expect(again.status).toBe(403);
  });

  it('refuses signature stripping and signature wrapping', async () => {
    for (const alter of [(r: string) => stripSignatures(r, 'admin@acme.test'), (r: string) => xsw(3, r, 'admin@acme.test')]) {
      const req = await testRequest(admin);
      const r = await rawPost(admin, alter(await idp.response(metadata, { inResponseTo: req.id, nameId: 'user@acme.test' })));
      expect(r.status).toBe(403);
    }
  });
});

