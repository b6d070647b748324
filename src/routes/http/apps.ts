import { and, count, eq, isNull } from 'drizzle-orm';
import type { Config } from '../../config';
import { tenantUsers } from '../../db/schema';
import type { AppKey } from '../../shared/sign-in/redirection';
import type { Ctx } from './env';

export function appUrls(config: Config): Record<AppKey, string> {
  return { meishi: config.APP_URL_MEISHI, scheduler: config.APP_URL_SCHEDULER, meishi_operator: config.APP_URL_OPERATOR };
}

export function appPaths(config: Config): string[] {
  return Object.values(appUrls(config)).filter((u) => u.startsWith('/'));
}

/** SSO active-users status of the host tenant: none, some or all of its active members. */
export async function ssoStatus(c: Ctx): Promise<'none' | 'some' | 'all'> {
  const tenant = c.get('hostTenant');
  if (!tenant?.isSsoEnabled) return 'none';
  const rows = await c.get('deps').db
    .select({ sso: tenantUsers.isSsoEnabled, n: count() })
    .from(tenantUsers)
    .where(and(eq(tenantUsers.tenantId, tenant.id), isNull(tenantUsers.deactivatedAt), eq(tenantUsers.invitationPending, false)))
    .groupBy(tenantUsers.isSsoEnabled);
  const sso = rows.find((r) => r.sso)?.n ?? 0;
  const total = rows.reduce((a, r) => a + r.n, 0);
  return sso === 0 ? 'none' : sso === total ? 'all' : 'some';
}
