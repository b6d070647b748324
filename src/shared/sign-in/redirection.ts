// The redirection step after login (spec 01 "Redirection"), as a pure decision shared by the
// server (tests, authenticated visits to login) and the redirection island.
export type AppKey = 'meishi' | 'scheduler' | 'meishi_operator';

export interface RedirectTenant {
  id: number;
  name: string;
  /** Host label the tenant is reached at: custom subdomain if set, else initial. */
  hostLabel: string;
  apps: AppKey[];
  /** An admin of this tenant: the dialog offers its administration (issue 27 part 4). */
  isAdmin?: boolean;
}

export interface RedirectionInput {
  tenants: RedirectTenant[];
  /** Tenant of the current host; null on the main domain. */
  hostTenantId: number | null;
  isTenantManager: boolean;
  /** Already checked with safeContinuePath. */
  continuePath: string | null;
  basePath: string;
  appUrls: Record<AppKey, string>;
}

export type Decision =
  | { kind: 'choose-tenant' }
  | { kind: 'go'; url: string }
  | { kind: 'switch-tenant'; tenantId: number; path: string }
  | { kind: 'choose-app'; apps: AppKey[] };

export function decideRedirection(input: RedirectionInput): Decision {
  const { tenants, hostTenantId, isTenantManager, continuePath, basePath } = input;
  const myAccount = `${basePath}/my-account`;
  if (isTenantManager && continuePath?.includes('tenant-manager')) return { kind: 'go', url: continuePath };

  if (hostTenantId === null) {
    if (tenants.length === 0) return { kind: 'go', url: myAccount };
    if (tenants.length > 1) return { kind: 'choose-tenant' };
    return afterTenantChosen(input, tenants[0]!);
  }
  const current = tenants.find((t) => t.id === hostTenantId);
  if (current) return afterTenantChosen(input, current);
  // A tenant manager viewing a tenant they are not a member of stays on its host.
  if (isTenantManager) return { kind: 'go', url: continuePath && continuePath !== '/' ? continuePath : myAccount };
  return tenants.length === 0 ? { kind: 'go', url: myAccount } : { kind: 'choose-tenant' };
}

/** Step 2: where to go once a tenant is chosen. Switches host when it is not the current one. */
export function afterTenantChosen(input: RedirectionInput, tenant: RedirectTenant): Decision {
  const local = decideApp(input, tenant);
  if (tenant.id === input.hostTenantId) return local;
  // On another host, the app chooser runs again there (login page of that host).
  const path = local.kind === 'go' ? local.url : `${input.basePath}/login${continueQuery(input.continuePath)}`;
  return { kind: 'switch-tenant', tenantId: tenant.id, path };
}

function decideApp(input: RedirectionInput, tenant: RedirectTenant): Decision {
  const { continuePath, basePath, appUrls } = input;
  if (continuePath && continuePath !== '/' && targetsAllowedApp(continuePath, tenant, basePath, appUrls)) {
    return { kind: 'go', url: continuePath };
  }
  const apps = tenant.apps.filter((a) => a === 'meishi' || a === 'scheduler');
  if (apps.length === 0) return { kind: 'go', url: `${basePath}/my-account` };
  if (apps.length === 1) return { kind: 'go', url: appUrls[apps[0]!] };
  return { kind: 'choose-app', apps };
}

function targetsAllowedApp(path: string, tenant: RedirectTenant, basePath: string, appUrls: Record<AppKey, string>) {
  if (path === basePath || path.startsWith(basePath + '/')) return true;
  return tenant.apps.some((app) => path.startsWith(appUrls[app]));
}

function continueQuery(continuePath: string | null) {
  return continuePath ? `?continue=${encodeURIComponent(continuePath)}` : '';
}

/**
 * The ways beside the apps the redirection dialog offers (issue 27 part 4, decision 0044): "My
 * account" to everyone, and "Administration" to an admin of the tenant of this host and to a
 * tenant manager on a tenant's host. Paths on this host: the organisation chooser (main domain,
 * no tenant yet) offers only the account.
 */
export function redirectionShortcuts(input: RedirectionInput): { myAccount: string; administration: string | null } {
  const host = input.hostTenantId === null ? undefined : input.tenants.find((t) => t.id === input.hostTenantId);
  const mayAdminister = input.hostTenantId !== null && (input.isTenantManager || host?.isAdmin === true);
  return { myAccount: `${input.basePath}/my-account`, administration: mayAdminister ? `${input.basePath}/admin/users` : null };
}

/**
 * The "Step n / total" line of the redirection dialog, numbered by the steps this person is shown
 * (decision 0033): the organisation chooser is step 1 of 2; the app chooser is step 2 of 2 after
 * it, and alone it is the only step, which needs no number (null).
 */
export function redirectionStep(kind: 'choose-tenant' | 'choose-app', tenantChooserShown: boolean): { step: number; total: number } | null {
  if (kind === 'choose-tenant') return { step: 1, total: 2 };
  return tenantChooserShown ? { step: 2, total: 2 } : null;
}
