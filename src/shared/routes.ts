// The route table of both spec documents (paths under the base path). Page guards are driven by
// this table alone: one mechanism, not checks pasted into each handler.
export type Access = 'public' | 'authenticated' | 'admin-or-manager' | 'admin';

export interface RouteDef {
  name: string;
  paths: string[];
  access: Access;
  /** SSO users may not open it (spec 01: /twofa, /verify-password). */
  ssoRestricted?: boolean;
  /** Account-wide: a session a tenant's IdP made is sent to my-account, which explains (decision 0035). */
  personal?: boolean;
  /** Public route that a signed-in user may still open (login, verify, reset, open-meishi-mobile). */
  openWhenAuthenticated?: boolean;
  /** A sub-screen without a drawer entry of its own: the drawer marks this route's entry instead. */
  drawerEntry?: string;
}

export const ROUTES: RouteDef[] = [
  { name: 'login', paths: ['/login', '/'], access: 'public', openWhenAuthenticated: true },
  { name: 'forgot', paths: ['/forgot'], access: 'public' },
  { name: 'reset', paths: ['/reset'], access: 'public', openWhenAuthenticated: true },
  { name: 'enter-otp', paths: ['/otp'], access: 'public' },
  { name: 'backup-login', paths: ['/recovery'], access: 'public' },
  { name: 'setup-twofa-at-login', paths: ['/setup-twofa-at-login'], access: 'public' },
  { name: 'additional-challenge', paths: ['/additional-challenge'], access: 'public' },
  // A passkey a tenant requires, added during the sign-in (decision 0039).
  { name: 'setup-passkey-at-login', paths: ['/setup-passkey-at-login'], access: 'public' },
  { name: 'register', paths: ['/register/:email'], access: 'public' },
  { name: 'verify', paths: ['/verify/:email'], access: 'public', openWhenAuthenticated: true },
  { name: 'open-meishi-mobile', paths: ['/open-meishi-mobile'], access: 'public', openWhenAuthenticated: true },
  { name: 'my-account', paths: ['/my-account', '/security'], access: 'authenticated' },
  { name: 'invitations', paths: ['/invitations'], access: 'authenticated', drawerEntry: 'my-account', personal: true },
  { name: 'twofa', paths: ['/twofa'], access: 'authenticated', ssoRestricted: true, personal: true },
  { name: 'verify-password', paths: ['/verify-password'], access: 'authenticated', ssoRestricted: true, personal: true },
  // The person's passkeys: account-wide, closed to SSO members as two-factor is (decision 0039).
  { name: 'passkeys', paths: ['/passkeys'], access: 'authenticated', ssoRestricted: true, personal: true, drawerEntry: 'my-account' },
  { name: 'saml-login-error', paths: ['/saml-login-error'], access: 'authenticated' },
  { name: 'saml-test-passed', paths: ['/saml-test-passed'], access: 'authenticated' },
  { name: 'admin-user-management', paths: ['/admin/users'], access: 'admin-or-manager' },
  { name: 'admin-deactivated-user-management', paths: ['/admin/deactivated'], access: 'admin-or-manager', drawerEntry: 'admin-user-management' },
  { name: 'admin-department-management', paths: ['/admin/departments'], access: 'admin-or-manager' },
  { name: 'tenant-settings', paths: ['/admin/tenant-settings'], access: 'admin' },
  { name: 'password-policy-settings', paths: ['/admin/passwords'], access: 'admin' },
  { name: 'twofa-settings', paths: ['/admin/twofa'], access: 'admin' },
  { name: 'sso-setting', paths: ['/admin/sso-setting'], access: 'admin' },
  // Not in the spec: SCIM provisioning, decision 0040.
  { name: 'scim-provisioning', paths: ['/admin/scim'], access: 'admin' },
  { name: 'ip-restriction', paths: ['/admin/ip-restriction'], access: 'admin' },
  { name: 'contact-details', paths: ['/admin/contact-details'], access: 'admin' },
  { name: 'subscriptions', paths: ['/admin/subscriptions'], access: 'admin' },
  { name: 'get-more-services', paths: ['/admin/get-more-services'], access: 'admin' },
  // The spec leaves this path open; see docs/decisions/0002-routes-and-guards.md.
  { name: 'activity-logs', paths: ['/admin/activity-logs'], access: 'admin' },
];

const compiled = ROUTES.flatMap((route) =>
  route.paths.map((p) => ({
    route,
    re: new RegExp(`^${p.replace(/:[a-z]+/g, '([^/]+)')}/?$`),
  })),
);

/** The route for a path relative to the base path ("/login", "/admin/users"), or null. */
export function matchRoute(relativePath: string): RouteDef | null {
  for (const { route, re } of compiled) if (re.test(relativePath)) return route;
  return null;
}

export function routeByName(name: string): RouteDef {
  const r = ROUTES.find((x) => x.name === name);
  if (!r) throw new Error(`unknown route ${name}`);
  return r;
}
