// The admin screens of spec 02: the tenant-settings screens (admins only) and the people screens
// (admins and tenant managers); the page guard applies src/shared/routes.ts. Each screen loads
// its data on the server and hydrates its islands.
import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { activityLogsPage } from './activity-logs';
import { contactDetailsPage } from './contact-details';
import { deactivatedPageScreen } from './deactivated';
import { departmentsPageScreen } from './departments';
import { getMoreServicesPage } from './get-more-services';
import { ipRestrictionPage } from './ip-restriction';
import { ssoSettingPage } from './sso-setting';
import { passwordPolicyPage } from './passwords';
import { subscriptionsPage } from './subscriptions';
import { tenantSettingsPage } from './tenant-settings';
import { twofaPolicyPage } from './twofa';
import { usersPageScreen } from './users';

export const adminSettingsPages = new Hono<AppEnv>();

adminSettingsPages.get('/admin/tenant-settings', tenantSettingsPage);
adminSettingsPages.get('/admin/ip-restriction', ipRestrictionPage);
adminSettingsPages.get('/admin/sso-setting', ssoSettingPage);
adminSettingsPages.get('/admin/twofa', twofaPolicyPage);
adminSettingsPages.get('/admin/passwords', passwordPolicyPage);
adminSettingsPages.get('/admin/contact-details', contactDetailsPage);
adminSettingsPages.get('/admin/subscriptions', subscriptionsPage);
adminSettingsPages.get('/admin/get-more-services', getMoreServicesPage);
// The people screens (admin or tenant manager, by the same route table).
adminSettingsPages.get('/admin/users', usersPageScreen);
adminSettingsPages.get('/admin/deactivated', deactivatedPageScreen);
adminSettingsPages.get('/admin/departments', departmentsPageScreen);
adminSettingsPages.get('/admin/activity-logs', activityLogsPage);
