// SCIM provisioning in workerd with a local D1 (decision 0040): the token was written by the CLI
// through `wrangler d1 execute` (global setup); Entra's sequence end to end, and the seat rule
// under parallel creates decided by D1's batch. Everything it creates it deletes again (the
// other files of this layer share the demo tenant).
import { describe, expect, inject, it } from 'vitest';
import { rawRequest } from './support/client';

const port = inject('workerPort');
const token = inject('scimToken');
const host = `acme.localhost:${port}`;
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const PORTAL = 'urn:ietf:params:scim:schemas:extension:portal:2.0:User';

function scim(method: string, path: string, body?: unknown, bearer = token) {
  return rawRequest(port, {
    method,
    path: `/accounts/scim/v2${path}`,
    host,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const user = (email: string) => ({
  schemas: [USER],
  userName: email,
  externalId: email,
  active: true,
  name: { givenName: 'Taro', familyName: 'Yamada' },
  emails: [{ primary: true, type: 'work', value: email }],
});

describe('SCIM in workerd', () => {
  it("Entra's sequence: test connection, create, find, deactivate with \"False\", rename, delete", async () => {
    expect((await scim('GET', '/Users', undefined, `scim_${'Q'.repeat(43)}`)).status).toBe(401);
    const probe = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "c0ffee-test@acme.test"')}`);
    expect(probe.status).toBe(200);
    expect(probe.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(probe.body.totalResults).toBe(0);

    const created = await scim('POST', '/Users', user('workerd-taro@acme.test'));
    expect(created.status, created.text).toBe(201);
    expect(created.body.name.formatted).toBe('Yamada Taro');
    const id = created.body.id;
    const found = await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "workerd-taro@acme.test"')}`);
    expect(found.body.Resources.map((r: { id: string }) => r.id)).toEqual([id]);

    const off = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(off.status, off.text).toBe(200);
    expect(off.body.active).toBe(false);
    const renamed = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', value: { 'name.givenName': 'Jiro' } }] });
    expect(renamed.body.name.formatted).toBe('Yamada Jiro');

    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${id}`)).status).toBe(404);
  });

  it('parallel creates never pass the seats: the refused ones answer quota_finished', async () => {
    const emails = Array.from({ length: 12 }, (_, i) => `workerd-seat${i}@acme.test`);
    const answers = await Promise.all(emails.map((e) => scim('POST', '/Users', user(e))));
    const made = answers.filter((a) => a.status === 201);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status, a.text).toBe(403);
      expect(a.body).toMatchObject({ status: '403' });
      expect(a.body.detail).toMatch(/^quota_finished/);
    }
    const all = await scim('GET', '/Users?count=100');
    const holding = all.body.Resources.filter((r: { active: boolean; [PORTAL]: { apps: string[] } }) => r.active && r[PORTAL].apps.includes('meishi'));
    // Acme's card app has 10 seats.
    expect(holding.length).toBeLessThanOrEqual(10);
    expect(made.length).toBeGreaterThan(0);
    for (const m of made) expect((await scim('DELETE', `/Users/${m.body.id}`)).status).toBe(204);
  });
});
