// The SSO status of a tenant's active members (spec 01 login, spec 02 users screen): none, some or
// all of the accepted, not deactivated members have SSO on. The login page and the users screen
// count them in their own statements; this is the one rule that names the status.
import { count, eq, isNull } from 'drizzle-orm';
import { read, type Db } from '../../db/client';
import { tenantUsers, type Tenant } from '../../db/schema';
import { scopedRead, tenantScope } from '../tenants/scope';

export type SsoStatus = 'none' | 'some' | 'all';

/** `sso` of `accepted` active members have SSO on; a tenant with SSO off is "none". */
export function ssoStatusOf(ssoEnabled: boolean, sso: number, accepted: number): SsoStatus {
  return !ssoEnabled || sso === 0 ? 'none' : sso === accepted ? 'all' : 'some';
}

const ssoCounts = scopedRead((s) =>
  s.db
    .select({ sso: tenantUsers.isSsoEnabled, n: count() })
    .from(tenantUsers)
    .where(s.own(tenantUsers, isNull(tenantUsers.deactivatedAt), eq(tenantUsers.invitationPending, false)))
    .groupBy(tenantUsers.isSsoEnabled),
);

/** The host tenant's status (none without a tenant), as a read of a page's batch. */
export function ssoStatusRead(db: Db, tenant: Tenant | null) {
  return read({ rows: tenant?.isSsoEnabled ? ssoCounts(tenantScope(db, tenant), {}) : undefined }, ({ rows }): SsoStatus =>
    ssoStatusOf(Boolean(tenant?.isSsoEnabled), rows?.find((r) => r.sso)?.n ?? 0, rows?.reduce((a, r) => a + r.n, 0) ?? 0),
  );
}
