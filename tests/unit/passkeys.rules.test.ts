// The pure rules of passkeys (decision 0039): whom a tenant's policy covers, the RP ID, the name a
// new passkey gets, and what a person may call it.
import { describe, expect, it } from 'vitest';
import type { Tenant, TenantUser } from '../../src/db/schema';
import { cleanName } from '../../src/domain/passkeys/credentials';
import { providerName, suggestedName } from '../../src/domain/passkeys/names';
import { passkeyRequired, policyCovers } from '../../src/domain/passkeys/policy';
import { rpId, sharedRelyingParty } from '../../src/domain/passkeys/relying-party';
import type { Membership } from '../../src/domain/tenants/memberships';

const tenant = (id: number, p: Partial<Tenant> = {}) =>
  ({ id, name: `t${id}`, passkeyPolicy: 'allowed', isFeatureTwofaEnforcementSubscribed: true, isSsoEnabled: false, ...p }) as Tenant;
const membership = (t: Tenant, m: Partial<TenantUser> = {}): Membership => ({ tenant: t, member: { isAdmin: false, deactivatedAt: null, isSsoEnabled: false, ...m } as TenantUser, apps: ['meishi'] });

describe('policyCovers / passkeyRequired', () => {
  it('allowed covers nobody, admins covers admins, everyone covers every member', () => {
    expect(policyCovers(tenant(1), true)).toBe(false);
    expect(policyCovers(tenant(1, { passkeyPolicy: 'admins' }), true)).toBe(true);
    expect(policyCovers(tenant(1, { passkeyPolicy: 'admins' }), false)).toBe(false);
    expect(policyCovers(tenant(1, { passkeyPolicy: 'everyone' }), false)).toBe(true);
  });

  it('needs the 2FA enforcement subscription', () => {
    expect(policyCovers(tenant(1, { passkeyPolicy: 'everyone', isFeatureTwofaEnforcementSubscribed: false }), true)).toBe(false);
  });

  it('on a tenant host only that tenant decides; on the main domain any active membership', () => {
    const strict = tenant(2, { passkeyPolicy: 'everyone' });
    const lax = tenant(1);
    const ms = [membership(lax), membership(strict)];
    expect(passkeyRequired(lax, ms)).toBe(false);
    expect(passkeyRequired(strict, ms)).toBe(true);
    expect(passkeyRequired(null, ms)).toBe(true);
    expect(passkeyRequired(null, [membership(lax), membership(strict, { deactivatedAt: 1 })])).toBe(false);
  });

  it('members who sign in through the tenant\'s SSO are left to their IdP', () => {
    const sso = tenant(1, { passkeyPolicy: 'everyone', isSsoEnabled: true });
    expect(passkeyRequired(sso, [membership(sso, { isSsoEnabled: true })])).toBe(false);
    expect(passkeyRequired(sso, [membership(sso, { isSsoEnabled: false })])).toBe(true);
  });
});

describe('rpId', () => {
  it('is PORTAL_DOMAIN when it has a dot, for every host under it', () => {
    const c = { PORTAL_DOMAIN: 'portal.example.com' };
    expect(sharedRelyingParty(c)).toBe(true);
    expect(rpId(c, 'https://acme.portal.example.com')).toBe('portal.example.com');
    expect(rpId(c, 'https://portal.example.com')).toBe('portal.example.com');
  });

  it('is the host itself under a single-label PORTAL_DOMAIN (browsers refuse "localhost" on its subdomains)', () => {
    const c = { PORTAL_DOMAIN: 'localhost' };
    expect(sharedRelyingParty(c)).toBe(false);
    expect(rpId(c, 'http://acme.localhost:8787')).toBe('acme.localhost');
    expect(rpId(c, 'http://localhost:8787')).toBe('localhost');
  });
});

describe('names', () => {
  it('well-known AAGUIDs name their provider, any case', () => {
    expect(providerName('fbfc3007-154e-4ecc-8c0b-6e020557d7bd')).toBe('iCloud Keychain');
    expect(providerName('EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4')).toBe('Google Password Manager');
    expect(providerName('00000000-0000-0000-0000-000000000000')).toBeNull();
  });

  it('an unknown model is named after the browser and system it was made in', () => {
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
    expect(suggestedName('00000000-0000-0000-0000-000000000000', ua)).toBe('Chrome 130 (Windows 10)');
    expect(suggestedName('00000000-0000-0000-0000-000000000000', null)).toBe('Passkey');
  });

  it('a name is trimmed, 1 to 64 characters, without control characters', () => {
    expect(cleanName('  Work phone \u0007')).toBe('Work phone');
    expect(cleanName('   ')).toBeNull();
    expect(cleanName('x'.repeat(65))).toBeNull();
    expect(cleanName('仕事用の iPhone')).toBe('仕事用の iPhone');
  });
});
