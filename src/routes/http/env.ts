import type { Context } from 'hono';
import type { Deps } from '../../deps';
import type { Session, Tenant, TenantUser, User } from '../../db/schema';
import type { Lang, T } from '../../shared/i18n';
import type { RouteDef } from '../../shared/routes';
import type { Membership } from '../../domain/tenants/memberships';
import type { FreshTenant } from '../../domain/tenants/hosts';
import type { SessionScope } from '../../domain/sign-in/scope';
import type { TenantScope } from '../../domain/tenants/scope';

export interface AppVariables {
  deps: Deps;
  requestId: string;
  /** The CSP nonce of a rendered page (security.ts pageNonce); null until a page asks for it. */
  nonce: string | null;
  https: boolean;
  clientIp: string | null;
  /** Tenant of the request's host; null on the main domain. On a signed-out read it may come from
   *  the per-process cache: for showing, never for deciding (see `freshTenant`). */
  hostTenant: Tenant | null;
  /** The host's tenant as this request read it from the database (null: the main domain), or
   *  undefined when it came from the cache (a signed-out read). Decision 0035. */
  freshTenant: FreshTenant | null | undefined;
  session: Session | null;
  user: User | null;
  member: TenantUser | null;
  /** The signed-in user's memberships the session may see (its scope's), read with the session
   *  (null when signed out). */
  memberships: Membership[] | null;
  /** Whom the session speaks for: the person, or the tenant whose IdP made it (decision 0035). */
  scope: SessionScope | null;
  lang: Lang;
  t: T;
  route: RouteDef | null;
  /** The host tenant's queries for an admin or tenant manager; set by the tenant guards only. */
  tenantScope: TenantScope | null;
}

export type AppEnv = { Variables: AppVariables };
/**
 * A context as the helpers shared by many routes read it: a request's, however far its guards
 * narrowed it (a narrowed context reads more, so it is one of these; `Context` itself would refuse
 * it, since its `set` accepts only the narrow values). Through it only the page nonce is set.
 */
type Reading<E extends { Variables: AppVariables }> = Omit<Context<E>, 'set'> & { set(key: 'nonce', value: string): void };
export type Ctx = Reading<AppEnv>;

/** Variables narrowed by the authentication guard (the only place that narrows them). */
export type AuthedEnv = {
  Variables: AppVariables & { session: Session; user: User; scope: SessionScope; memberships: Membership[] };
};

/** A signed-in request's context (API guard `requireSession`, screens `signedInPage`). */
export type SignedInCtx = Reading<AuthedEnv>;

/**
 * Variables on a tenant's host for its admins and tenant managers, narrowed by `requireAccess`
 * (API) and `tenantPage` (screens): the tenant (read by this request), its scope, the session
 * and the user are all present.
 */
export type TenantEnv = {
  Variables: AuthedEnv['Variables'] & { hostTenant: Tenant; freshTenant: FreshTenant; tenantScope: TenantScope };
};
export type TenantCtx = Context<TenantEnv>;

export const SESSION_COOKIE = 'portal_session';
export const CHALLENGE_COOKIE = 'portal_login_challenge';
export const LOCALE_COOKIE = 'portal_locale';

/**
 * Cookie name: `__Host-` prefix under https (host-only, Secure, Path=/ enforced by browsers).
 * A portal under another base path (staging at /staging-accounts on the same hosts) names its
 * cookies apart, since Path=/ cookies of one host would otherwise overwrite each other.
 */
export function cookieName(c: Ctx, base: string): string {
  const basePath = c.get('deps').config.BASE_PATH;
  const name = basePath === '/accounts' ? base : `${base}_${basePath.slice(1).replace(/[^A-Za-z0-9]+/g, '_')}`;
  return c.get('https') ? `__Host-${name}` : name;
}

/**
 * The host's tenant for a decision (a sign-in, a state change): read by this request, never a
 * cached copy. Signed-in requests and state changes read it with the request; a signed-out read
 * that must decide something reads it itself (the hand-off reads its tenant after claiming the code).
 */
export function decidingTenant(c: Ctx): FreshTenant | null {
  const t = c.get('freshTenant');
  if (t === undefined) throw new Error('a cached tenant cannot decide access: read it afresh');
  return t;
}
