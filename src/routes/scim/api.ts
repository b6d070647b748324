// The "Provisioning (SCIM)" screen's calls (admins of the host tenant; endpoint list in
// src/shared/scim/schemas.ts). Tokens and settings need the SSO subscription SCIM comes with.
import { Hono } from 'hono';
import { scimOverview, saveProvisionedApps } from '../../domain/scim/settings';
import { createScimToken, listScimTokens, revokeScimToken } from '../../domain/scim/tokens';
import { isSsoSubscribed } from '../../domain/sso/settings';
import { assertSubscribed } from '../../domain/tenant-settings/settings';
import { scimSettingsSchema, scimTokenCreateSchema } from '../../shared/scim/schemas';
import { actorOf } from '../http/actor';
import type { AppEnv } from '../http/env';
import { idParam } from '../http/params';
import { readJson } from '../http/validate';
import { requireAccess } from '../middleware/guards';

export const scimAdminApi = new Hono<AppEnv>();

const admin = requireAccess('admin');

scimAdminApi.get('/admin/scim', admin, async (c) => c.json(await scimOverview(c.get('deps'), c.get('tenantScope'))));

scimAdminApi.post('/admin/scim/tokens', admin, async (c) => {
  const scope = c.get('tenantScope');
  assertSubscribed(isSsoSubscribed(scope.tenant));
  const input = await readJson(c, scimTokenCreateSchema);
  const deps = c.get('deps');
  const actor = actorOf(c);
  const made = await createScimToken(deps.db, scope.id, input, { userId: actor.userId, name: null, ip: actor.ip, userAgent: actor.userAgent }, deps.clock.now());
  const summary = (await listScimTokens(scope, deps.clock.now())).find((t) => t.id === made.id);
  return c.json({ message: 'success', token: made.token, summary }, 201);
});

scimAdminApi.delete('/admin/scim/tokens/:id', admin, async (c) => {
  await revokeScimToken(c.get('deps'), c.get('tenantScope'), idParam(c.req.param('id')), actorOf(c));
  return c.json({ message: 'success' });
});

scimAdminApi.patch('/admin/scim/settings', admin, async (c) => {
  const scope = c.get('tenantScope');
  assertSubscribed(isSsoSubscribed(scope.tenant));
  const { apps } = await readJson(c, scimSettingsSchema);
  return c.json({ message: 'success', apps: await saveProvisionedApps(c.get('deps'), scope, apps, actorOf(c)) });
});
