// The API description (issue 8): GET /accounts/api/openapi.json is valid OpenAPI 3.1, generated
// from the catalog, and the catalog lists exactly the routes the app mounts. A new route without a
// catalog entry (or an entry whose route is gone) fails here: add it to src/routes/openapi/catalog.ts.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CATALOG } from '../../src/routes/openapi/catalog';
import { openApiPath } from '../../src/routes/openapi/openapi';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const API = '/accounts/api';

/** "METHOD /path" of every handler the app mounts under the API (middleware-only entries aside). */
function mountedRoutes(): string[] {
  const out = new Set<string>();
  for (const r of h.app.routes) {
    if (!r.path.startsWith(`${API}/`) || r.method === 'ALL') continue;
    out.add(`${r.method} ${r.path.slice(API.length)}`);
  }
  return [...out].sort();
}

describe('catalog', () => {
  it('lists every mounted /accounts/api route, and nothing that is not mounted', () => {
    const catalog = API_CATALOG.map((o) => `${o.method} ${o.path}`).sort();
    const mounted = mountedRoutes();
    expect(mounted.length).toBeGreaterThan(50);
    expect(catalog.filter((k) => !mounted.includes(k)), 'in the catalog but not mounted').toEqual([]);
    expect(mounted.filter((k) => !catalog.includes(k)), 'mounted but missing from src/routes/openapi/catalog.ts').toEqual([]);
    expect(new Set(catalog).size, 'each route once').toBe(catalog.length);
  });

  it('names a scope for every operator call except whoami, and only operator calls have one', () => {
    for (const o of API_CATALOG) {
      if (o.path.startsWith('/operator/') && o.path !== '/operator/whoami') expect(o.scope, o.path).toBeDefined();
      if (!o.path.startsWith('/operator/')) expect(o.scope, o.path).toBeUndefined();
      expect(o.access === 'operator', o.path).toBe(o.path.startsWith('/operator/'));
    }
  });

  it('turns Hono paths into OpenAPI templates', () => {
    expect(openApiPath('/twofa/:method{app|sms}')).toEqual({ path: '/twofa/{method}', params: [{ name: 'method', values: ['app', 'sms'] }] });
    expect(openApiPath('/service-requests/:id/handled').path).toBe('/service-requests/{id}/handled');
  });
});

describe('GET /accounts/api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document with every catalog entry, request bodies from the zod schemas', async () => {
    const r = await h.client('localhost:8787').get(`${API}/openapi.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    const doc = r.body;
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');

    expect(doc.servers[0].url).toBe('http://localhost:8787/accounts/api');
    const ops = Object.values(doc.paths as Record<string, Record<string, unknown>>).flatMap((p) => Object.keys(p));
    expect(ops).toHaveLength(API_CATALOG.length);

    const login = doc.paths['/v2/login'].post;
    expect(login.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, password: { type: 'string' }, remember: { type: 'boolean' } },
      required: ['email', 'password'],
    });
    expect(login['x-error-codes']).toContain('invalid-credentials');

    const create = doc.paths['/operator/tenants'].post;
    expect(create.security).toEqual([{ operatorToken: ['tenants:write'] }]);
    expect(create.requestBody.content['application/json'].schema.properties.subdomain).toMatchObject({ type: 'string', pattern: expect.any(String) });
    expect(create.responses['201']).toBeDefined();

    const register = doc.paths['/users/register/{id}'].post;
    expect(register.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:id', 'query:email', 'query:expires', 'query:signature']);
    expect(doc.paths['/twofa/{method}'].post.parameters[0].schema).toEqual({ type: 'string', enum: ['app', 'sms'] });
    expect(doc.paths['/admin/password-policy'].patch.security).toEqual([{ sessionCookie: [] }]);
  });

  it('answers on tenant hosts too, with the same paths', async () => {
    const r = await h.client('acme.localhost:8787').get(`${API}/openapi.json`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.paths)).toContain('/operator/tenants');
  });
});
