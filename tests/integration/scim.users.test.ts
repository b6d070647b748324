// SCIM Users (decision 0040) as Entra ID and Okta really send them: their documented request
// sequences, filters and paging, the PATCH shapes of each (Entra's capitalised ops, string
// booleans and dotted path-less keys; Okta's path-less {active:false}), the seat rule under
// parallel creates, deactivation that ends sessions at once, DELETE as the admin's delete, and
// the token's name as the actor of every audit entry.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, departments, mailQueue, scimUsers, sessions, tenants, tenantUsers, users } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';
import { ACME, ENTERPRISE_URN, entraUser, ERROR_URN, LIST_URN, makeToken, oktaUser, patchOp, scimClient, USER_URN, type ScimClient } from '../support/scim';

let h: Harness;
let s: ScimClient;
beforeEach(async () => {
  h = await createHarness({ USER_DELETE_WAIT_MS: '0' });
  s = scimClient(h, (await makeToken(h, { name: 'Entra ID' })).token);
});
afterEach(async () => {
  await new Promise((r) => setTimeout(r, 30));
  h.close();
});

const T = { acme: 1 };
const filter = (f: string) => `/Users?filter=${encodeURIComponent(f)}`;

async function member(email: string) {
  return h.deps.db
    .select({ m: tenantUsers, u: users })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .where(and(eq(tenantUsers.tenantId, T.acme), eq(users.email, email)))
    .get();
}

describe('Entra ID', () => {
  it('test connection: a random userName filter answers an empty ListResponse', async () => {
    const res = await s.get(filter('userName eq "7d3e4a8c-1b2f-4e5d-9c0a-3f6b8e1d2c4a"'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ schemas: [LIST_URN], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
  });

  it('the create sequence: look up, create, look up by externalId; Japanese name order', async () => {
    expect((await s.get(filter('userName eq "taro@acme.test"'))).body.totalResults).toBe(0);
    const created = await s.post('/Users', entraUser('taro@acme.test'));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`http://acme.localhost:8787/accounts/scim/v2/Users/${created.body.id}`);
    expect(created.body).toMatchObject({
      userName: 'taro@acme.test',
      externalId: 'taro',
      active: true,
      name: { formatted: 'Yamada Taro', familyName: 'Yamada', givenName: 'Taro' },
      [ENTERPRISE_URN]: { department: 'Sales' },
    });
    const m = await member('taro@acme.test');
    // The portal's name in the Japanese order; the apps for provisioned people (the first contracted: meishi).
    expect(m?.u.name).toBe('Yamada Taro');
    expect(m?.m.meishiAccessGrantedAt).not.toBeNull();
    expect(m?.m.schedulerAccessGrantedAt).toBeNull();
    expect(m?.m.isAdmin).toBe(false);
    // The department was made; SSO is off at Acme, so an invitation to set a password is queued.
    expect(await h.deps.db.select().from(departments).where(eq(departments.name, 'Sales')).get()).toBeTruthy();
    expect(await h.deps.db.select().from(mailQueue).where(eq(mailQueue.userId, m!.u.id)).get()).toMatchObject({ kind: 'invitation' });

    const byExternal = await s.get(filter('externalId eq "taro"'));
    expect(byExternal.body.totalResults).toBe(1);
    expect(byExternal.body.Resources[0].id).toBe(created.body.id);
    // A second create of the same userName: 409 uniqueness.
    const again = await s.post('/Users', entraUser('taro@acme.test'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ schemas: [ERROR_URN], status: '409', scimType: 'uniqueness' });
  });

  it('PATCH as Entra sends it: Replace with paths, dotted path-less keys, the enterprise department, "False"', async () => {
    const id = (await s.post('/Users', entraUser('jiro@acme.test'))).body.id;
    const res = await s.patch(
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', path: 'displayName', value: 'Jiro Yamada' },
        { op: 'Replace', value: { 'name.givenName': 'Jiro', 'name.familyName': 'Yamada' } },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'jiro@acme.test' },
        { op: 'Add', path: `${ENTERPRISE_URN}:department`, value: 'Engineering' },
        { op: 'Replace', path: 'externalId', value: 'jiro-2' },
      ),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: { givenName: 'Jiro', familyName: 'Yamada', formatted: 'Yamada Jiro' }, externalId: 'jiro-2', [ENTERPRISE_URN]: { department: 'Engineering' } });
    expect((await member('jiro@acme.test'))?.u.name).toBe('Yamada Jiro');

    // Attributes of Entra's default mapping the portal does not keep are accepted and ignored.
    const extra = await s.patch(
      `/Users/${id}`,
      patchOp(
        { op: 'Add', path: 'title', value: 'Engineer' },
        { op: 'Add', path: 'addresses[type eq "work"].formatted', value: '東京都千代田区' },
        { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '03-0000-0000' },
      ),
    );
    expect(extra.status, extra.text).toBe(200);
    expect(extra.body.title).toBeUndefined();
    const off = await s.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    expect((await member('jiro@acme.test'))?.m.deactivatedAt).not.toBeNull();
    const on = await s.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'True' }));
    expect(on.body.active).toBe(true);
    expect((await member('jiro@acme.test'))?.m.deactivatedAt).toBeNull();
  });

  it('PATCH remove with a path clears the attribute; an unknown op is invalidSyntax', async () => {
    const id = (await s.post('/Users', entraUser('rem@acme.test'))).body.id;
    const res = await s.patch(`/Users/${id}`, patchOp({ op: 'Remove', path: `${ENTERPRISE_URN}:department` }));
    expect(res.status, res.text).toBe(200);
    expect(res.body[ENTERPRISE_URN]?.department).toBeUndefined();
    expect((await member('rem@acme.test'))?.m.departmentId).toBeNull();
    const removeExt = await s.patch(`/Users/${id}`, patchOp({ op: 'remove', path: 'externalId' }));
    expect(removeExt.body.externalId).toBeUndefined();
    // A path-less add sets what it names.
    const added = await s.patch(`/Users/${id}`, patchOp({ op: 'Add', value: { externalId: 'added-ext', [`${ENTERPRISE_URN}:employeeNumber`]: '0042' } }));
    expect(added.status, added.text).toBe(200);
    expect(added.body.externalId).toBe('added-ext');
    expect(added.body[ENTERPRISE_URN]?.employeeNumber).toBe('0042');
    expect((await s.get(`/Users?filter=${encodeURIComponent('externalId eq "added-ext"')}`)).body.totalResults).toBe(1);
    const bad = await s.patch(`/Users/${id}`, patchOp({ op: 'frobnicate', path: 'active', value: false }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ schemas: [ERROR_URN], status: '400' });
    expect(bad.body.scimType).toBeTruthy();
    const wrongSchema = await s.patch(`/Users/${id}`, { schemas: [USER_URN], Operations: [] });
    expect(wrongSchema.status).toBe(400);
  });

  it('a read-only attribute cannot be patched', async () => {
    const id = (await s.post('/Users', entraUser('ro@acme.test'))).body.id;
    const res = await s.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'id', value: '999' }));
    expect(res.status).toBe(400);
    expect(res.body.scimType).toBe('mutability');
  });

  it('DELETE removes the membership as the admin delete does, audited under the token', async () => {
    const id = (await s.post('/Users', entraUser('bye@acme.test'))).body.id;
    const res = await s.delete(`/Users/${id}`);
    expect(res.status).toBe(204);
    expect((await s.get(`/Users/${id}`)).status).toBe(404);
    expect((await s.get(filter('userName eq "bye@acme.test"'))).body.totalResults).toBe(0);
    // The durable job removes the membership and the account nobody else holds.
    for (let i = 0; i < 50 && (await member('bye@acme.test')); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await member('bye@acme.test')).toBeUndefined();
    expect(await h.deps.db.select().from(users).where(eq(users.email, 'bye@acme.test')).get()).toBeUndefined();
    const deleted = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'user.deleted')).get();
    expect(deleted).toMatchObject({ actorUserId: null, actorName: 'Entra ID', tenantId: T.acme });
    expect((await s.delete(`/Users/${id}`)).status).toBe(404);
  });
});

describe('Okta', () => {
  it('the sequence: filter with count=100, create, get, PUT to update, path-less {active:false}', async () => {
    const okta = scimClient(h, (await makeToken(h, { name: 'Okta' })).token);
    const look = await okta.get(`${filter('userName eq "hanako@acme.test"')}&startIndex=1&count=100`);
    expect(look.body.totalResults).toBe(0);
    const created = await okta.post('/Users', oktaUser('hanako@acme.test'));
    expect(created.status, created.text).toBe(201);
    // locale en-US: the English order.
    expect(created.body.name.formatted).toBe('Hanako Suzuki');
    const id = created.body.id;
    expect((await okta.get(`/Users/${id}`)).body.userName).toBe('hanako@acme.test');

    const put = await okta.put(`/Users/${id}`, oktaUser('hanako@acme.test', { id, name: { givenName: 'Hanako', familyName: 'Sato' } }));
    expect(put.status, put.text).toBe(200);
    expect(put.body.name.familyName).toBe('Sato');
    expect((await member('hanako@acme.test'))?.u.name).toBe('Hanako Sato');

    const off = await okta.patch(`/Users/${id}`, patchOp({ op: 'replace', value: { active: false } }));
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const log = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'user.deactivated')).get();
    expect(log).toMatchObject({ actorName: 'Okta', actorUserId: null, targetId: String(id) });
    // Okta reactivates with a PUT carrying active: true.
    const back = await okta.put(`/Users/${id}`, oktaUser('hanako@acme.test', { active: true }));
    expect(back.body.active).toBe(true);
  });

  it('PUT changes the address: the account starts over and sessions end', async () => {
    const id = (await s.post('/Users', oktaUser('old@acme.test'))).body.id;
    const res = await s.put(`/Users/${id}`, oktaUser('new-address@acme.test'));
    expect(res.status, res.text).toBe(200);
    expect(res.body.userName).toBe('new-address@acme.test');
    expect(await member('old@acme.test')).toBeUndefined();
    expect(await member('new-address@acme.test')).toBeTruthy();
    // Someone else's address: 409 uniqueness, nothing changed.
    const taken = await s.put(`/Users/${id}`, oktaUser('user@acme.test'));
    expect(taken.status).toBe(409);
    expect(taken.body.scimType).toBe('uniqueness');
  });
});

describe('filters and paging', () => {
  beforeEach(async () => {
    for (let i = 1; i <= 5; i++) expect((await s.post('/Users', entraUser(`p${i}@acme.test`, { externalId: `ext-${i}` }))).status).toBe(201);
  });

  it('userName eq is case-insensitive on the address; externalId eq; emails[type eq "work"].value eq', async () => {
    expect((await s.get(filter('userName eq "P3@ACME.test"'))).body.Resources[0].userName).toBe('p3@acme.test');
    expect((await s.get(filter('externalId eq "ext-4"'))).body.Resources[0].userName).toBe('p4@acme.test');
    expect((await s.get(filter('emails[type eq "work"].value eq "p2@acme.test"'))).body.Resources[0].userName).toBe('p2@acme.test');
    expect((await s.get(filter('USERNAME eq "p1@acme.test"'))).body.totalResults).toBe(1);
  });

  it('and / or as declared', async () => {
    expect((await s.get(filter('userName eq "p1@acme.test" or userName eq "p2@acme.test"'))).body.totalResults).toBe(2);
    expect((await s.get(filter('userName eq "p1@acme.test" and externalId eq "ext-1"'))).body.totalResults).toBe(1);
    expect((await s.get(filter('userName eq "p1@acme.test" and externalId eq "ext-2"'))).body.totalResults).toBe(0);
  });

  it('unsupported operators and attributes are invalidFilter; a broken filter too', async () => {
    for (const f of ['userName sw "p"', 'title eq "x"', 'userName eq', 'userName pr']) {
      const res = await s.get(filter(f));
      expect(res.status, f).toBe(400);
      expect(res.body).toMatchObject({ schemas: [ERROR_URN], status: '400', scimType: 'invalidFilter' });
    }
  });

  it('startIndex and count page in a stable order; count=0 gives the total only', async () => {
    const all = await s.get('/Users?startIndex=1&count=100');
    const total = all.body.totalResults;
    expect(total).toBeGreaterThanOrEqual(9);
    const ids: string[] = all.body.Resources.map((r: { id: string }) => r.id);
    const first = await s.get('/Users?startIndex=1&count=3');
    expect(first.body).toMatchObject({ totalResults: total, startIndex: 1, itemsPerPage: 3 });
    const second = await s.get('/Users?startIndex=4&count=3');
    expect([...first.body.Resources, ...second.body.Resources].map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 6));
    const none = await s.get('/Users?count=0');
    expect(none.body).toMatchObject({ totalResults: total, itemsPerPage: 0, Resources: [] });
    const capped = await s.get('/Users?count=1000');
    expect(capped.body.itemsPerPage).toBeLessThanOrEqual(100);
    expect((await s.get(`/Users?startIndex=${total + 1}`)).body.Resources).toEqual([]);
  });

  it('a filtered GET by userName is one round trip: the token check, its limits and the read in one batch', async () => {
    // Warm the host cache (signed-out reads may use it), then count.
    await s.get(filter('userName eq "p1@acme.test"'));
    const db = h.deps.db;
    const original = db.batch.bind(db);
    let batches = 0;
    let batched = 0;
    db.batch = ((statements: unknown[]) => {
      batches++;
      batched += statements.length;
      return original(statements as never);
    }) as typeof db.batch;
    h.queries.length = 0;
    try {
      const res = await s.get(filter('userName eq "p2@acme.test"'));
      expect(res.body.totalResults).toBe(1);
    } finally {
      db.batch = original;
    }
    expect(batches).toBe(1);
    // Nothing was sent outside that batch: the query log holds its statements only.
    expect(h.queries.length).toBe(batched);
  });

  it("another tenant's people are never listed or found", async () => {
    const everyone = (await s.get('/Users?count=100')).body.Resources.map((r: { userName: string }) => r.userName);
    expect(everyone).not.toContain('admin@initech.test');
    // User 6 is Initech's admin.
    expect((await s.get('/Users/6')).status).toBe(404);
    expect((await s.patch('/Users/6', patchOp({ op: 'replace', path: 'active', value: false }))).status).toBe(404);
    expect((await s.delete('/Users/6')).status).toBe(404);
  });

  it('attributes and excludedAttributes trim the answer', async () => {
    const only = await s.get(`${filter('userName eq "p1@acme.test"')}&attributes=userName`);
    expect(Object.keys(only.body.Resources[0]).sort()).toEqual(['id', 'meta', 'schemas', 'userName']);
    const without = await s.get(`${filter('userName eq "p1@acme.test"')}&excludedAttributes=emails`);
    expect(without.body.Resources[0].emails).toBeUndefined();
    expect(without.body.Resources[0].userName).toBe('p1@acme.test');
  });
});

describe('the rules of the people area', () => {
  it('seats: N parallel creates make at most the free seats, the rest a SCIM error and nothing half-written', async () => {
    const used = await h.deps.db
      .select({ n: sql<number>`count(*)` })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, T.acme), isNull(tenantUsers.deactivatedAt), isNull(tenantUsers.operationStatus), sql`${tenantUsers.meishiAccessGrantedAt} IS NOT NULL`))
      .get();
    const free = 10 - Number(used!.n);
    expect(free).toBeGreaterThan(0);
    const n = free + 4;
    const emails = Array.from({ length: n }, (_, i) => `seat${i}@acme.test`);
    const answers = await Promise.all(emails.map((e) => s.post('/Users', entraUser(e, { externalId: e }))));
    const made = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(made).toHaveLength(free);
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ schemas: [ERROR_URN], status: '403' });
      expect(r.body.detail).toMatch(/^quota_finished/);
    }
    // Nothing of a refused create remains: no account, no membership, no SCIM row, no audit entry.
    expect(await h.deps.db.select().from(users).where(inArray(users.email, emails))).toHaveLength(free);
    expect(await h.deps.db.select().from(scimUsers).where(inArray(scimUsers.externalId, emails))).toHaveLength(free);
    expect((await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'user.created'))).length).toBe(free);
    // Deactivated people hold no seat: reactivating one over the seats is refused too.
    const id = made[0]!.body.id;
    expect((await s.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }))).status).toBe(200);
    expect((await s.post('/Users', entraUser('late@acme.test'))).status).toBe(201);
    const again = await s.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'True' }));
    expect(again.status).toBe(403);
    expect(again.body.detail).toMatch(/^quota_finished/);
  });

  it('active:false ends the person\'s sessions at once', async () => {
    const browser = h.client(ACME, { otherBrowser: true });
    expect((await browser.login('user@acme.test')).body.message).toBe('success');
    expect((await browser.get('/accounts/api/user')).status).toBe(200);
    const res = await s.patch('/Users/2', patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    expect(res.status, res.text).toBe(200);
    expect(await h.deps.db.select().from(sessions).where(and(eq(sessions.userId, 2), eq(sessions.tenantId, T.acme)))).toHaveLength(0);
    expect((await browser.get('/accounts/api/user')).status).toBe(401);
    expect((await browser.login('user@acme.test')).body.message).not.toBe('success');
  });

  it('the last admin cannot be deactivated or deleted', async () => {
    const off = await s.patch('/Users/1', patchOp({ op: 'replace', value: { active: false } }));
    expect(off.status).toBe(400);
    expect(off.body).toMatchObject({ status: '400', scimType: 'mutability' });
    expect((await member('admin@acme.test'))?.m.deactivatedAt).toBeNull();
    expect((await s.delete('/Users/1')).status).toBe(409);
  });

  it("an address that is someone's account elsewhere becomes an invitation the person accepts (decision 0027)", async () => {
    const res = await s.post('/Users', entraUser('admin@initech.test'));
    expect(res.status, res.text).toBe(201);
    expect(res.body['urn:ietf:params:scim:schemas:extension:portal:2.0:User']).toMatchObject({ invitationPending: true });
    const m = await member('admin@initech.test');
    expect(m?.m.invitationPending).toBe(true);
    // The account's own name is the person's: the IdP's name is the tenant's label only.
    expect(m?.u.name).not.toBe('Yamada Taro');
    expect(await h.deps.db.select().from(mailQueue).where(eq(mailQueue.userId, m!.u.id)).get()).toMatchObject({ kind: 'added' });
  });

  it("with the tenant's SSO on, a provisioned person is an SSO member and gets no invitation mail", async () => {
    await h.deps.db.update(tenants).set({ isSsoEnabled: true }).where(eq(tenants.id, T.acme));
    const res = await s.post('/Users', entraUser('sso@acme.test'));
    expect(res.status, res.text).toBe(201);
    const m = await member('sso@acme.test');
    expect(m?.m.isSsoEnabled).toBe(true);
    expect(await h.deps.db.select().from(mailQueue).where(eq(mailQueue.userId, m!.u.id))).toEqual([]);
    // The SSO users limit holds too: at the limit, the next one is refused and nothing is made.
    await h.deps.db.update(tenants).set({ featureSsoUsersLimit: 1 }).where(eq(tenants.id, T.acme));
    const over = await s.post('/Users', entraUser('sso2@acme.test'));
    expect(over.status).toBe(403);
    expect(over.body.detail).toMatch(/^sso_users_limit_exceeded/);
    expect(await member('sso2@acme.test')).toBeUndefined();
  });

  it('userName must be an email address; errors say so in SCIM form', async () => {
    const res = await s.post('/Users', { schemas: [USER_URN], userName: 'not-an-address' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ schemas: [ERROR_URN], status: '400', scimType: 'invalidValue' });
    expect(typeof res.body.status).toBe('string');
  });

  it('every change carries the token name as the actor', async () => {
    const id = (await s.post('/Users', entraUser('audit@acme.test'))).body.id;
    await s.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'name.givenName', value: 'Ichiro' }));
    // A change to what is only echoed (displayName beside the name parts) is audited by name too.
    await s.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'displayName', value: 'Ichiro Y.' }));
    const echoed = (await h.deps.db.select().from(activityLogs).where(eq(activityLogs.targetId, String(id)))).filter((r) => r.action === 'user.updated').at(-1);
    expect(echoed?.details).toMatchObject({ attributes: ['displayName'] });
    await s.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    const rows = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.targetId, String(id)));
    const actions = rows.map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['user.created', 'user.updated', 'user.deactivated']));
    for (const r of rows) expect(r).toMatchObject({ actorUserId: null, actorName: 'Entra ID', tenantId: T.acme });
  });
});
