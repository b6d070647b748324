// The audit log (admins only): the activity-log screen and its CSV export.
import { Hono } from 'hono';
import type { AppEnv } from '../http/env';
import { feature } from '../http/feature';
import { tenantPage } from '../middleware/guards';
import { activityLogsPage } from './activity-logs-page';
import { auditApi } from './api';

export const audit = feature({ api: [auditApi], pages: [new Hono<AppEnv>().get('/admin/activity-logs', tenantPage, activityLogsPage)] });
