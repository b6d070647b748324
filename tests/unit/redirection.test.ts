import { describe, expect, it } from 'vitest';
import { afterTenantChosen, decideRedirection, redirectionShortcuts, redirectionStep, type RedirectionInput } from '../../src/shared/sign-in/redirection';

const appUrls = { meishi: '/meishi/', scheduler: '/scheduler/', meishi_operator: '/operator/' };
const acme = { id: 1, name: 'Acme', hostLabel: 'acme', apps: ['meishi', 'scheduler'] as const };
const globex = { id: 2, name: 'Globex', hostLabel: 'globex-jp', apps: ['meishi'] as const };
const base = (over: Partial<RedirectionInput>): RedirectionInput => ({
  tenants: [],
  hostTenantId: null,
  isTenantManager: false,
  continuePath: null,
  basePath: '/accounts',
  appUrls,
  ...over,
});

describe('redirection after login (spec 01 "Redirection")', () => {
  it('main domain, several tenants: shows the organisation chooser', () => {
    expect(decideRedirection(base({ tenants: [{ ...acme, apps: [...acme.apps] }, { ...globex, apps: [...globex.apps] }] }))).toEqual({ kind: 'choose-tenant' });
  });

  it('main domain, one tenant: auto-selected and moved to its host, straight to its only app', () => {
    expect(decideRedirection(base({ tenants: [{ ...globex, apps: ['meishi'] }] }))).toEqual({ kind: 'switch-tenant', tenantId: 2, path: '/meishi/' });
  });

  it('main domain, tenant manager with a tenant-manager continue path goes straight there', () => {
    expect(decideRedirection(base({ isTenantManager: true, continuePath: '/operator/tenant-manager' }))).toEqual({ kind: 'go', url: '/operator/tenant-manager' });
  });

  it('on a subdomain the current tenant is used: two apps -> app chooser', () => {
    expect(decideRedirection(base({ tenants: [{ ...acme, apps: ['meishi', 'scheduler'] }], hostTenantId: 1 }))).toEqual({ kind: 'choose-app', apps: ['meishi', 'scheduler'] });
  });

  it('zero apps -> accounts my-account; one app -> that app', () => {
    expect(decideRedirection(base({ tenants: [{ ...acme, apps: [] }], hostTenantId: 1 }))).toEqual({ kind: 'go', url: '/accounts/my-account' });
    expect(decideRedirection(base({ tenants: [{ ...acme, apps: ['scheduler'] }], hostTenantId: 1 }))).toEqual({ kind: 'go', url: '/scheduler/' });
  });

  it('continue wins when it targets accounts or an app the user has', () => {
    const t = [{ ...acme, apps: ['meishi' as const] }];
    expect(decideRedirection(base({ tenants: t, hostTenantId: 1, continuePath: '/accounts/admin/users?x=1' }))).toEqual({ kind: 'go', url: '/accounts/admin/users?x=1' });
    expect(decideRedirection(base({ tenants: t, hostTenantId: 1, continuePath: '/meishi/cards' }))).toEqual({ kind: 'go', url: '/meishi/cards' });
    // Not subscribed to the scheduler: continue is ignored, the one app is opened.
    expect(decideRedirection(base({ tenants: t, hostTenantId: 1, continuePath: '/scheduler/x' }))).toEqual({ kind: 'go', url: '/meishi/' });
  });

  it('on a subdomain the user does not belong to: the chooser', () => {
    expect(decideRedirection(base({ tenants: [{ ...globex, apps: ['meishi'] }], hostTenantId: 1 }))).toEqual({ kind: 'choose-tenant' });
  });

  it('choosing another tenant with several apps moves host and asks for the app there', () => {
    const input = base({ tenants: [{ ...acme, apps: ['meishi', 'scheduler'] }], hostTenantId: 2, continuePath: '/' });
    expect(afterTenantChosen(input, input.tenants[0]!)).toEqual({ kind: 'switch-tenant', tenantId: 1, path: '/accounts/login?continue=%2F' });
  });
});

describe('the redirection dialog numbers the steps it shows (decision 0033)', () => {
  it('the organisation chooser is step 1 of 2, the app chooser after it step 2 of 2', () => {
    expect(redirectionStep('choose-tenant', true)).toEqual({ step: 1, total: 2 });
    expect(redirectionStep('choose-app', true)).toEqual({ step: 2, total: 2 });
  });
  it('the app chooser alone is the only step: no "Step 2 / 2" when step 1 was skipped', () => {
    expect(redirectionStep('choose-app', false)).toBeNull();
  });
});

describe('the redirection dialog\'s other ways (issue 27 part 4)', () => {
  const onAcme = (over: Partial<RedirectionInput>, isAdmin: boolean) =>
    redirectionShortcuts(base({ tenants: [{ ...acme, apps: [...acme.apps], isAdmin }], hostTenantId: 1, ...over }));

  it('offers my account to everyone, the administration to an admin of this host\'s tenant', () => {
    expect(onAcme({}, false)).toEqual({ myAccount: '/accounts/my-account', administration: null });
    expect(onAcme({}, true)).toEqual({ myAccount: '/accounts/my-account', administration: '/accounts/admin/users' });
  });

  it('an admin of another tenant only is no admin here', () => {
    const input = base({ tenants: [{ ...acme, apps: [...acme.apps], isAdmin: false }, { ...globex, apps: [...globex.apps], isAdmin: true }], hostTenantId: 1 });
    expect(redirectionShortcuts(input).administration).toBeNull();
  });

  it('a tenant manager on a tenant host may administer; nobody does on the main domain', () => {
    expect(onAcme({ isTenantManager: true }, false).administration).toBe('/accounts/admin/users');
    const main = base({ tenants: [{ ...acme, apps: [...acme.apps], isAdmin: true }, { ...globex, apps: [...globex.apps], isAdmin: true }], isTenantManager: true });
    expect(redirectionShortcuts(main)).toEqual({ myAccount: '/accounts/my-account', administration: null });
  });
});
