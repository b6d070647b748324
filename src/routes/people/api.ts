// People administration API of spec 02 section 7 (endpoint list: src/shared/people/schemas.ts).
// Admins and tenant managers (on the tenant's own host) reach users, deactivated users and
// departments; the audit-log export is for admins only.
import { Hono } from 'hono';
import { addDepartment, deleteDepartment, renameDepartment } from '../../domain/people/departments';
import { allowedAppsRead, allowedAppsView, deactivatedRead, departmentsRead, departmentsWithUsersRead, usersPageRead } from '../../domain/people/lists';
import { readOne } from '../../db/client';
import { runDeletionJob, startUserDeletion } from '../../domain/people/deletion';
import { drainMailQueue, sendPendingMailOf } from '../../domain/people/mail-queue';
import {
  addUser,
  deactivateUser,
  inviteUsers,
  reactivateUser,
  setSsoForAll,
  updateUser,
  usageCount,
} from '../../domain/people/users';
import { DEACTIVATED_PAGE_SIZE, departmentSchema, inviteSchema, pageQuerySchema, userInputSchema, usersQuerySchema, userUpdateSchema, type UsersPage } from '../../shared/people/schemas';
import { confirmAffectedSchema } from '../../shared/tenant-settings/schemas';
import { assertConfirmed, previewLockout } from '../../domain/tenant-settings/lockout';
import { inBackground } from '../http/background';
import type { AppEnv, TenantCtx } from '../http/env';
import { actorOf } from '../http/actor';

import { requireAccess } from '../middleware/guards';
import { idParam } from '../http/params';
import { readJson, readQuery } from '../http/validate';
import { usersCsvStream } from '../../domain/people/export';
import { exportFilename } from '../../domain/audit/export';
import { audit } from '../../domain/audit/log';

export const adminPeopleApi = new Hono<AppEnv>();

const people = requireAccess('admin-or-manager');

const isManagerOnly = (c: TenantCtx) => !c.get('member')?.isAdmin;

const sleep = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms));

// The members in the import file's columns (decision 0045), for a round trip through a spreadsheet.
adminPeopleApi.get('/admin/users/export', people, async (c) => {
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const now = deps.clock.now();
  const t = c.get('t');
  const filename = exportFilename(t('people.users.exportFilename'), now);
  await audit(deps.db, { tenantId: scope.id, actorUserId: c.get('user').id, action: 'users.exported', targetType: 'tenant', targetId: scope.id, ipAddress: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null }, now);
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return c.body(usersCsvStream(scope, c.get('lang')), 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
    'Cache-Control': 'no-store',
  });
});

adminPeopleApi.get('/admin/users', people, async (c) => {
  const q = readQuery(c, usersQuerySchema);
  const scope = c.get('tenantScope');
  const { page } = await readOne(scope.db, usersPageRead(scope, q, isManagerOnly(c)));
  return c.json(page satisfies UsersPage);
});

adminPeopleApi.get('/admin/deactivated-users', people, async (c) => {
  const { page } = readQuery(c, pageQuerySchema);
  const scope = c.get('tenantScope');
  return c.json((await readOne(scope.db, deactivatedRead(scope, page, DEACTIVATED_PAGE_SIZE))).list);
});

adminPeopleApi.get('/admin/apps/allowed', people, async (c) => {
  const scope = c.get('tenantScope');
  return c.json(allowedAppsView(await readOne(scope.db, allowedAppsRead(scope)), c.get('t')));
});

/** Sends the invitations a call just queued, after the response (the queue row is the durable part). */
function kickMailQueue(c: TenantCtx) {
  inBackground(c, drainMailQueue(c.get('deps')));
}

adminPeopleApi.post('/admin/users/invite', people, async (c) => {
  const { users } = await readJson(c, inviteSchema);
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const count = await inviteUsers(deps, scope, users, actorOf(c));
  // "Resend to all" is bulk: the throttled queue, after the answer. Chosen people are sent now,
  // ahead of it: the admin may be on the phone with them (decision 0037).
  if (users !== 'all') await sendPendingMailOf(deps, scope, users);
  else if (count) kickMailQueue(c);
  return c.json({ message: 'success', count });
});

// Who "SSO for all users" would send to an IdP that has never signed them in (decision 0043).
adminPeopleApi.post('/admin/users/enable-sso-for-all/preview', people, async (c) =>
  c.json(await previewLockout(c.get('deps'), c.get('tenantScope'), { kind: 'sso-for-all' }, c.get('clientIp')), 200, { 'Cache-Control': 'no-store' }),
);

adminPeopleApi.post('/admin/users/enable-sso-for-all', people, async (c) => {
  const { confirmAffected } = readQuery(c, confirmAffectedSchema);
  await assertConfirmed(c.get('deps'), c.get('tenantScope'), { kind: 'sso-for-all' }, c.get('clientIp'), confirmAffected);
  await setSsoForAll(c.get('deps'), c.get('tenantScope'), true, actorOf(c));
  return c.json({ message: 'success' });
});

adminPeopleApi.post('/admin/users/disable-sso-for-all', people, async (c) => {
  await setSsoForAll(c.get('deps'), c.get('tenantScope'), false, actorOf(c));
  return c.json({ message: 'success' });
});

adminPeopleApi.post('/admin/users', people, async (c) => {
  const input = await readJson(c, userInputSchema);
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const { user, invited } = await addUser(deps, scope, input, actorOf(c));
  if (invited) await sendPendingMailOf(deps, scope, user.id);
  // `invited`: false when an already registered person was added (they get an "added" mail).
  return c.json({ message: 'success', user, invited }, 201);
});

adminPeopleApi.patch('/admin/users/:id', people, async (c) => {
  const input = await readJson(c, userUpdateSchema);
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const r = await updateUser(deps, scope, idParam(c.req.param('id')), input, actorOf(c));
  if (r.message === 'sent-register-mail-to-new-email-id') await sendPendingMailOf(deps, scope, r.user.id);
  return c.json({ message: r.message, user: r.user });
});

adminPeopleApi.delete('/admin/users/:id', people, async (c) => {
  const deps = c.get('deps');
  const jobId = await startUserDeletion(deps, c.get('tenantScope'), idParam(c.req.param('id')), actorOf(c));
  const work = runDeletionJob(deps, jobId);
  inBackground(c, work);
  // Small deletions finish while the admin waits (204); longer ones answer 202 and the list shows
  // "deleting" until the job is done.
  // USER_DELETE_WAIT_MS=0: never wait (always 202).
  const wait = deps.config.USER_DELETE_WAIT_MS;
  const outcome = wait === 0 ? 'timeout' : await Promise.race([work, sleep(wait)]);
  if (outcome === true) return c.body(null, 204);
  return c.json({ message: 'deleting' }, 202);
});

adminPeopleApi.post('/admin/users/:id/deactivate', people, async (c) => {
  await deactivateUser(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), actorOf(c));
  return c.json({ message: 'success' });
});

adminPeopleApi.post('/admin/users/:id/reactivate', people, async (c) => {
  await reactivateUser(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), actorOf(c));
  return c.json({ message: 'success' });
});

adminPeopleApi.get('/admin/users/:id/cards-count', people, async (c) =>
  c.json({ data: await usageCount(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), 'cards') }),
);

adminPeopleApi.get('/admin/users/:id/schedules-count', people, async (c) =>
  c.json({ data: await usageCount(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), 'schedules') }),
);

adminPeopleApi.get('/admin/departments', people, async (c) => c.json(await readOne(c.get('tenantScope').db, departmentsRead(c.get('tenantScope')))));

adminPeopleApi.get('/departments-with-users', people, async (c) => c.json(await readOne(c.get('tenantScope').db, departmentsWithUsersRead(c.get('tenantScope')))));

adminPeopleApi.post('/admin/departments', people, async (c) => {
  const { name } = await readJson(c, departmentSchema);
  return c.json(await addDepartment(c.get('deps'), c.get('tenantScope'), name, actorOf(c)), 201);
});

adminPeopleApi.patch('/admin/departments/:id', people, async (c) => {
  const { name } = await readJson(c, departmentSchema);
  return c.json(await renameDepartment(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), name, actorOf(c)));
});

adminPeopleApi.delete('/admin/departments/:id', people, async (c) => {
  await deleteDepartment(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), actorOf(c));
  return c.json({ message: 'success' });
});
