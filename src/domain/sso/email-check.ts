// Whether an email signs in with SSO (the login form's Next and "Log in with SSO" steps, through
// GET saml2/check-using-email[-with-subdomain] or the login page's form): an active membership
// with SSO switched on, in a tenant whose IdP is configured and enabled. Unknown emails answer
// the same as non-SSO ones.
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { samlSettings, tenants, tenantUsers, users } from '../../db/schema';

/**
 * The initial subdomain whose SAML login this email uses, or null. `onlyTenantId` limits the
 * answer to one tenant (on a tenant's host only that tenant counts).
 */
export async function ssoSubdomainForEmail(db: Db, email: string, onlyTenantId?: number): Promise<string | null> {
  const conditions = [
    eq(users.email, email.toLowerCase()),
    isNull(tenantUsers.deactivatedAt),
    eq(tenantUsers.isSsoEnabled, true),
    eq(tenants.isSsoEnabled, true),
    eq(samlSettings.isIdpConfigured, true),
  ];
  if (onlyTenantId !== undefined) conditions.push(eq(tenants.id, onlyTenantId));
  const row = await db
    .select({ initialSubdomain: tenants.initialSubdomain })
    .from(users)
    .innerJoin(tenantUsers, eq(tenantUsers.userId, users.id))
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    // Before anyone signs in the tenant is what this looks for: a join across tenants, not a scope.
    // eslint-disable-next-line no-restricted-syntax
    .innerJoin(samlSettings, eq(samlSettings.tenantId, tenants.id))
    .where(and(...conditions))
    .get();
  return row?.initialSubdomain ?? null;
}
