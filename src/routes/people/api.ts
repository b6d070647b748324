// People administration API of spec 02 section 7 (endpoint list: src/shared/people/schemas.ts).
// Admins and tenant managers (on the tenant's own host) reach users, deactivated users and
// departments; the audit-log export is for admins only.
import { Hono } from 'hono';
import { allowedApps, listDeactivated, listUsers } from '../../domain/people/members';
import { addDepartment, deleteDepartment, departmentsWithUsers, listDepartments, renameDepartment } from '../../domain/people/departments';
import { runDeletionJob, startUserDeletion } from '../../domain/people/deletion';
import { drainMailQueue, sendPendingMailOf } from '../../domain/people/mail-queue';
import {
  addUser,
  deactivateUser,
  inviteUsers,
  reactivateUser,
  setSsoForAll,
  ssoOptionsVisible,
  updateUser,
  usageCount,
} from '../../domain/people/users';
import {
  DEACTIVATED_PAGE_SIZE,
  departmentSchema,
  inviteSchema,
  pageQuerySchema,
  userInputSchema,
  usersQuerySchema,
  userUpdateSchema,
  type AllowedApp,
  type UsersPage,
} from '../../shared/people/schemas';
import { inBackground } from '../http/background';
import type { AppEnv } from '../http/env';
import { peopleActor, tenantOf, type Authed } from './http';
import { requireAccess } from '../middleware/guards';
import { idParam } from '../http/params';
import { readJson, readQuery } from '../http/validate';

export const adminPeopleApi = new Hono<AppEnv>();

const people = requireAccess('admin-or-manager');

const isManagerOnly = (c: Authed) => !c.get('member')?.isAdmin;

const sleep = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms));

adminPeopleApi.get('/admin/users', people, async (c) => {
  const q = readQuery(c, usersQuerySchema);
  const tenant = tenantOf(c);
  const { deps } = c.var;
  const [{ ssoUsers, seatsUsed, ...page }, visible] = await Promise.all([listUsers(deps.db, tenant, q), ssoOptionsVisible(deps, tenant, isManagerOnly(c))]);
  const apps = await allowedApps(deps.db, tenant.id, seatsUsed);
  // As ssoStatus() (routes/http/apps.ts) computes it, from the counts the list already made.
  const status = !tenant.isSsoEnabled || ssoUsers === 0 ? 'none' : ssoUsers === page.counts.users ? 'all' : 'some';
  const body: UsersPage = {
    ...page,
    ssoOptionsVisible: visible,
    ssoStatus: status,
    ssoUsersLimit: tenant.featureSsoUsersLimit,
    schedulerAllowed: apps.some((a) => a.key === 'scheduler'),
  };
  return c.json(body);
});

adminPeopleApi.get('/admin/deactivated-users', people, async (c) => {
  const { page } = readQuery(c, pageQuerySchema);
  return c.json(await listDeactivated(c.get('deps').db, tenantOf(c).id, page, DEACTIVATED_PAGE_SIZE));
});

adminPeopleApi.get('/admin/apps/allowed', people, async (c) => {
  const t = c.get('t');
  const apps = await allowedApps(c.get('deps').db, tenantOf(c).id);
  const body: AllowedApp[] = apps.map((a) => ({ key: a.key, name: t(`apps.${a.key}`), availableSeats: a.availableSeats, isSeatAvailable: a.isSeatAvailable }));
  return c.json(body);
});

/** Sends the invitations a call just queued, after the response (the queue row is the durable part). */
function kickMailQueue(c: Authed) {
  inBackground(c, drainMailQueue(c.get('deps')));
}

adminPeopleApi.post('/admin/users/invite', people, async (c) => {
  const { users } = await readJson(c, inviteSchema);
  const { deps } = c.var;
  const tenant = tenantOf(c);
  const count = await inviteUsers(deps, tenant, users, peopleActor(c));
  // "Resend to all" is bulk: the throttled queue, after the answer. Chosen people are sent now,
  // ahead of it: the admin may be on the phone with them (decision 0037).
  if (users !== 'all') await sendPendingMailOf(deps, tenant.id, users);
  else if (count) kickMailQueue(c);
  return c.json({ message: 'success', count });
});

adminPeopleApi.post('/admin/users/enable-sso-for-all', people, async (c) => {
  await setSsoForAll(c.get('deps'), tenantOf(c), true, peopleActor(c));
  return c.json({ message: 'success' });
});

adminPeopleApi.post('/admin/users/disable-sso-for-all', people, async (c) => {
  await setSsoForAll(c.get('deps'), tenantOf(c), false, peopleActor(c));
  return c.json({ message: 'success' });
});

adminPeopleApi.post('/admin/users', people, async (c) => {
  const input = await readJson(c, userInputSchema);
  const { deps } = c.var;
  const tenant = tenantOf(c);
  const { user, invited } = await addUser(deps, tenant, input, peopleActor(c));
  if (invited) await sendPendingMailOf(deps, tenant.id, user.id);
  // `invited`: false when an already registered person was added (they get an "added" mail).
  return c.json({ message: 'success', user, invited }, 201);
});

adminPeopleApi.patch('/admin/users/:id', people, async (c) => {
  const input = await readJson(c, userUpdateSchema);
  const { deps } = c.var;
  const tenant = tenantOf(c);
  const r = await updateUser(deps, tenant, idParam(c.req.param('id')), input, peopleActor(c));
  if (r.message === 'sent-register-mail-to-new-email-id') await sendPendingMailOf(deps, tenant.id, r.user.id);
  return c.json({ message: r.message, user: r.user });
});

adminPeopleApi.delete('/admin/users/:id', people, async (c) => {
  const { deps } = c.var;
  const jobId = await startUserDeletion(deps, tenantOf(c), idParam(c.req.param('id')), peopleActor(c));
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
  await deactivateUser(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), peopleActor(c));
  return c.json({ message: 'success' });
});

adminPeopleApi.post('/admin/users/:id/reactivate', people, async (c) => {
  await reactivateUser(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), peopleActor(c));
  return c.json({ message: 'success' });
});

adminPeopleApi.get('/admin/users/:id/cards-count', people, async (c) =>
  c.json({ data: await usageCount(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), 'cards') }),
);

adminPeopleApi.get('/admin/users/:id/schedules-count', people, async (c) =>
  c.json({ data: await usageCount(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), 'schedules') }),
);

adminPeopleApi.get('/admin/departments', people, async (c) => c.json(await listDepartments(c.get('deps'), tenantOf(c).id)));

adminPeopleApi.get('/departments-with-users', people, async (c) => c.json(await departmentsWithUsers(c.get('deps'), tenantOf(c).id)));

adminPeopleApi.post('/admin/departments', people, async (c) => {
  const { name } = await readJson(c, departmentSchema);
  return c.json(await addDepartment(c.get('deps'), tenantOf(c), name, peopleActor(c)), 201);
});

adminPeopleApi.patch('/admin/departments/:id', people, async (c) => {
  const { name } = await readJson(c, departmentSchema);
  return c.json(await renameDepartment(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), name, peopleActor(c)));
});

adminPeopleApi.delete('/admin/departments/:id', people, async (c) => {
  await deleteDepartment(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), peopleActor(c));
  return c.json({ message: 'success' });
});
