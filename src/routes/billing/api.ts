// Admin-only billing calls of spec 02 section 7: the primary and billing contacts, contract
// details, requests for more services and the contract application at the end of a trial.
import { Hono } from 'hono';
import { getContacts, createBillingContact, deleteContact, updateContact } from '../../domain/billing/contacts';
import { getContractDetails } from '../../domain/billing/contract';
import { applyForContract, requestMoreServices } from '../../domain/billing/requests';
import { AppError } from '../../domain/errors';
import type { AppEnv } from '../http/env';
import { idParam } from '../http/params';
import { readJson } from '../http/validate';
import { requireAccess } from '../middleware/guards';
import { actorOf } from '../http/actor';
import { contactSchema, moreServicesSchema } from '../../shared/billing/schemas';

export const billingApi = new Hono<AppEnv>();

const admin = requireAccess('admin');


billingApi.get('/admin/tenant-contacts', admin, async (c) => c.json(await getContacts(c.get('tenantScope'))));

billingApi.post('/admin/tenant-contacts/billing-contact', admin, async (c) => {
  const input = await readJson(c, contactSchema);
  return c.json(await createBillingContact(c.get('deps'), c.get('tenantScope'), input, actorOf(c)), 201);
});

billingApi.patch('/admin/tenant-contacts/:id', admin, async (c) => {
  const input = await readJson(c, contactSchema);
  return c.json(await updateContact(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), input, actorOf(c)));
});

billingApi.delete('/admin/tenant-contacts/:id', admin, async (c) => {
  await deleteContact(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), actorOf(c));
  return c.json({ message: 'success' });
});

billingApi.get('/admin/contract-details', admin, async (c) => c.json(await getContractDetails(c.get('tenantScope'))));

billingApi.post('/admin/get-more-services', admin, async (c) => {
  const items = await readJson(c, moreServicesSchema);
  await requestMoreServices(c.get('deps'), c.get('tenantScope'), c.get('user'), items, c.get('clientIp'));
  return c.json({ message: 'success' });
});

billingApi.post('/apply-for-contract', admin, async (c) => {
  const scope = c.get('tenantScope');
  const { status } = scope.tenant;
  if (status !== 'trial_expired_not_yet_contracted' && status !== 'trial') throw new AppError('not-applicable');
  const r = await applyForContract(c.get('deps'), scope, c.get('user'), c.get('clientIp'));
  return c.json({ message: r.alreadyApplied ? 'already-applied' : 'success' });
});

