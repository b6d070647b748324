// Parsing request bodies and queries with the shared zod schemas into the API's error envelope.
import type { Context } from 'hono';
import * as z from 'zod/mini';
import { AppError, ValidationError } from '../../domain/errors';
import type { T } from '../../shared/i18n';

function toErrors(error: z.core.$ZodError, t: T): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    const text = issue.message.includes('.') ? t(issue.message) : issue.message;
    (out[field] ??= []).push(text);
  }
  return out;
}

export async function readJson<S extends z.ZodMiniType>(c: Context, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new AppError('malformed-json', 400);
  }
  return parseWith(c, schema, body);
}

export function readQuery<S extends z.ZodMiniType>(c: Context, schema: S): z.output<S> {
  return parseWith(c, schema, c.req.query());
}

function parseWith<S extends z.ZodMiniType>(c: Context, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(toErrors(parsed.error, c.get('t') as T));
  return parsed.data;
}
