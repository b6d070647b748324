// password_compliance returned at login (spec 01 section 4): does the typed password meet the
// policy that applies here, and how guessable is it.
import type { Tenant } from '../../db/schema';
import { meetsPolicy, packTraits, passwordScore, passwordTraits, strictestPolicy, type PasswordPolicy } from '../../shared/account/password-strength';

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

/** `knownScore`: the score stored when the password was set; computed only when missing. */
export function passwordCompliance(password: string, email: string, policy: PasswordPolicy, knownScore: number | null = null) {
  return {
    meets_current_policy: meetsPolicy(password, policy),
    score: knownScore ?? passwordScore(password, email),
    policy,
  };
}

/** The columns every way of setting a password writes (hash, time, strength). */
export async function passwordColumns(passwords: { hash(p: string): Promise<string> }, password: string, email: string, now: number) {
  return { passwordHash: await passwords.hash(password), passwordChangedAt: now, passwordScore: passwordScore(password, email), passwordTraits: packTraits(passwordTraits(password)), updatedAt: now };
}
export type PasswordCompliance = ReturnType<typeof passwordCompliance>;
