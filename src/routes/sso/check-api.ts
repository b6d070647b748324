// The SSO checks a login page makes before anyone signs in (spec 01 "SSO status at startup",
// "Email-first mode"): whether the host signs in with SAML, and whether an email does.
import { Hono } from 'hono';
import { ssoSubdomainForEmail } from '../../domain/sso/email-check';
import { idpConfigured } from '../../domain/sso/settings';
import { tenantScope } from '../../domain/tenants/scope';
import { emailQuerySchema } from '../../shared/schemas';
import type { AppEnv, Ctx } from '../http/env';
import { ssoStatus } from '../http/apps';
import { readQuery } from '../http/validate';
import { ssoLookupLimit } from './http';

export const ssoCheckApi = new Hono<AppEnv>();

ssoCheckApi.get('/saml2/check', async (c) => {
  const tenant = c.get('hostTenant');
  return c.json({
    is_idp_configured: Boolean(tenant?.isSsoEnabled && (await idpConfigured(tenantScope(c.get('deps').db, tenant)))),
    initial_subdomain: tenant?.initialSubdomain ?? null,
    statusSSOActiveUsers: await ssoStatus(c),
  });
});

/** Whether an email signs in with SSO (domain/sso/email-check.ts); on a subdomain only that tenant counts. */
async function ssoForEmail(c: Ctx, onlyHost: boolean) {
  const { email } = readQuery(c, emailQuerySchema);
  const host = c.get('hostTenant');
  if (onlyHost && !host) return c.json({ is_idp_configured: false, initial_subdomain: null });
  const subdomain = await ssoSubdomainForEmail(c.get('deps').db, email, onlyHost ? host?.id : undefined);
  return c.json({ is_idp_configured: subdomain !== null, initial_subdomain: subdomain });
}

ssoCheckApi.get('/saml2/check-using-email', ssoLookupLimit, (c) => ssoForEmail(c, false));
ssoCheckApi.get('/saml2/check-using-email-with-subdomain', ssoLookupLimit, (c) => ssoForEmail(c, true));
