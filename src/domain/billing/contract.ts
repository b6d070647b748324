// GET admin/contract-details (spec 02 "Contract details"): contract dates and limits from the
// provider's records, active accounts counted from the memberships.
import { isNull, sql } from 'drizzle-orm';
import { read, readOne } from '../../db/client';
import { contractDetails, tenantApps, tenantUsers } from '../../db/schema';
import { scopedRead, type TenantScope } from '../tenants/scope';

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

/** The contract's figures as one batch: the provider's record, the apps, and the members counted once. */
// Built once (src/db/client.ts `prepared`); the scope fills in the tenant.
const contractRow = scopedRead((s) => s.db.select().from(contractDetails).where(s.own(contractDetails)).limit(1));
const contractedApps = scopedRead((s) => s.db.select().from(tenantApps).where(s.own(tenantApps)));
const seatCounts = scopedRead((s) =>
  s.db
    .select({
      meishi: sql<number>`coalesce(sum(${tenantUsers.meishiAccessGrantedAt} is not null), 0)`,
      scheduler: sql<number>`coalesce(sum(${tenantUsers.schedulerAccessGrantedAt} is not null), 0)`,
      sso: sql<number>`coalesce(sum(${tenantUsers.isSsoEnabled}), 0)`,
    })
    .from(tenantUsers)
    .where(s.own(tenantUsers, isNull(tenantUsers.deactivatedAt), isNull(tenantUsers.operationStatus))),
);

export function contractRead(scope: TenantScope) {
  return read(
    { cd: contractRow(scope, {}), apps: contractedApps(scope, {}), counts: seatCounts(scope, {}) },
    ({ cd: [cd], apps, counts: [n] }) => contractView(scope, cd, apps, { meishi: Number(n?.meishi ?? 0), scheduler: Number(n?.scheduler ?? 0), sso: Number(n?.sso ?? 0) }),
  );
}

export function getContractDetails(scope: TenantScope) {
  return readOne(scope.db, contractRead(scope));
}

function contractView(
  scope: TenantScope,
  cd: typeof contractDetails.$inferSelect | undefined,
  apps: (typeof tenantApps.$inferSelect)[],
  { meishi, scheduler, sso }: { meishi: number; scheduler: number; sso: number },
) {
  const app = (key: 'meishi' | 'scheduler') => apps.find((a) => a.app === key);
  return {
    status: scope.tenant.status,
    trial_ends_at: iso(cd?.trialEndsAt),
    contract_starts_at: iso(cd?.contractStartsAt),
    contract_ends_at: iso(cd?.contractEndsAt),
    contract_renews_at: iso(cd?.contractRenewsAt),
    // null = unlimited (spec 02 section 9); an app not contracted has no seats.
    meishi_users_limit: app('meishi') ? app('meishi')!.seats : 0,
    meishi_active_accounts: meishi,
    is_tenant_subscribed_to_scheduler: Boolean(app('scheduler')),
    scheduler_users_limit: app('scheduler') ? app('scheduler')!.seats : 0,
    scheduler_active_accounts: scheduler,
    feature_negotiations_users_limit: cd?.featureNegotiationsUsersLimit ?? 0,
    negotiations_active_accounts: cd?.negotiationsActiveAccounts ?? 0,
    feature_bulk_email_monthly_limit: cd?.featureBulkEmailMonthlyLimit ?? 0,
    bulk_email_monthly_usage: cd?.bulkEmailMonthlyUsage ?? 0,
    is_feature_kintone_subscribed: cd?.isFeatureKintoneSubscribed ?? false,
    is_feature_salesforce_subscribed: cd?.isFeatureSalesforceSubscribed ?? false,
    is_feature_relation_subscribed: cd?.isFeatureRelationSubscribed ?? false,
    is_feature_geniee_subscribed: cd?.isFeatureGenieeSubscribed ?? false,
    feature_sso_users_limit: scope.tenant.featureSsoUsersLimit,
    sso_active_accounts: sso,
    is_feature_ip_restriction_subscribed: scope.tenant.isFeatureIpRestrictionSubscribed,
    feature_scanner_app_keys_limit: cd?.featureScannerAppKeysLimit ?? 0,
    scanner_app_active_keys: cd?.scannerAppActiveKeys ?? 0,
  };
}
