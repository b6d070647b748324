// The user payload of GET /accounts/api/user and the login response (spec 01 section 3).
import type { Tenant, User } from '../../db/schema';
import type { Membership } from '../tenants/memberships';
import type { SessionScope } from '../sign-in/scope';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function tenantSummary(m: Membership) {
  const t = m.tenant;
  return {
    id: t.id,
    name: t.name,
    subdomain: t.subdomain,
    initial_subdomain: t.initialSubdomain,
    status: t.status,
    is_admin: m.member.isAdmin,
    is_deactivated: m.member.deactivatedAt !== null,
    is_user_subscribed_to_meishi: m.apps.includes('meishi'),
    is_user_subscribed_to_scheduler: m.apps.includes('scheduler'),
    is_user_subscribed_to_meishi_operator: m.apps.includes('meishi_operator'),
    apps: m.apps,
  };
}

export function currentTenantSummary(t: Tenant) {
  return {
    id: t.id,
    name: t.name,
    subdomain: t.subdomain,
    initial_subdomain: t.initialSubdomain,
    status: t.status,
    feature_sso_users_limit: t.featureSsoUsersLimit,
    is_feature_ip_restriction_subscribed: t.isFeatureIpRestrictionSubscribed,
    isFeatureIpRestrictionSubscribed: t.isFeatureIpRestrictionSubscribed,
    is_feature_twofa_enforcement_subscribed: t.isFeatureTwofaEnforcementSubscribed,
    isFeatureTwofaEnforcementSubscribed: t.isFeatureTwofaEnforcementSubscribed,
    is_sso_enabled: t.isSsoEnabled,
    is_ip_restriction_enabled: t.isIpRestrictionEnabled,
    isIPRestrictionEnabled: t.isIpRestrictionEnabled,
    is_twofa_enforced: t.isTwofaEnforced,
    is_twofa_skip_allowed: t.isTwofaSkipAllowed,
  };
}

/**
 * `memberships` are the ones the session may see (its scope's). A session a tenant's IdP made
 * does not learn the person's SMS number either: it is their second factor, not the tenant's.
 */
export function userPayload(user: User, memberships: Membership[], hostTenant: Tenant | null, scope: SessionScope) {
  const active = memberships.filter((m) => m.member.deactivatedAt === null);
  const current = hostTenant ? active.find((m) => m.tenant.id === hostTenant.id) ?? null : null;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    contact_number: scope.kind === 'person' ? user.contactNumber : null,
    twofa_method: user.twofaMethod,
    email_verified_at: iso(user.emailVerifiedAt),
    language: user.language,
    is_tenant_manager: user.isTenantManager,
    tenants: active.map(tenantSummary),
    current_tenant: hostTenant ? currentTenantSummary(hostTenant) : null,
    isAuthenticated: true,
    isAdmin: current?.member.isAdmin ?? false,
    isTenantManager: user.isTenantManager,
    isTwofaEnabled: user.twofaMethod !== null,
    isSsoEnabled: Boolean(hostTenant?.isSsoEnabled && current?.member.isSsoEnabled),
  };
}
export type UserPayload = ReturnType<typeof userPayload>;
