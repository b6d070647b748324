// How the SCIM endpoint answers (RFC 7644 section 3.1): `application/scim+json` bodies, errors in
// SCIM's error schema. Used by the endpoint itself and by the context middleware, which refuses an
// unknown host before any route runs.
import type { Context } from 'hono';
import { AppError } from '../../domain/errors';
import { ScimError, fromAppError } from '../../domain/scim/errors';

export const SCIM_MEDIA_TYPE = 'application/scim+json';
const HEADERS = { 'Content-Type': `${SCIM_MEDIA_TYPE}; charset=utf-8` };

export function scimJson(c: Context, body: unknown, status: 200 | 201 = 200, headers: Record<string, string> = {}): Response {
  return c.body(JSON.stringify(body), status, { ...HEADERS, ...headers });
}

/** Any error as SCIM's error answer (an AppError of the shared rules in SCIM's words). */
export function scimErrorAnswer(c: Context, err: unknown): Response {
  const e = err instanceof ScimError ? err : err instanceof AppError ? fromAppError(err) : null;
  if (!e) {
    console.error(JSON.stringify({ level: 'error', requestId: c.get('requestId'), path: c.req.path, error: String(err), stack: (err as Error)?.stack }));
    return c.body(JSON.stringify(new ScimError(500, 'server-error').body()), 500, HEADERS);
  }
  const headers: Record<string, string> = { ...HEADERS };
  if (e.status === 401) headers['WWW-Authenticate'] = 'Bearer realm="scim", error="invalid_token"';
  if (e.status === 429 && e.retryAfter) headers['Retry-After'] = String(e.retryAfter);
  return c.body(JSON.stringify(e.body()), e.status, headers);
}

/** The context middleware's refusal of a host that is no tenant's. */
export function scimUnknownHost(c: Context): Response {
  return scimErrorAnswer(c, new ScimError(404, 'unknown-host: SCIM answers on a tenant host, https://<tenant>.<domain>/accounts/scim/v2'));
}
