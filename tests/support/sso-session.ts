// A session made by a tenant's own identity provider (sso_tenant_id), the way an attacker who
// controls that IdP (the tenant's admin) would make one: Acme's admin configures SSO with an IdP
// whose keys the test holds, turns SSO on for the person, and the IdP asserts their email.
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { tenantUsers, users } from '../../src/db/schema';
import type { Harness, TestClient } from './harness';
import { TestIdp, type KeyPair } from './saml-idp';

export const IDP_ENTITY = 'https://idp.example.test/saml';
const SSO_URL = 'https://idp.example.test/sso';
const SLO_URL = 'https://idp.example.test/slo';

/** Acme (tenant 1) signs in with the test IdP; `email` is an SSO member there. */
export async function configureAcmeSso(h: Harness, idpKeys: KeyPair, email: string, adminHost = 'acme.localhost:8787') {
  const admin = h.client(adminHost, { otherBrowser: true });
  expect((await admin.login('admin@acme.test')).body.message).toBe('success');
  expect((await admin.post('/accounts/api/admin/saml', { idpEntityId: IDP_ENTITY, idpSsoUrl: SSO_URL, idpSloUrl: SLO_URL, idpCertificate: idpKeys.certPem })).status).toBe(200);
  expect((await admin.patch('/accounts/api/admin/saml/configure-idp-status', { isIdpConfigured: true })).status).toBe(200);
  const u = (await h.deps.db.select().from(users).where(eq(users.email, email)).get())!;
  await h.deps.db.update(tenantUsers).set({ isSsoEnabled: true }).where(and(eq(tenantUsers.tenantId, 1), eq(tenantUsers.userId, u.id)));
}

/** Signs `b` in on Acme through the IdP asserting `email` (SSO must be configured). */
export async function ssoSignIn(b: TestClient, idpKeys: KeyPair, email: string): Promise<TestClient> {
  const idp = new TestIdp({ entityId: IDP_ENTITY, ssoUrl: SSO_URL, sloUrl: SLO_URL, keys: idpKeys });
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
