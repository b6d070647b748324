// The "Provisioning (SCIM)" screen (decision 0040) as the server renders it: the base URL, the
// tokens without their secrets, the apps setting, the drawer entry; the explanation without the
// SSO subscription; admins only. The browser journey is tests/e2e/scim.spec.ts.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scimSettings } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';
import { ACME, GLOBEX, makeToken, scimClient } from '../support/scim';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const signedIn = (email: string, host = ACME) => h.signedIn(email, host, { otherBrowser: true });

describe('Provisioning (SCIM) screen', () => {
  it('shows the base URL, the tokens without secrets, and sits in the admin drawer', async () => {
    const { token } = await makeToken(h, { name: 'Okta prod' });
    const admin = await signedIn('admin@acme.test');
    const page = await admin.get('/accounts/admin/scim');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>プロビジョニング (SCIM) | ');
    expect(page.text).toContain('data-island="ScimProvisioning"');
    expect(page.text).toContain('http://acme.localhost:8787/accounts/scim/v2');
    expect(page.text).toContain('Okta prod');
    expect(page.text).not.toContain(token.slice(5));
    expect(page.text).toMatch(/href="\/accounts\/admin\/scim"[^>]*aria-current="page"/);
    // Other admin screens carry the drawer entry too.
    expect((await admin.get('/accounts/admin/sso-setting')).text).toContain('href="/accounts/admin/scim"');
  });

  it('the audit log screen names SCIM actions and the token as the actor', async () => {
    const { token } = await makeToken(h, { name: 'Okta prod' });
    expect((await scimClient(h, token).post('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'logged@acme.test' })).status).toBe(201);
    const admin = await signedIn('admin@acme.test');
    const page = await admin.get('/accounts/admin/activity-logs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('SCIM トークンを作成');
    expect(page.text).toContain('Okta prod');
    const scimOnly = await admin.get('/accounts/admin/activity-logs?action=scim.*');
    expect(scimOnly.text).toContain('SCIM トークンを作成');
    expect(scimOnly.text).not.toContain('logged@acme.test');
  });

  it('without the SSO subscription: the explanation and how to get it, no island', async () => {
    const admin = await signedIn('multi@example.test', GLOBEX);
    const page = await admin.get('/accounts/admin/scim');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="scim-premium"');
    expect(page.text).toContain('/accounts/admin/get-more-services');
    expect(page.text).not.toContain('data-island="ScimProvisioning"');
  });

  it('a normal member is sent away from the screen', async () => {
    const user = await signedIn('user@acme.test');
    const r = await user.get('/accounts/admin/scim');
    expect(r.status).toBe(302);
  });

  it('apps for provisioned people: saved, audited, and given to the next person created', async () => {
    const admin = await signedIn('admin@acme.test');
    expect((await admin.patch('/accounts/api/admin/scim/settings', { apps: [] })).status).toBe(422);
    const saved = await admin.patch('/accounts/api/admin/scim/settings', { apps: ['meishi', 'scheduler'] });
    expect(saved.status).toBe(200);
    expect(saved.body.apps).toEqual(['meishi', 'scheduler']);
    expect((await h.deps.db.select().from(scimSettings).where(eq(scimSettings.tenantId, 1)).get())?.apps).toEqual(['meishi', 'scheduler']);
    const { token } = await makeToken(h);
    const made = await scimClient(h, token).post('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'both@acme.test' });
    expect(made.status).toBe(201);
    expect(made.body['urn:ietf:params:scim:schemas:extension:portal:2.0:User'].apps).toEqual(['meishi', 'scheduler']);
    // Globex has no scheduler: refused.
    const globex = await signedIn('multi@example.test', GLOBEX);
    expect((await globex.patch('/accounts/api/admin/scim/settings', { apps: ['meishi'] })).status).toBe(403);
  });
});
