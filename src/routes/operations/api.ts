// Unauthenticated read calls of running the portal: the maintenance messages of each app.
import { Hono } from 'hono';
import { currentMaintenanceMessages } from '../../domain/operations/maintenance';
import type { AppEnv } from '../http/env';

export const maintenanceApi = new Hono<AppEnv>();

maintenanceApi.get('/maintenance-messages', async (c) => {
  const { db, clock } = c.get('deps');
  return c.json(await currentMaintenanceMessages(db, clock.now(), c.get('lang')));
});
