// Admin-only billing calls of spec 02 section 7: the primary and billing contacts, contract
// details, requests for more services and the contract application at the end of a trial.
import { Hono } from 'hono';
import { getContacts, createBillingContact, deleteContact, updateContact } from '../../domain/billing/contacts';
import { getContractDetails } from '../../domain/billing/contract';
import { applyForContract, requestMoreServices } from '../../domain/billing/requests';
import { AppError } from '../../domain/errors';
import type { Actor } from '../../domain/tenant-settings/settings';
import { contactSchema, moreServicesSchema } from '../../shared/tenant-settings/schemas';
import type { AppEnv, AuthedEnv } from '../http/env';
import { idParam } from '../http/params';
import { readJson } from '../http/validate';
import { requireAccess } from '../middleware/guards';

export const billingApi = new Hono<AppEnv>();

const admin = requireAccess('admin');

type Admin = { var: AuthedEnv['Variables'] };
/** The admin's tenant (the guard guarantees a host tenant with an admin membership). */
const tenantOf = (c: Admin) => c.var.hostTenant!;
const actorOf = (c: Admin): Actor => ({ userId: c.var.user.id, ip: c.var.clientIp });

billingApi.get('/admin/tenant-contacts', admin, async (c) => c.json(await getContacts(c.get('deps'), tenantOf(c))));

billingApi.post('/admin/tenant-contacts/billing-contact', admin, async (c) => {
  const input = await readJson(c, contactSchema);
  return c.json(await createBillingContact(c.get('deps'), tenantOf(c), input, actorOf(c)), 201);
});

billingApi.patch('/admin/tenant-contacts/:id', admin, async (c) => {
  const input = await readJson(c, contactSchema);
  return c.json(await updateContact(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), input, actorOf(c)));
});

billingApi.delete('/admin/tenant-contacts/:id', admin, async (c) => {
  await deleteContact(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), actorOf(c));
  return c.json({ message: 'success' });
});

billingApi.get('/admin/contract-details', admin, async (c) => c.json(await getContractDetails(c.get('deps'), tenantOf(c))));

billingApi.post('/admin/get-more-services', admin, async (c) => {
  const items = await readJson(c, moreServicesSchema);
  await requestMoreServices(c.get('deps'), tenantOf(c), c.get('user'), items, c.get('clientIp'));
  return c.json({ message: 'success' });
});

billingApi.post('/apply-for-contract', admin, async (c) => {
  const t = tenantOf(c);
  if (t.status !== 'trial_expired_not_yet_contracted' && t.status !== 'trial') throw new AppError('not-applicable');
  const r = await applyForContract(c.get('deps'), t, c.get('user'), c.get('clientIp'));
  return c.json({ message: r.alreadyApplied ? 'already-applied' : 'success' });
});

