// Security headers on every response, and the CSRF rule of DESIGN.md section 4 for the API:
// state-changing calls need X-Requested-With and an Origin equal to this host's own origin
// (tenants share one registrable domain, so SameSite alone cannot tell them apart).
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

// The policy around the per-request nonce, joined once.
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

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const nonce = c.get('nonce');
  const h = c.res.headers;
  h.set('Content-Security-Policy', `${CSP_HEAD}'nonce-${nonce}'${CSP_TAIL}`);
  h.set('X-Content-Type-Options', 'nosniff');
  h.set('X-Frame-Options', 'DENY');
  h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  h.set('Cross-Origin-Opener-Policy', 'same-origin');
  h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  h.set('X-Request-Id', c.get('requestId'));
  if (c.get('https')) h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  // Nothing the portal renders or answers may be cached by shared caches; signed-in pages and
  // API answers must not be stored at all.
  if (!h.has('Cache-Control')) h.set('Cache-Control', 'no-store');
};

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
      return c.json({ message: 'csrf-check-failed' }, 403);
    }
    // JSON in (multipart only for file uploads); a body of any other type is refused unread.
    const type = c.req.header('content-type');
    if (type !== undefined && !/^application\/json\b/i.test(type) && !/^multipart\/form-data\b/i.test(type)) {
      return c.json({ message: 'unsupported-media-type' }, 415);
    }
    return next();
  };
}
