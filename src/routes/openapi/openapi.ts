// OpenAPI 3.1 description generated from the API catalog and its zod schemas (zod 4's JSON Schema
// output is draft 2020-12, the dialect OpenAPI 3.1 uses). Nothing here is written by hand per call.
import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { Config } from '../../config';
import type { AppEnv } from '../http/env';
import { API_CATALOG, type ApiOperation } from './catalog';

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodMiniType): Json {
  // io "input": what a client sends (defaults optional, transforms described by their input).
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

/** ":id" -> "{id}", ":method{app|sms}" -> "{method}" (with the alternatives as an enum). */
export function openApiPath(honoPath: string): { path: string; params: { name: string; values?: string[] }[] } {
  const params: { name: string; values?: string[] }[] = [];
  const path = honoPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\{([^}]*)\})?/g, (_m, name: string, _g, pattern?: string) => {
    params.push({ name, values: pattern && /^[\w|-]+$/.test(pattern) ? pattern.split('|') : undefined });
    return `{${name}}`;
  });
  return { path, params };
}

const COMMON_ERRORS: Record<string, string> = {
  '401': 'Not signed in (`unauthenticated`), or for operator calls a missing or invalid bearer token (`invalid-token`).',
  '403': 'Not allowed: `forbidden`, `csrf-check-failed`, `restricted-ip`, or for operator calls `insufficient-scope`.',
  '404': 'Not found (also another tenant\'s objects): `not-found`, `unknown-host`.',
  '422': 'Validation failed: `{"message": "The given data was invalid.", "errors": {"field": ["text"]}}`.',
  '429': 'Throttled: `{"message": "too-many-attempts", "duration": <seconds>}` with Retry-After.',
};

function operation(o: ApiOperation): Json {
  const { params } = openApiPath(o.path);
  const parameters: Json[] = params.map((p) => ({ name: p.name, in: 'path', required: true, schema: p.values ? { type: 'string', enum: p.values } : { type: 'string' } }));
  if (o.query) {
    const q = jsonSchema(o.query) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(q.properties ?? {})) {
      parameters.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema });
    }
  }
  // A session a tenant's IdP made may not use a person-wide call (decision 0035).
  const errors = [...new Set([...o.errors, ...(o.access === 'person' ? ['sign-in-required'] : [])])];
  const responses: Json = {
    [String(o.status ?? 200)]: { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } },
  };
  for (const [status, description] of Object.entries(COMMON_ERRORS)) {
    if (status === '422' && !o.body && !o.query) continue;
    if ((status === '401' || status === '403') && o.access === 'public' && !o.csrfExempt && o.method === 'GET') continue;
    responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  responses.default = {
    description: `Error envelope. Code words: ${errors.length ? errors.map((e) => `\`${e}\``).join(', ') : 'the common ones above'}.`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  const security =
    o.access === 'operator' ? [{ operatorToken: o.scope ? [o.scope] : [] }] : o.access === 'authenticated' || o.access === 'person' || o.access === 'admin' || o.access === 'admin-or-manager' ? [{ sessionCookie: [] }] : [];
  return {
    operationId: `${o.method.toLowerCase()}${openApiPath(o.path).path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
    summary: o.summary,
    tags: [o.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(o.body) } } } } : {}),
    responses,
    security,
    'x-access': o.access,
    ...(o.scope ? { 'x-scope': o.scope } : {}),
    'x-error-codes': errors,
    ...(o.csrfExempt || o.access === 'operator' ? { 'x-csrf-exempt': true } : {}),
  };
}

export function buildOpenApi(config: Pick<Config, 'BASE_PATH' | 'PUBLIC_URL' | 'version'>): Json {
  const paths: Record<string, Json> = {};
  for (const o of API_CATALOG) {
    const { path } = openApiPath(o.path);
    (paths[path] ??= {})[o.method.toLowerCase()] = operation(o);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Portal API',
      version: config.version,
      description:
        'JSON API of the account portal. Browser calls that change state need `X-Requested-With: XMLHttpRequest` and an `Origin` equal to the host\'s own origin; each tenant has its own host (`<subdomain>.<domain>`). Operator calls use a bearer token on the main domain.',
    },
    servers: [{ url: `${config.PUBLIC_URL}${config.BASE_PATH}/api`, description: 'Main domain (tenant hosts: the same path on `<subdomain>.<domain>`)' }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['message'],
          properties: { message: { type: 'string', description: 'Code word (the spec\'s, verbatim)' }, errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, duration: { type: 'integer' } },
          additionalProperties: true,
        },
      },
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'portal_session', description: 'Host-only session cookie (`__Host-portal_session` under https).' },
        operatorToken: { type: 'http', scheme: 'bearer', description: 'Operator token (`pop_...`), created with `npm run portal -- token create`. Scopes are listed per call.' },
      },
    },
  };
}

export const openApiRoute = new Hono<AppEnv>();
let cached: { key: string; doc: Json } | undefined;

openApiRoute.get('/openapi.json', (c) => {
  const config = c.get('deps').config;
  const key = `${config.PUBLIC_URL}${config.BASE_PATH}`;
  if (cached?.key !== key) cached = { key, doc: buildOpenApi(config) };
  return c.json(cached.doc, 200, { 'Cache-Control': 'public, max-age=300' });
});
