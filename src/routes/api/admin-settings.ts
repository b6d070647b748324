// Admin-only tenant settings of spec 02 section 7: tenant URL, IP restriction, two-factor
// enforcement, password policy, contacts, contract details, more services, contract application.
import { Hono } from 'hono';
import { getContacts, createBillingContact, deleteContact, updateContact } from '../../domain/billing/contacts';
import { getContractDetails } from '../../domain/billing/contract';
import { applyForContract, requestMoreServices } from '../../domain/billing/requests';
import { AppError } from '../../domain/errors';
import { addAllowedIp, deleteAllowedIp, listAllowedIps, setIpRestriction } from '../../domain/security/ip-policy';
import { tenantOrigin } from '../../domain/tenants/hosts';
import { changeSubdomain, passwordPolicyView, setPasswordPolicy, setTwofaPolicy, type Actor } from '../../domain/tenants/settings';
import { assertRecentPassword } from '../../domain/twofa/setup';
import {
  contactSchema,
  moreServicesSchema,
  passwordPolicySchema,
  subdomainSchema,
  twofaPolicySchema,
  whitelistedIpSchema,
} from '../../shared/admin-schemas';
import { startHandoff } from '../auth-helpers';
import type { AppEnv, AuthedEnv } from '../env';
import { requireAccess } from '../middleware/guards';
import { readJson } from './validate';

export const adminSettingsApi = new Hono<AppEnv>();

const admin = requireAccess('admin');

type Admin = { var: AuthedEnv['Variables'] };
/** The admin's tenant (the guard guarantees a host tenant with an admin membership). */
const tenantOf = (c: Admin) => c.var.hostTenant!;
const actorOf = (c: Admin): Actor => ({ userId: c.var.user.id, ip: c.var.clientIp });

function idParam(value: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('not-found', 404);
  return id;
}

adminSettingsApi.patch('/admin/subdomain', admin, async (c) => {
  const { subdomain } = await readJson(c, subdomainSchema);
  // The admin re-entered their password (POST password/verify) within the last 15 minutes.
  assertRecentPassword(c.get('session'), c.get('deps').clock.now());
  const updated = await changeSubdomain(c.get('deps'), tenantOf(c), subdomain, actorOf(c));
  // The browser moves to the new host through a hand-off, to the same page with status=changed.
  const base = c.get('deps').config.BASE_PATH;
  const { code } = await startHandoff(c, c.get('session'), updated.id, `${base}/admin/tenant-settings?status=changed`);
  const origin = tenantOrigin(updated, c.get('deps').config.PORTAL_DOMAIN, new URL(c.req.url), c.get('https'));
  return c.json({ message: 'success', subdomain: updated.subdomain, initial_subdomain: updated.initialSubdomain, url: `${origin}${base}/handoff?code=${code}` });
});

adminSettingsApi.get('/admin/whitelisted-ips', admin, async (c) => c.json(await listAllowedIps(c.get('deps'), tenantOf(c))));

adminSettingsApi.post('/admin/whitelisted-ips', admin, async (c) => {
  const input = await readJson(c, whitelistedIpSchema);
  return c.json(await addAllowedIp(c.get('deps'), tenantOf(c), input, actorOf(c)), 201);
});

adminSettingsApi.delete('/admin/whitelisted-ips/:id', admin, async (c) => {
  await deleteAllowedIp(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), actorOf(c));
  return c.json({ message: 'success' });
});

adminSettingsApi.patch('/admin/enable-ip-restriction', admin, async (c) => {
  await setIpRestriction(c.get('deps'), tenantOf(c), true, actorOf(c));
  return c.json({ message: 'success' });
});

adminSettingsApi.patch('/admin/disable-ip-restriction', admin, async (c) => {
  await setIpRestriction(c.get('deps'), tenantOf(c), false, actorOf(c));
  return c.json({ message: 'success' });
});

adminSettingsApi.get('/admin/twofa', admin, (c) => {
  const t = tenantOf(c);
  return c.json({ isTwofaEnforced: t.isTwofaEnforced, isTwofaSkipAllowed: t.isTwofaSkipAllowed, isFeatureTwofaEnforcementSubscribed: t.isFeatureTwofaEnforcementSubscribed });
});

adminSettingsApi.post('/admin/twofa', admin, async (c) => {
  const input = await readJson(c, twofaPolicySchema);
  return c.json({ message: 'success', ...(await setTwofaPolicy(c.get('deps'), tenantOf(c), input, actorOf(c))) });
});

adminSettingsApi.get('/admin/password-policy', admin, (c) => c.json(passwordPolicyView(tenantOf(c))));

adminSettingsApi.patch('/admin/password-policy', admin, async (c) => {
  const input = await readJson(c, passwordPolicySchema);
  await setPasswordPolicy(c.get('deps'), tenantOf(c), input, actorOf(c));
  return c.json({ message: 'success', ...input });
});

adminSettingsApi.get('/admin/tenant-contacts', admin, async (c) => c.json(await getContacts(c.get('deps'), tenantOf(c))));

adminSettingsApi.post('/admin/tenant-contacts/billing-contact', admin, async (c) => {
  const input = await readJson(c, contactSchema);
  return c.json(await createBillingContact(c.get('deps'), tenantOf(c), input, actorOf(c)), 201);
});

adminSettingsApi.patch('/admin/tenant-contacts/:id', admin, async (c) => {
  const input = await readJson(c, contactSchema);
  return c.json(await updateContact(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), input, actorOf(c)));
});

adminSettingsApi.delete('/admin/tenant-contacts/:id', admin, async (c) => {
  await deleteContact(c.get('deps'), tenantOf(c), idParam(c.req.param('id')), actorOf(c));
  return c.json({ message: 'success' });
});

adminSettingsApi.get('/admin/contract-details', admin, async (c) => c.json(await getContractDetails(c.get('deps'), tenantOf(c))));

adminSettingsApi.post('/admin/get-more-services', admin, async (c) => {
  const items = await readJson(c, moreServicesSchema);
  await requestMoreServices(c.get('deps'), tenantOf(c), c.get('user'), items, c.get('clientIp'));
  return c.json({ message: 'success' });
});

adminSettingsApi.post('/apply-for-contract', admin, async (c) => {
  const t = tenantOf(c);
  if (t.status !== 'trial_expired_not_yet_contracted' && t.status !== 'trial') throw new AppError('not-applicable', 409);
  const r = await applyForContract(c.get('deps'), t, c.get('user'), c.get('clientIp'));
  return c.json({ message: r.alreadyApplied ? 'already-applied' : 'success' });
});

