// Unauthenticated read calls used before sign-in: maintenance messages and the SSO checks.
import { and, eq, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import { samlSettings, tenants, tenantUsers, users } from '../../db/schema';
import { currentMaintenanceMessages } from '../../domain/maintenance';
import { emailQuerySchema } from '../../shared/schemas';
import type { AppEnv, Ctx } from '../env';
import { ssoStatus } from './helpers';
import { readQuery } from './validate';
import { limitPerAddress } from '../middleware/rate-limit';

export const publicApi = new Hono<AppEnv>();

publicApi.get('/maintenance-messages', async (c) => {
  const { db, clock } = c.var.deps;
  return c.json(await currentMaintenanceMessages(db, clock.now(), c.var.lang));
});

publicApi.get('/saml2/check', async (c) => {
  const tenant = c.var.hostTenant;
  const setting = tenant?.isSsoEnabled ? await c.var.deps.db.select({ on: samlSettings.isIdpConfigured }).from(samlSettings).where(eq(samlSettings.tenantId, tenant.id)).get() : undefined;
  return c.json({
    is_idp_configured: Boolean(tenant?.isSsoEnabled && setting?.on),
    initial_subdomain: tenant?.initialSubdomain ?? null,
    statusSSOActiveUsers: await ssoStatus(c),
  });
});

/**
 * Whether an email signs in with SSO: an active membership with SSO switched on, in a tenant
 * whose IdP is configured and enabled. On a subdomain only that tenant counts. Unknown emails
 * answer the same as non-SSO ones.
 */
async function ssoForEmail(c: Ctx, onlyHost: boolean) {
  const { email } = readQuery(c, emailQuerySchema);
  const conditions = [
    eq(users.email, email.toLowerCase()),
    isNull(tenantUsers.deactivatedAt),
    eq(tenantUsers.isSsoEnabled, true),
    eq(tenants.isSsoEnabled, true),
    eq(samlSettings.isIdpConfigured, true),
  ];
  if (onlyHost) {
    if (!c.var.hostTenant) return c.json({ is_idp_configured: false, initial_subdomain: null });
    conditions.push(eq(tenants.id, c.var.hostTenant.id));
  }
  const row = await c.var.deps.db
    .select({ initialSubdomain: tenants.initialSubdomain })
    .from(users)
    .innerJoin(tenantUsers, eq(tenantUsers.userId, users.id))
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .innerJoin(samlSettings, eq(samlSettings.tenantId, tenants.id))
    .where(and(...conditions))
    .get();
  return c.json({ is_idp_configured: Boolean(row), initial_subdomain: row?.initialSubdomain ?? null });
}

// Lookups by email reveal SSO use, so they are rate limited per address: generous enough for an
// office of thousands behind one NAT address signing in at 9:00, far below bulk enumeration.
const lookupLimit = limitPerAddress('sso-check', 600, 10 * 60_000);
publicApi.get('/saml2/check-using-email', lookupLimit, (c) => ssoForEmail(c, false));
publicApi.get('/saml2/check-using-email-with-subdomain', lookupLimit, (c) => ssoForEmail(c, true));
