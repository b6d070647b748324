// Tenant settings an admin changes (spec 02): custom subdomain, two-factor enforcement and the
// password policy. Every change is audited.
import { and, eq, ne, or } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { tenants, type Tenant } from '../../db/schema';
import type { PasswordPolicy } from '../../shared/account/password-strength';
import { AppError, isUniqueViolation } from '../errors';
import { audit } from '../audit/log';
import { tenantPolicy } from '../account/password-compliance';
import { forgetHosts } from '../tenants/hosts';
import type { TenantScope } from '../tenants/scope';

/** Labels no tenant may take: our own hosts and names that invite phishing. */
export const RESERVED_SUBDOMAINS = new Set([
  'www', 'api', 'admin', 'accounts', 'account', 'mail', 'smtp', 'imap', 'pop', 'ftp', 'ns1', 'ns2', 'app', 'apps', 'portal',
  'static', 'assets', 'cdn', 'staging', 'staging-accounts', 'dev', 'test', 'demo', 'support', 'help', 'docs', 'status',
  'login', 'logout', 'auth', 'sso', 'saml', 'oauth', 'id', 'meishi', 'scheduler', 'operator', 'billing', 'security', 'localhost',
]);

export interface Actor {
  userId: number;
  ip: string | null;
}

/**
 * PATCH admin/subdomain. A label already used by any tenant, as custom or initial subdomain, or
 * reserved, is refused with one answer (`could-not-change`), so the call does not list tenants.
 */
export async function changeSubdomain(deps: Deps, scope: TenantScope, label: string | null, actor: Actor): Promise<Tenant> {
  const { db, clock } = deps;
  const next = label ? label.toLowerCase() : null;
  if (next === scope.tenant.subdomain) return scope.tenant;
  if (next !== null) {
    if (RESERVED_SUBDOMAINS.has(next)) throw new AppError('could-not-change');
    const taken = await db
      .select({ id: tenants.id })
      .from(tenants)
      .where(and(ne(tenants.id, scope.id), or(eq(tenants.subdomain, next), eq(tenants.initialSubdomain, next))))
      .get();
    // The tenant's own initial label would make the custom one pointless.
    if (taken || next === scope.tenant.initialSubdomain) throw new AppError('could-not-change');
  }
  const now = clock.now();
  let updated: Tenant | undefined;
  try {
    updated = await scope.updateTenant({ subdomain: next, updatedAt: now }).returning().get();
  } catch (e) {
    // tenant_hosts (kept by a trigger in this statement) caught a concurrent claim of the label.
    if (isUniqueViolation(e, 'tenant_hosts') || isUniqueViolation(e, 'tenants')) throw new AppError('could-not-change');
    throw e;
  }
  forgetHosts(db);
  await audit(db, { tenantId: scope.id, actorUserId: actor.userId, action: 'tenant.subdomain_changed', ipAddress: actor.ip, details: { from: scope.tenant.subdomain, to: next } }, now);
  return updated!;
}

export function assertSubscribed(flag: boolean): void {
  if (!flag) throw new AppError('feature-not-subscribed');
}

/**
 * POST /admin/twofa: takes effect at the next sign-in of each member without 2FA. The passkey
 * policy is on the same screen (decision 0039): absent, it stays as it is.
 */
export async function setTwofaPolicy(
  deps: Deps,
  scope: TenantScope,
  p: { isTwofaEnforced: boolean; isTwofaSkipAllowed: boolean; passkeyPolicy?: Tenant['passkeyPolicy'] },
  actor: Actor,
) {
  assertSubscribed(scope.tenant.isFeatureTwofaEnforcementSubscribed);
  const now = deps.clock.now();
  const passkeyPolicy = p.passkeyPolicy ?? scope.tenant.passkeyPolicy;
  await scope.updateTenant({ isTwofaEnforced: p.isTwofaEnforced, isTwofaSkipAllowed: p.isTwofaSkipAllowed, passkeyPolicy, updatedAt: now });
  forgetHosts(deps.db);
  const result = { isTwofaEnforced: p.isTwofaEnforced, isTwofaSkipAllowed: p.isTwofaSkipAllowed, passkeyPolicy };
  await audit(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: 'tenant.twofa_policy_changed', ipAddress: actor.ip, details: result }, now);
  if (passkeyPolicy !== scope.tenant.passkeyPolicy) {
    await audit(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: 'tenant.passkey_policy_changed', ipAddress: actor.ip, details: { from: scope.tenant.passkeyPolicy, to: passkeyPolicy } }, now);
  }
  return result;
}

export function passwordPolicyView(t: Tenant) {
  const p = tenantPolicy(t);
  return {
    minimumPasswordLength: p.minimum_password_length,
    isMixedCaseRequired: p.is_mixed_case_required,
    isNumberRequired: p.is_number_required,
    isSpecialCharacterRequired: p.is_special_character_required,
  };
}

/** PATCH /admin/password-policy: used by every password form; checked again at each login. */
export async function setPasswordPolicy(deps: Deps, scope: TenantScope, p: ReturnType<typeof passwordPolicyView>, actor: Actor): Promise<PasswordPolicy> {
  const now = deps.clock.now();
  const updated = await deps.db
    .update(tenants)
    .set({
      minimumPasswordLength: p.minimumPasswordLength,
      isMixedCaseRequired: p.isMixedCaseRequired,
      isNumberRequired: p.isNumberRequired,
      isSpecialCharacterRequired: p.isSpecialCharacterRequired,
      passwordPolicyUpdatedAt: now,
      updatedAt: now,
    })
    .where(eq(tenants.id, scope.id))
    .returning()
    .get();
  forgetHosts(deps.db);
  await audit(deps.db, { tenantId: scope.id, actorUserId: actor.userId, action: 'tenant.password_policy_changed', ipAddress: actor.ip, details: p }, now);
  return tenantPolicy(updated!);
}
