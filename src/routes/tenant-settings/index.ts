// Tenant settings (admins only): the tenant URL, the IP allowlist, two-factor enforcement and the
// password policy.
import { Hono } from 'hono';
import type { AppEnv } from '../http/env';
import { feature } from '../http/feature';
import { tenantPage } from '../middleware/guards';
import { tenantSettingsApi } from './api';
import { ipRestrictionPage } from './ip-restriction-page';
import { passwordPolicyPage } from './password-policy-page';
import { tenantSettingsPage } from './tenant-url-page';
import { twofaPolicyPage } from './twofa-policy-page';

export const tenantSettings = feature({
  api: [tenantSettingsApi],
  pages: [
    new Hono<AppEnv>()
      .get('/admin/tenant-settings', tenantPage, tenantSettingsPage)
      .get('/admin/ip-restriction', tenantPage, ipRestrictionPage)
      .get('/admin/twofa', tenantPage, twofaPolicyPage)
      .get('/admin/passwords', tenantPage, passwordPolicyPage),
  ],
});
