// The admin-only tenant-settings screens of spec 02 (the page guard admits admins only, from
// src/shared/routes.ts). Each screen loads its data on the server and hydrates its islands.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { contactDetailsPage } from './contact-details';
import { getMoreServicesPage } from './get-more-services';
import { ipRestrictionPage } from './ip-restriction';
import { ssoSettingPage } from './sso-setting';
import { passwordPolicyPage } from './passwords';
import { subscriptionsPage } from './subscriptions';
import { tenantSettingsPage } from './tenant-settings';
import { twofaPolicyPage } from './twofa';

export const adminSettingsPages = new Hono<AppEnv>();

adminSettingsPages.get('/admin/tenant-settings', tenantSettingsPage);
adminSettingsPages.get('/admin/ip-restriction', ipRestrictionPage);
adminSettingsPages.get('/admin/sso-setting', ssoSettingPage);
adminSettingsPages.get('/admin/twofa', twofaPolicyPage);
adminSettingsPages.get('/admin/passwords', passwordPolicyPage);
adminSettingsPages.get('/admin/contact-details', contactDetailsPage);
adminSettingsPages.get('/admin/subscriptions', subscriptionsPage);
adminSettingsPages.get('/admin/get-more-services', getMoreServicesPage);
