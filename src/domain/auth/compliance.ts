// password_compliance returned at login (spec 01 section 4): does the typed password meet the
// policy that applies here, and how guessable is it.
import type { Tenant } from '../../db/schema';
import { meetsPolicy, passwordScore, strictestPolicy, type PasswordPolicy } from '../../shared/password';

export function tenantPolicy(t: Tenant): PasswordPolicy {
  return {
    minimum_password_length: t.minimumPasswordLength,
    is_mixed_case_required: t.isMixedCaseRequired,
    is_number_required: t.isNumberRequired,
    is_special_character_required: t.isSpecialCharacterRequired,
  };
}

/** On a tenant host its policy applies; on the main domain the strictest of the user's tenants. */
export function applicablePolicy(hostTenant: Tenant | null, memberTenants: Tenant[]): PasswordPolicy {
  return hostTenant ? tenantPolicy(hostTenant) : strictestPolicy(memberTenants.map(tenantPolicy));
}

export function passwordCompliance(password: string, email: string, policy: PasswordPolicy) {
  return {
    meets_current_policy: meetsPolicy(password, policy),
    score: passwordScore(password, email),
    policy,
  };
}
export type PasswordCompliance = ReturnType<typeof passwordCompliance>;
