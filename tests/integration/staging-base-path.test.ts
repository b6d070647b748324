// The staging variant (wrangler.toml [env.staging]): the same app under /staging-accounts on the
// production hosts. Its cookies carry their own names, so signing in to staging does not replace
// the production session of the same host (both are Path=/ host-only cookies).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createOperatorToken } from '../../src/domain/operator/tokens';
import { createHarness, type Harness } from '../support/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ BASE_PATH: '/staging-accounts' });
});
afterEach(() => h.close());

it('serves the API, operator API and OpenAPI under /staging-accounts with cookies of their own', async () => {
  const b = h.client('acme.localhost:8787');
  const login = await b.post('/staging-accounts/api/v2/login', { email: 'admin@acme.test', password: 'Portal-Demo-2026!', remember: false });
  expect(login.body.message).toBe('success');
  expect([...b.cookies.keys()]).toContain('portal_session_staging_accounts');
  expect([...b.cookies.keys()]).not.toContain('portal_session');
  expect((await b.get('/staging-accounts/api/user')).status).toBe(200);
  // A production-named cookie means nothing to staging.
  const other = h.client('acme.localhost:8787');
  other.cookies.set('portal_session', b.cookies.get('portal_session_staging_accounts')!);
  expect((await other.get('/staging-accounts/api/user')).status).toBe(401);

  const { token } = await createOperatorToken(h.deps.db, 'staging', ['tenants:read'], h.clock.now());
  const r = await h.app.request('http://localhost:8787/staging-accounts/api/operator/tenants', { headers: { authorization: `Bearer ${token}` } });
  expect(r.status).toBe(200);
  const doc = await (await h.app.request('http://localhost:8787/staging-accounts/api/openapi.json')).json();
  expect(doc.servers[0].url).toBe('http://localhost:8787/staging-accounts/api');
});
