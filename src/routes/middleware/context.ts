// First middleware, and the one place that decides who is asking: deps, request id, client
// address, protocol; the host's tenant and, with a session cookie, the session, user and
// memberships, read together in one statement (domain/sign-in/request-auth.ts) and admitted by the
// account rules (session.ts); then the language. One step instead of a chain of three keeps the
// hottest calls cheap and leaves no window in which a later middleware sees half a decision.
import type { MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import { parse as parseCookies } from 'hono/utils/cookie';
import type { Deps } from '../../deps';
import { readRequestAuth, type RequestAuth } from '../../domain/sign-in/request-auth';
import { hostLabel, rememberHost, resolveHost } from '../../domain/tenants/hosts';
import { cookieName, LOCALE_COOKIE, SESSION_COOKIE, type AppEnv } from '../http/env';
import { anonymousLang, setLang } from './locale';
import { admitSession } from './session';
import { renderErrorPage } from '../http/page';
import { errorAnswer } from '../http/errors';
import { scimUnknownHost } from '../scim/http';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function contextMiddleware(base: Deps): MiddlewareHandler<AppEnv> {
  const ttlMs = base.config.HOST_CACHE_SECONDS * 1000;
  return async (c, next) => {
    c.set('deps', base);
    const { runtime } = base;
    c.set('https', runtime.isHttps(c.req.raw, c.env));
    // The cookies this step reads (session, bookmark, language), each looked up by name: the rest
    // of a browser's Cookie header (analytics and the like) is never decoded.
    const cookieHeader = runtime.header(c.req.raw, c.env, 'cookie');
    const cookie = (name: string) => (cookieHeader ? parseCookies(cookieHeader, name)[name] : undefined);
    // Workers: this request's own D1 session, continuing from the browser's bookmark.
    const hostname = new URL(c.req.url).hostname;
    const label = hostLabel(hostname, base.config.PORTAL_DOMAIN);
    // The SCIM endpoint's only credential is its bearer token: a session cookie is not read there.
    const scim = c.req.path.startsWith(`${base.config.BASE_PATH}/scim/`);
    const token = label === undefined || scim ? undefined : cookie(cookieName(c, SESSION_COOKIE));
    const bookmarkCookie = base.dbScopes ? cookieName(c, D1_BOOKMARK_COOKIE) : '';
    const bookmark = base.dbScopes ? cookie(bookmarkCookie) ?? null : null;
    // A state change, and every request that brings a session, starts at the primary: who is
    // asking is never decided from a replica that has not yet seen a revocation (decision 0035).
    // Signed-out reads decide nothing and follow the browser's bookmark on any replica.
    const scope = base.dbScopes?.open(bookmark, !READS.has(c.req.method) || Boolean(token)) ?? null;
    const deps = scope ? { ...base, db: scope.db } : base;
    c.set('deps', deps);
    // randomUUID draws from a pooled buffer: two small random reads per request cost more.
    c.set('requestId', runtime.requestId(c.req.raw) ?? crypto.randomUUID());
    // Made when a page is rendered (security.ts pageNonce); other answers carry no script.
    c.set('nonce', null);
    c.set('clientIp', runtime.clientIp(c.req.raw, c.env));
    c.set('session', null);
    c.set('user', null);
    c.set('member', null);
    c.set('memberships', null);
    c.set('scope', null);
    c.set('freshTenant', undefined);
    c.set('route', null);
    c.set('tenantScope', null);
    // The tenant comes from the URL's hostname (the Host header on Node; workerd's SELF.fetch
    // sends no Host header, only the URL): `label` above.
    let tenant: AppEnv['Variables']['hostTenant'] | undefined;
    // What this request read from the database itself (undefined: the cache answered).
    let fresh: AppEnv['Variables']['freshTenant'];
    let found: RequestAuth['found'] = null;
    if (label !== undefined && token) {
      const auth = await readRequestAuth(deps.db, label, token, deps.clock.now());
      tenant = fresh = label === null ? null : auth.tenant ?? undefined;
      if (label !== null) rememberHost(deps.db, label, auth.tenant, ttlMs);
      found = auth.found;
    } else {
      // Signed out: a short-lived cache for reads; a state change reads the tenant afresh.
      const host = await resolveHost(deps.db, hostname, deps.config.PORTAL_DOMAIN, { ttlMs, fresh: !READS.has(c.req.method) });
      tenant = host.kind === 'unknown' ? undefined : host.kind === 'tenant' ? host.tenant : null;
      fresh = host.kind === 'main' ? null : host.kind === 'tenant' && !host.cached ? host.tenant : undefined;
    }
    c.set('hostTenant', tenant ?? null);
    c.set('freshTenant', fresh);
    const refusal = tenant !== undefined && found ? admitSession(c, found) : null;
    setLang(c, c.get('user')?.language ?? anonymousLang(c, cookie(LOCALE_COOKIE)));
    const api = c.req.path.startsWith(`${deps.config.BASE_PATH}/api/`);
    if (tenant === undefined) {
      c.res = scim ? scimUnknownHost(c) : api ? errorAnswer(c, 'unknown-host') : renderErrorPage(c, 404, 'errors.unknown-host');
    } else if (refusal) {
      c.res = api ? c.json({ message: refusal }, 403) : renderErrorPage(c, 403, `errors.${refusal}`);
    } else {
      await next();
    }
    if (scope) {
      const next = scope.bookmark();
      // Not a secret (a position in the database's history): the browser only carries it back.
      if (next && next !== bookmark) setCookie(c, bookmarkCookie, next, { path: '/', httpOnly: true, sameSite: 'Lax', secure: c.get('https') });
      if (deps.config.DEV_MODE) {
        c.header('X-D1-Round-Trips', String(scope.roundTrips()));
        c.header('X-D1-Session-Start', scope.start);
      }
    }
  };
}

/** Host-only like the session cookie (named the same way); each tenant host follows its own writes. */
const D1_BOOKMARK_COOKIE = 'portal_d1_bookmark';
