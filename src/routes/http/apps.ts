import { and, count, eq, isNull } from 'drizzle-orm';
import type { Config } from '../../config';
import { prepared, read, readOne, type Placeholders } from '../../db/client';
import { tenantUsers } from '../../db/schema';
import type { AppKey } from '../../shared/sign-in/redirection';
import type { Ctx } from './env';

export function appUrls(config: Config): Record<AppKey, string> {
  return { meishi: config.APP_URL_MEISHI, scheduler: config.APP_URL_SCHEDULER, meishi_operator: config.APP_URL_OPERATOR };
}

export function appPaths(config: Config): string[] {
  return Object.values(appUrls(config)).filter((u) => u.startsWith('/'));
}

const ssoCounts = prepared((db, p: Placeholders<{ tenantId: number }>) =>
  db
    .select({ sso: tenantUsers.isSsoEnabled, n: count() })
    .from(tenantUsers)
    .where(and(eq(tenantUsers.tenantId, p.tenantId), isNull(tenantUsers.deactivatedAt), eq(tenantUsers.invitationPending, false)))
    .groupBy(tenantUsers.isSsoEnabled),
);

export type SsoStatus = 'none' | 'some' | 'all';

/** SSO active-users status of the host tenant (none, some or all of its active members), as a read of a page's batch. */
export function ssoStatusRead(c: Ctx) {
  const tenant = c.get('hostTenant');
  return read({ rows: tenant?.isSsoEnabled ? ssoCounts(c.get('deps').db, { tenantId: tenant.id }) : undefined }, ({ rows }): SsoStatus => {
    const sso = rows?.find((r) => r.sso)?.n ?? 0;
    const total = rows?.reduce((a, r) => a + r.n, 0) ?? 0;
    return sso === 0 ? 'none' : sso === total ? 'all' : 'some';
  });
}

export function ssoStatus(c: Ctx): Promise<SsoStatus> {
  return readOne(c.get('deps').db, ssoStatusRead(c));
}
