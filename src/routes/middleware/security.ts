// Security headers on every response, and the CSRF rule of DESIGN.md section 4 for the API:
// state-changing calls need X-Requested-With and an Origin equal to this host's own origin
// (tenants share one registrable domain, so SameSite alone cannot tell them apart).
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/env';
import { errorAnswer } from '../http/errors';

// A page's policy, around its per-response nonce (joined once).
const CSP_HEAD = "default-src 'self'; script-src ";
const CSP_TAIL = [
  " 'strict-dynamic'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// Every other answer (JSON, redirects, text) runs no script and loads nothing: the strictest
// policy, which needs no nonce.
const CSP_NONE = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The nonce of the page being rendered: made on first use, so answers without a page skip it. */
export function pageNonce(c: Context<AppEnv>): string {
  let nonce = c.get('nonce');
  if (nonce === null) {
    nonce = crypto.randomUUID().replaceAll('-', '');
    c.set('nonce', nonce);
  }
  return nonce;
}

const STATIC_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};
const HSTS = 'max-age=31536000; includeSubDomains';

/** Every security header of this request's answer, in one record. */
export function securityHeaderRecord(c: Context<AppEnv>): Record<string, string> {
  const nonce = c.get('nonce');
  const record: Record<string, string> = {
    'Content-Security-Policy': nonce === null ? CSP_NONE : `${CSP_HEAD}'nonce-${nonce}'${CSP_TAIL}`,
    ...STATIC_HEADERS,
    'X-Request-Id': c.get('requestId'),
  };
  if (c.get('https')) record['Strict-Transport-Security'] = HSTS;
  return record;
}

/** Marks an answer that already carries the whole set (see completeAnswer). */
const COMPLETE = Symbol('security headers set');

/** Requests whose handler prepared headers in Hono's context (c.header, setCookie). */
const prepared = new WeakSet<Context>();

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  // Headers prepared before the answer exists live in Hono's context, where only Hono's own way
  // of making an answer merges them: noted here, so completeAnswer knows when it may not skip it.
  const header = c.header;
  c.header = ((name: string, value?: string, options?: { append?: boolean }) => {
    prepared.add(c);
    header(name, value, options);
  }) as typeof c.header;
  await next();
  if ((c.res as { [COMPLETE]?: true })[COMPLETE]) return;
  const h = c.res.headers;
  // The policy and the request id are the portal's; a stricter header a handler chose (the
  // reset page's Referrer-Policy) stands.
  for (const [name, value] of Object.entries(securityHeaderRecord(c))) if (!h.has(name) || name === 'Content-Security-Policy' || name === 'X-Request-Id') h.set(name, value);
  // Nothing the portal renders or answers may be cached by shared caches; signed-in pages and
  // API answers must not be stored at all.
  if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
};

/**
 * An answer created with every header it will carry (the security set, no-store), for pages and
 * the hottest calls. Adding headers to an answer afterwards makes the Node adapter build a
 * Headers object and walk it again (a tenth of a signed-in GET api/user, 5-9% of a screen); a
 * plain record goes straight to the socket. When the handler prepared headers of its own (a
 * cookie, Retry-After), Hono makes the answer so that they are kept, and the middleware adds the
 * set.
 */
export function completeAnswer(
  c: Context<AppEnv>,
  body: string | Uint8Array<ArrayBuffer>,
  status: ContentfulStatusCode,
  contentType: string,
  extra?: Record<string, string>,
): Response {
  if (prepared.has(c)) return c.body(body, status, { 'Content-Type': contentType, ...extra });
  const res = new Response(body, {
    status,
    headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store', ...extra, ...securityHeaderRecord(c) },
  });
  return Object.assign(res, { [COMPLETE]: true as const });
}

/** A JSON answer made whole (completeAnswer). */
export function jsonAnswer(c: Context<AppEnv>, payload: unknown, status: ContentfulStatusCode = 200): Response {
  return completeAnswer(c, JSON.stringify(payload), status, 'application/json');
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths exempt from the rule: exact, or a prefix when the entry ends with "*". */
export function csrfGuard(exemptPaths: string[] = []): MiddlewareHandler<AppEnv> {
  const exact = new Set(exemptPaths.filter((p) => !p.endsWith('*')));
  const prefixes = exemptPaths.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  return async (c, next) => {
    const path = c.req.path;
    if (SAFE.has(c.req.method) || exact.has(path) || prefixes.some((p) => path.startsWith(p))) return next();
    const url = new URL(c.req.url);
    const expected = `${c.get('https') ? 'https' : 'http'}://${url.host}`;
    if (c.req.header('x-requested-with') !== 'XMLHttpRequest' || c.req.header('origin') !== expected) {
      return errorAnswer(c, 'csrf-check-failed');
    }
    // JSON in (multipart only for file uploads); a body of any other type is refused unread.
    const type = c.req.header('content-type');
    if (type !== undefined && !/^application\/json\b/i.test(type) && !/^multipart\/form-data\b/i.test(type)) {
      return errorAnswer(c, 'unsupported-media-type');
    }
    return next();
  };
}
