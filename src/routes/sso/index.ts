// SAML single sign-on: the service provider (metadata, login, assertion consumer, single logout),
// the admin's settings and the result pages.
import { Hono } from 'hono';
import type { AppEnv } from '../http/env';
import { feature } from '../http/feature';
import { tenantPage } from '../middleware/guards';
import { samlApi } from './api';
import { ssoCheckApi } from './check-api';
import { samlPages } from './result-pages';
import { ssoSettingPage } from './setting-page';

export const sso = feature({ api: [ssoCheckApi, samlApi], pages: [new Hono<AppEnv>().get('/admin/sso-setting', tenantPage, ssoSettingPage), samlPages] });
