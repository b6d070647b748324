// Admin-only tenant settings of spec 02 section 7: tenant URL, IP restriction, two-factor
// enforcement, password policy.
import { Hono } from 'hono';
import { addAllowedIp, deleteAllowedIp, listAllowedIps, setIpRestriction } from '../../domain/tenant-settings/ip-allowlist';
import { tenantOrigin } from '../../domain/tenants/hosts';
import { changeSubdomain, passwordPolicyView, setPasswordPolicy, setTwofaPolicy } from '../../domain/tenant-settings/settings';
import { assertRecentPassword } from '../../domain/twofa/setup';
import {
  confirmAffectedSchema,
  lockoutChangeSchema,
  passwordPolicySaveSchema,
  subdomainSchema,
  twofaSaveSchema,
  whitelistedIpSchema,
} from '../../shared/tenant-settings/schemas';
import { assertConfirmed, previewLockout } from '../../domain/tenant-settings/lockout';
import { AppError } from '../../domain/errors';
import { startHandoff } from '../sign-in/http';
import type { AppEnv } from '../http/env';
import { requireAccess } from '../middleware/guards';
import { idParam } from '../http/params';
import { readJson, readQuery } from '../http/validate';
import { actorOf } from '../http/actor';

export const tenantSettingsApi = new Hono<AppEnv>();

const admin = requireAccess('admin');



tenantSettingsApi.patch('/admin/subdomain', admin, async (c) => {
  const { subdomain } = await readJson(c, subdomainSchema);
  // The admin re-entered their password (POST password/verify) within the last 15 minutes.
  assertRecentPassword(c.get('session'), c.get('deps').clock.now());
  const updated = await changeSubdomain(c.get('deps'), c.get('tenantScope'), subdomain, actorOf(c));
  // The browser moves to the new host through a hand-off, to the same page with status=changed.
  const base = c.get('deps').config.BASE_PATH;
  const { code } = await startHandoff(c, c.get('session'), updated.id, `${base}/admin/tenant-settings?status=changed`);
  const origin = tenantOrigin(updated, c.get('deps').config.PORTAL_DOMAIN, new URL(c.req.url), c.get('https'));
  return c.json({ message: 'success', subdomain: updated.subdomain, initial_subdomain: updated.initialSubdomain, url: `${origin}${base}/handoff?code=${code}` });
});

tenantSettingsApi.get('/admin/whitelisted-ips', admin, async (c) => c.json(await listAllowedIps(c.get('tenantScope'))));

tenantSettingsApi.post('/admin/whitelisted-ips', admin, async (c) => {
  const input = await readJson(c, whitelistedIpSchema);
  return c.json(await addAllowedIp(c.get('deps'), c.get('tenantScope'), input, actorOf(c)), 201);
});

// Who a change would keep out (decision 0043). A read, posted because it describes the change.
// SSO for all users has its own, on the people calls (admins and tenant managers).
tenantSettingsApi.post('/admin/lockout-preview', admin, async (c) => {
  const change = await readJson(c, lockoutChangeSchema);
  if (change.kind === 'sso-for-all') throw new AppError('not-found');
  return c.json(await previewLockout(c.get('deps'), c.get('tenantScope'), change, c.get('clientIp')), 200, { 'Cache-Control': 'no-store' });
});

tenantSettingsApi.delete('/admin/whitelisted-ips/:id', admin, async (c) => {
  const id = idParam(c.req.param('id'));
  const { confirmAffected } = readQuery(c, confirmAffectedSchema);
  await assertConfirmed(c.get('deps'), c.get('tenantScope'), { kind: 'ip-delete', id }, c.get('clientIp'), confirmAffected);
  await deleteAllowedIp(c.get('deps'), c.get('tenantScope'), id, actorOf(c));
  return c.json({ message: 'success' });
});

tenantSettingsApi.patch('/admin/enable-ip-restriction', admin, async (c) => {
  const { confirmAffected } = readQuery(c, confirmAffectedSchema);
  await assertConfirmed(c.get('deps'), c.get('tenantScope'), { kind: 'ip-enable' }, c.get('clientIp'), confirmAffected);
  await setIpRestriction(c.get('deps'), c.get('tenantScope'), true, actorOf(c));
  return c.json({ message: 'success' });
});

tenantSettingsApi.patch('/admin/disable-ip-restriction', admin, async (c) => {
  await setIpRestriction(c.get('deps'), c.get('tenantScope'), false, actorOf(c));
  return c.json({ message: 'success' });
});

tenantSettingsApi.get('/admin/twofa', admin, (c) => {
  const t = c.get('tenantScope').tenant;
  return c.json({ isTwofaEnforced: t.isTwofaEnforced, isTwofaSkipAllowed: t.isTwofaSkipAllowed, passkeyPolicy: t.passkeyPolicy, isFeatureTwofaEnforcementSubscribed: t.isFeatureTwofaEnforcementSubscribed });
});

tenantSettingsApi.post('/admin/twofa', admin, async (c) => {
  const { confirmAffected, ...input } = await readJson(c, twofaSaveSchema);
  await assertConfirmed(c.get('deps'), c.get('tenantScope'), { kind: 'twofa', ...input }, c.get('clientIp'), confirmAffected);
  return c.json({ message: 'success', ...(await setTwofaPolicy(c.get('deps'), c.get('tenantScope'), input, actorOf(c))) });
});

tenantSettingsApi.get('/admin/password-policy', admin, (c) => c.json(passwordPolicyView(c.get('tenantScope').tenant)));

tenantSettingsApi.patch('/admin/password-policy', admin, async (c) => {
  const { confirmAffected, ...input } = await readJson(c, passwordPolicySaveSchema);
  await assertConfirmed(c.get('deps'), c.get('tenantScope'), { kind: 'password-policy', policy: input }, c.get('clientIp'), confirmAffected);
  await setPasswordPolicy(c.get('deps'), c.get('tenantScope'), input, actorOf(c));
  return c.json({ message: 'success', ...input });
});
