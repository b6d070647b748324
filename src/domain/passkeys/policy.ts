// A tenant's passkey policy (decision 0039): passkeys allowed (the default), required for its
// administrators, or required for every member. It takes effect at the next sign-in of each person
// it covers who has no passkey yet: after their password and their own second factor (or the
// emailed new-device code), the sign-in asks them to add one before it gives them a session, as the
// 2FA enforcement does. It is enforced with the 2FA enforcement subscription, on the same screen.
// Members who sign in through their tenant's SSO are never asked: their IdP decides.
import type { Tenant } from '../../db/schema';
import type { Membership } from '../tenants/memberships';

export type PasskeyPolicy = Tenant['passkeyPolicy'];
export const PASSKEY_POLICIES: readonly PasskeyPolicy[] = ['allowed', 'admins', 'everyone'];

/** Whether `tenant`'s policy covers a member with this role. */
export function policyCovers(tenant: Pick<Tenant, 'passkeyPolicy' | 'isFeatureTwofaEnforcementSubscribed'>, isAdmin: boolean): boolean {
  if (!tenant.isFeatureTwofaEnforcementSubscribed) return false;
  return tenant.passkeyPolicy === 'everyone' || (tenant.passkeyPolicy === 'admins' && isAdmin);
}

/**
 * Whether the tenants being entered require this person to have a passkey: the host's tenant (on
 * its host), or, on the main domain, any tenant the person is an active member of (as the 2FA
 * enforcement reads it). Tenant managers are covered only where they are members: the provider's
 * staff are not the tenant's people. Members who sign in with the tenant's SSO are not covered.
 */
export function passkeyRequired(hostTenant: Tenant | null, memberships: Membership[]): boolean {
  // A member who signs in through the tenant's SSO answers to the IdP, not to this policy.
  const active = memberships.filter((m) => m.member.deactivatedAt === null && !(m.tenant.isSsoEnabled && m.member.isSsoEnabled));
  const entered = hostTenant ? active.filter((m) => m.tenant.id === hostTenant.id).map((m) => ({ ...m, tenant: hostTenant })) : active;
  return entered.some((m) => policyCovers(m.tenant, m.member.isAdmin));
}
