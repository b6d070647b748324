// The tenant's provisioning settings (decision 0040): "apps for provisioned people", the apps a
// person SCIM creates is given. Until an admin chooses, the tenant's first contracted app (the
// card app when contracted), so the seats a provisioning run can take are those of one app. The
// seats themselves are checked by the statement that creates the person (seatGuard).
import type { Config } from '../../config';
import type { Deps } from '../../deps';
import { scimSettings, type Tenant } from '../../db/schema';
import { SCIM_APPS, type ScimApp, type ScimOverview } from '../../shared/scim/schemas';
import { auditInsert } from '../audit/log';
import { AppError } from '../errors';
import { combine, read, readOne } from '../../db/client';
import { allowedAppsRead } from '../people/lists';
import { contractedApps } from '../people/members';
import { isSsoSubscribed } from '../sso/settings';
import { scopedRead, type TenantScope } from '../tenants/scope';
import { scimTokensQuery, tokenSummaries } from './tokens';

const isScimApp = (a: string): a is ScimApp => (SCIM_APPS as readonly string[]).includes(a);

/** The contracted apps SCIM can give (card app first). */
export async function contractedScimApps(scope: TenantScope): Promise<{ key: ScimApp; seats: number | null }[]> {
  const rows = await contractedApps(scope);
  return rows
    .filter((r): r is typeof r & { app: ScimApp } => isScimApp(r.app))
    .map((r) => ({ key: r.app, seats: r.seats }))
    .sort((a, b) => SCIM_APPS.indexOf(a.key) - SCIM_APPS.indexOf(b.key));
}

/** The apps for provisioned people: the admin's choice, else the first contracted app. */
export async function provisionedApps(scope: TenantScope): Promise<ScimApp[]> {
  const row = await scope.db.select({ apps: scimSettings.apps }).from(scimSettings).where(scope.own(scimSettings)).get();
  const chosen = (row?.apps ?? []).filter(isScimApp);
  if (chosen.length) return chosen;
  const first = (await contractedScimApps(scope))[0];
  return first ? [first.key] : [];
}

/** PATCH admin/scim/settings: every app must be contracted. */
export async function saveProvisionedApps(deps: Deps, scope: TenantScope, apps: ScimApp[], actor: { userId: number; ip: string | null; userAgent: string | null }): Promise<ScimApp[]> {
  const contracted = (await contractedScimApps(scope)).map((a) => a.key);
  const unique = [...new Set(apps)].sort((a, b) => SCIM_APPS.indexOf(a) - SCIM_APPS.indexOf(b));
  const missing = unique.find((a) => !contracted.includes(a));
  if (missing) throw new AppError('app-not-contracted', { app: missing });
  const now = deps.clock.now();
  await deps.db.batch([
    scope
      .insert(scimSettings, { apps: unique, updatedAt: now })
      .onConflictDoUpdate({ target: scimSettings.tenantId, set: { apps: unique, updatedAt: now } }),
    auditInsert(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: 'scim.settings_updated', targetType: 'tenant', targetId: scope.id, ipAddress: actor.ip, userAgent: actor.userAgent, details: { apps: unique } }, now),
  ]);
  return unique;
}

/**
 * The SCIM base URL an IdP is given: on the tenant's INITIAL subdomain, which never changes (as the
 * SAML entity id, decision 0015), so a later custom subdomain does not break provisioning. The
 * endpoint answers on the custom subdomain as well.
 */
export function scimBaseUrl(config: Pick<Config, 'PUBLIC_URL' | 'BASE_PATH'>, tenant: Pick<Tenant, 'initialSubdomain'>): string {
  const u = new URL(config.PUBLIC_URL);
  return `${u.protocol}//${tenant.initialSubdomain}.${u.host}${config.BASE_PATH}/scim/v2`;
}

/**
 * GET admin/scim and the screen: what the screen shows, in one batch (the tokens, the setting,
 * the contracted apps and their free seats), so the screen takes two round trips in all.
 */
const settingRow = scopedRead((s) => s.db.select({ apps: scimSettings.apps }).from(scimSettings).where(s.own(scimSettings)));

export function scimOverviewRead(deps: Deps, scope: TenantScope) {
  const subscribed = isSsoSubscribed(scope.tenant);
  const now = deps.clock.now();
  return combine(
    {
      seats: allowedAppsRead(scope),
      own: read(
        {
          tokens: subscribed ? scimTokensQuery(scope) : undefined,
          setting: settingRow(scope, {}),
        },
        (rows) => rows,
      ),
    },
    ({ seats, own }): ScimOverview => {
      const contracted = seats.filter((a): a is typeof a & { key: ScimApp } => isScimApp(a.key));
      const chosen = (own.setting[0]?.apps ?? []).filter(isScimApp);
      return {
        subscribed,
        baseUrl: scimBaseUrl(deps.config, scope.tenant),
        tokens: own.tokens ? tokenSummaries(own.tokens, now) : [],
        apps: chosen.length ? chosen : contracted.slice(0, 1).map((a) => a.key),
        contractedApps: contracted.map((a) => ({ key: a.key, seats: a.seats, availableSeats: a.availableSeats })),
        ssoEnabled: scope.tenant.isSsoEnabled,
      };
    },
  );
}

export function scimOverview(deps: Deps, scope: TenantScope): Promise<ScimOverview> {
  return readOne(scope.db, scimOverviewRead(deps, scope));
}
