// SCIM Groups are departments (decision 0040): create (with members), find by displayName,
// rename, add and remove members in Entra's and Okta's shapes, replace the list, delete; another
// tenant's departments and people stay out of reach; every change is audited under the token.
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, additionalDepartments, departments, tenantUsers } from '../../src/db/schema';
import { createHarness, type Harness } from '../support/harness';
import { ERROR_URN, GROUP_URN, LIST_URN, makeToken, patchOp, scimClient, type ScimClient } from '../support/scim';

let h: Harness;
let s: ScimClient;
beforeEach(async () => {
  h = await createHarness();
  s = scimClient(h, (await makeToken(h, { name: 'Okta' })).token);
});
afterEach(() => h.close());

const T = { acme: 1 };
// Demo users of Acme: admin 1, user 2, multi 3, totp 4; Initech's admin 6.
const deptOf = async (userId: number) =>
  (await h.deps.db.select({ d: tenantUsers.departmentId }).from(tenantUsers).where(and(eq(tenantUsers.tenantId, T.acme), eq(tenantUsers.userId, userId))).get())?.d ?? null;
const members = async (id: string) => ((await s.get(`/Groups/${id}`)).body.members ?? []).map((m: { value: string }) => m.value).sort();

describe('Groups', () => {
  it('lists the departments with their members, and finds one by displayName (Okta and Entra look up before creating)', async () => {
    const all = await s.get('/Groups');
    expect(all.status).toBe(200);
    expect(all.body.schemas).toEqual([LIST_URN]);
    expect(all.body.Resources.map((g: { displayName: string }) => g.displayName)).toEqual(expect.arrayContaining(['営業部', '開発部']));
    const none = await s.get(`/Groups?filter=${encodeURIComponent('displayName eq "Engineering"')}`);
    expect(none.body.totalResults).toBe(0);
    const found = await s.get(`/Groups?filter=${encodeURIComponent('displayName eq "営業部"')}&excludedAttributes=members`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].members).toBeUndefined();
  });

  it('create with members, rename, add and remove members in both shapes, replace, delete', async () => {
    const created = await s.post('/Groups', { schemas: [GROUP_URN], displayName: 'Engineering', externalId: 'grp-eng', members: [{ value: '2' }] });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toMatch(/\/accounts\/scim\/v2\/Groups\/\d+$/);
    const id: string = created.body.id;
    expect(created.body).toMatchObject({ displayName: 'Engineering', externalId: 'grp-eng' });
    expect(await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'department.created')).get()).toMatchObject({ targetId: id, actorName: 'Okta' });
    expect(await members(id)).toEqual(['2']);
    // Duplicate names: 409 uniqueness.
    const dup = await s.post('/Groups', { schemas: [GROUP_URN], displayName: 'Engineering' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ schemas: [ERROR_URN], status: '409', scimType: 'uniqueness' });

    // Okta renames with a path-less replace of {id, displayName}; Entra with a path.
    expect((await s.patch(`/Groups/${id}`, patchOp({ op: 'replace', value: { id, displayName: 'Eng' } }))).status).toBe(204);
    expect((await s.get(`/Groups/${id}`)).body.displayName).toBe('Eng');
    expect((await s.patch(`/Groups/${id}`, patchOp({ op: 'Replace', path: 'displayName', value: 'Engineering' }))).status).toBe(204);
    expect((await h.deps.db.select().from(departments).where(eq(departments.id, Number(id))).get())?.name).toBe('Engineering');

    // Add (Entra's capitalised op); user 1 already has a main department, so this one is additional.
    expect((await s.patch(`/Groups/${id}`, patchOp({ op: 'Add', path: 'members', value: [{ value: '1' }, { value: '3' }] }))).status).toBe(204);
    expect(await members(id)).toEqual(['1', '2', '3']);
    // Entra removes with a value list; Okta with a filter path.
    expect((await s.patch(`/Groups/${id}`, patchOp({ op: 'Remove', path: 'members', value: [{ value: '3' }] }))).status).toBe(204);
    expect((await s.patch(`/Groups/${id}`, patchOp({ op: 'remove', path: 'members[value eq "1"]' }))).status).toBe(204);
    expect(await members(id)).toEqual(['2']);
    // Okta's PUT replaces the list.
    const put = await s.put(`/Groups/${id}`, { schemas: [GROUP_URN], displayName: 'Engineering', members: [{ value: '4' }] });
    expect(put.status, put.text).toBe(200);
    expect(await members(id)).toEqual(['4']);
    // Someone of another tenant is no member here: ignored.
    await s.patch(`/Groups/${id}`, patchOp({ op: 'add', path: 'members', value: [{ value: '6' }] }));
    expect(await members(id)).toEqual(['4']);

    expect((await s.delete(`/Groups/${id}`)).status).toBe(204);
    expect((await s.get(`/Groups/${id}`)).status).toBe(404);
    expect(await h.deps.db.select().from(departments).where(eq(departments.id, Number(id))).get()).toBeUndefined();
    expect(await h.deps.db.select().from(additionalDepartments).where(eq(additionalDepartments.departmentId, Number(id)))).toEqual([]);

    const actions = (await h.deps.db.select().from(activityLogs).where(eq(activityLogs.actorName, 'Okta'))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['department.created', 'department.renamed', 'department.members_changed', 'department.deleted']));
  });

  it("removing a person's main department clears it; members are people of this tenant only", async () => {
    const id = (await s.post('/Groups', { schemas: [GROUP_URN], displayName: 'Solo' })).body.id;
    // User 4 (totp) gets it as main department only if they have none: set none first.
    await h.deps.db.update(tenantUsers).set({ departmentId: null }).where(and(eq(tenantUsers.tenantId, T.acme), eq(tenantUsers.userId, 4)));
    await s.patch(`/Groups/${id}`, patchOp({ op: 'add', path: 'members', value: [{ value: '4' }] }));
    expect(await deptOf(4)).toBe(Number(id));
    await s.patch(`/Groups/${id}`, patchOp({ op: 'remove', path: 'members[value eq "4"]' }));
    expect(await deptOf(4)).toBeNull();
  });

  it("another tenant's department is not found", async () => {
    const initechDept = await h.deps.db.insert(departments).values({ tenantId: 3, name: 'Initech only', createdAt: 0, updatedAt: 0 }).returning().get();
    expect((await s.get(`/Groups/${initechDept.id}`)).status).toBe(404);
    expect((await s.patch(`/Groups/${initechDept.id}`, patchOp({ op: 'replace', path: 'displayName', value: 'x' }))).status).toBe(404);
    expect((await s.delete(`/Groups/${initechDept.id}`)).status).toBe(404);
    const names = (await s.get('/Groups')).body.Resources.map((g: { displayName: string }) => g.displayName);
    expect(names).not.toContain('Initech only');
  });
});
