// Parsing request bodies and queries with the shared zod schemas into the API's error envelope.
import type { Context } from 'hono';
import * as z from 'zod/mini';
import { AppError, text, ValidationError, type FieldText } from '../../domain/errors';

/** The schemas' messages are text keys ("validation.required"), or the spec's verbatim words. */
function toErrors(error: z.core.$ZodError): Record<string, FieldText[]> {
  const out: Record<string, FieldText[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    (out[field] ??= []).push(issue.message.includes('.') && !issue.message.includes(' ') ? text(issue.message) : issue.message);
  }
  return out;
}

export async function readJson<S extends z.ZodMiniType>(c: Context, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new AppError('malformed-json');
  }
  return parseWith(c, schema, body);
}

export function readQuery<S extends z.ZodMiniType>(c: Context, schema: S): z.output<S> {
  return parseWith(c, schema, c.req.query());
}

function parseWith<S extends z.ZodMiniType>(c: Context, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(toErrors(parsed.error));
  return parsed.data;
}
