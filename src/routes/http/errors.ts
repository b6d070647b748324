// An error answer straight from a route or middleware (no exception to throw through): the
// catalogue's status and word for the code (src/shared/error-codes.ts), like app.onError's.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorStatus, wordOf, type ErrorCode } from '../../shared/error-codes';

export function errorAnswer(c: Context, code: ErrorCode, details: Record<string, unknown> = {}): Response {
  return c.json({ message: wordOf(code), ...details }, errorStatus(code) as ContentfulStatusCode);
}
