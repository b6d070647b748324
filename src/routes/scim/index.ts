// SCIM provisioning (decision 0040): the admin's "Provisioning (SCIM)" screen and its calls. The
// protocol endpoint itself (service.ts) is mounted by createApp at <base>/scim/v2, outside the API.
import { Hono } from 'hono';
import type { AppEnv } from '../http/env';
import { feature } from '../http/feature';
import { tenantPage } from '../middleware/guards';
import { scimAdminApi } from './api';
import { scimProvisioningPage } from './provisioning-page';

export const scim = feature({ api: [scimAdminApi], pages: [new Hono<AppEnv>().get('/admin/scim', tenantPage, scimProvisioningPage)] });
