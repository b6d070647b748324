// SCIM test helpers (decision 0040): a token made through the admin's call, and a client that
// speaks to a tenant's SCIM endpoint as an IdP does (bearer token, application/scim+json).
import { expect } from 'vitest';
import type { Harness, TestResponse } from './harness';

export const ACME = 'acme.localhost:8787';
export const GLOBEX = 'globex.localhost:8787';
export const SCIM = '/accounts/scim/v2';
export const SCIM_JSON = 'application/scim+json';
export const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_URN = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_URN = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const PATCH_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST_URN = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_URN = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** An admin of `host` makes a token on the screen's call; answers the secret and its id. */
export async function makeToken(h: Harness, opts: { host?: string; admin?: string; name?: string; expiresInDays?: number } = {}): Promise<{ token: string; id: number }> {
  const b = h.client(opts.host ?? ACME, { otherBrowser: true });
  expect((await b.login(opts.admin ?? 'admin@acme.test')).body.message).toBe('success');
  const res = await b.post('/accounts/api/admin/scim/tokens', { name: opts.name ?? 'Entra ID', ...(opts.expiresInDays ? { expiresInDays: opts.expiresInDays } : {}) });
  expect(res.status, res.text).toBe(201);
  return { token: res.body.token, id: res.body.summary.id };
}

/** An IdP's requests to the SCIM endpoint of `host`. */
export function scimClient(h: Harness, token: string, host = ACME, ip = '198.51.100.7') {
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> => {
    const res = await h.app.request(`http://${host}${SCIM}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: SCIM_JSON,
        'x-test-client-ip': ip,
        'user-agent': 'Microsoft.Identity.Provisioning/1.0',
        ...(body !== undefined ? { 'content-type': SCIM_JSON } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* empty */
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    get: (path: string) => send('GET', path),
    post: (path: string, body: unknown) => send('POST', path, body),
    put: (path: string, body: unknown) => send('PUT', path, body),
    patch: (path: string, body: unknown) => send('PATCH', path, body),
    delete: (path: string) => send('DELETE', path),
    send,
  };
}

export type ScimClient = ReturnType<typeof scimClient>;

export const patchOp = (...ops: Record<string, unknown>[]) => ({ schemas: [PATCH_URN], Operations: ops });

/** A User as Entra ID's default attribute mapping sends it. */
export const entraUser = (email: string, over: Record<string, unknown> = {}) => ({
  schemas: [USER_URN, ENTERPRISE_URN],
  externalId: email.split('@')[0],
  userName: email,
  active: true,
  displayName: 'Taro Yamada',
  emails: [{ primary: true, type: 'work', value: email }],
  name: { formatted: 'Taro Yamada', familyName: 'Yamada', givenName: 'Taro' },
  [ENTERPRISE_URN]: { department: 'Sales' },
  ...over,
});

/** A User as Okta's SCIM 2.0 app sends it (a password too, which is ignored). */
export const oktaUser = (email: string, over: Record<string, unknown> = {}) => ({
  schemas: [USER_URN],
  userName: email,
  name: { givenName: 'Hanako', familyName: 'Suzuki' },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: 'Hanako Suzuki',
  locale: 'en-US',
  externalId: `00u${email.length}okta`,
  groups: [],
  password: 'Not-Used-1!',
  active: true,
  ...over,
});
