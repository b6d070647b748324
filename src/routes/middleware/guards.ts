// Page guards driven by the route table (spec 01 section 2, spec 02 section 2), and the API's
// authentication/role guards. This file is the only place that decides who may open what.
import type { Context, MiddlewareHandler } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { matchRoute, type Access } from '../../shared/routes';
import { API_CATALOG } from '../openapi/catalog';
import { tenantScope } from '../../domain/tenants/scope';
import type { AppEnv, AppVariables, AuthedEnv, TenantEnv } from '../http/env';
import { errorAnswer } from '../http/errors';

/**
 * What the access rules read: any request's variables, however narrowed, one at a time (Hono's
 * `c.var` copies them all on each read; these run several times a request).
 */
interface Who {
  get(key: 'user'): AppVariables['user'];
  get(key: 'member'): AppVariables['member'];
  get(key: 'hostTenant'): AppVariables['hostTenant'];
}

export function isSsoUser(c: Who): boolean {
  return Boolean(c.get('hostTenant')?.isSsoEnabled && c.get('member')?.isSsoEnabled);
}

export function hasAccess(c: Who, access: Access): boolean {
  if (access === 'public') return true;
  const user = c.get('user');
  if (!user) return false;
  if (access === 'authenticated') return true;
  const isAdmin = Boolean(c.get('member')?.isAdmin);
  if (access === 'admin') return isAdmin;
  // Tenant managers only while viewing a tenant from its subdomain.
  return isAdmin || Boolean(user.isTenantManager && c.get('hostTenant'));
}

/**
 * Narrows a request on a tenant's host to TenantEnv: the tenant this request read (never a cached
 * copy: a signed-in request reads it with its session) and its scope. False when any is missing.
 */
function enterTenant(c: Context<TenantEnv>): boolean {
  const freshTenant = c.get('freshTenant');
  if (!c.get('session') || !c.get('user') || !freshTenant) return false;
  c.set('tenantScope', tenantScope(c.get('deps').db, freshTenant));
  return true;
}

export const pageGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const base = c.get('deps').config.BASE_PATH;
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
  const relative = c.req.path === base ? '/' : c.req.path.slice(base.length);
  const route = matchRoute(relative);
  if (!route) return next();
  c.set('route', route);
  const signedIn = Boolean(c.get('user'));
  if (route.access === 'public') {
    if (signedIn && !route.openWhenAuthenticated) return c.redirect(`${base}/my-account`, 302);
    return next();
  }
  if (!signedIn) {
    const url = new URL(c.req.url);
    return c.redirect(`${base}/login?continue=${encodeURIComponent(url.pathname + url.search)}`, 302);
  }
  if (route.ssoRestricted && isSsoUser(c)) return c.redirect(`${base}/my-account`, 302);
  // A session a tenant's IdP made speaks for that tenant only (decision 0035): the account page
  // says what it can do and how to do the rest.
  if (route.personal && c.get('scope')?.kind === 'tenant') return c.redirect(`${base}/my-account?notice=sign-in-required`, 302);
  if (!hasAccess(c, route.access)) return c.redirect(`${base}/my-account`, 302);
  return next();
};

/**
 * Before a screen for signed-in people: the page guard has sent anyone else to the login; this
 * narrows the context to AuthedEnv for the screen.
 */
export const signedInPage: MiddlewareHandler<AuthedEnv> = async (c, next) => {
  if (!c.get('session') || !c.get('user') || !c.get('scope') || !c.get('memberships')) return c.redirect(`${c.get('deps').config.BASE_PATH}/login`, 302);
  return next();
};

/** API: 401 without a session. */
export const requireSession: MiddlewareHandler<AuthedEnv> = async (c, next) => {
  if (!c.get('session') || !c.get('user')) return errorAnswer(c, 'unauthenticated');
  return next();
};

/** API: 401 without a session, 403 unless the caller administers this host's tenant. */
export function requireAccess(access: 'admin' | 'admin-or-manager'): MiddlewareHandler<TenantEnv> {
  return async (c, next) => {
    if (!c.get('session') || !c.get('user')) return errorAnswer(c, 'unauthenticated');
    if (!hasAccess(c, access) || !enterTenant(c)) return errorAnswer(c, 'forbidden');
    return next();
  };
}

/**
 * Before a tenant administration screen: the page guard has decided who may open it (from the
 * route table); this narrows the context to TenantEnv for the screen, and sends anyone else to
 * their account.
 */
export const tenantPage: MiddlewareHandler<TenantEnv> = async (c, next) => {
  const route = c.get('route');
  if (!route || route.access === 'public' || route.access === 'authenticated' || !hasAccess(c, route.access) || !enterTenant(c)) {
    return c.redirect(`${c.get('deps').config.BASE_PATH}/my-account`, 302);
  }
  return next();
};

// Every call the API catalog marks `person`, matched with the same path syntax the routes use.
const personCalls = new TrieRouter<true>();
for (const o of API_CATALOG) if (o.access === 'person') personCalls.add(o.method, o.path, true);

/** Whether `method path` (relative to `<base>/api`) is a call the catalog marks `person`. */
export function isPersonCall(method: string, path: string): boolean {
  return personCalls.match(method === 'HEAD' ? 'GET' : method, path)[0].length > 0;
}

/**
 * API: the one place that keeps a session an IdP made out of the person's account-wide calls
 * (password, two-factor, remembered devices, invitations): `sign-in-required`, decision 0035.
 * Only such sessions pay for the lookup.
 */
export function personScopeGuard(apiBase: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('scope')?.kind === 'tenant' && isPersonCall(c.req.method, c.req.path.slice(apiBase.length))) {
      return errorAnswer(c, 'sign-in-required');
    }
    return next();
  };
}
