// The SCIM 2.0 service provider of each tenant (RFC 7644; decision 0040), mounted by createApp at
// `<base>/scim/v2` on the tenant's hosts. A bearer token of the tenant is the only credential: a
// session cookie the request may carry is ignored, so the cookie CSRF rule does not apply (a
// browser never sends the bearer header on its own). Bodies are `application/scim+json` (or
// `application/json`), at most SCIM_BODY_LIMIT bytes. Every answer is SCIM's own (errors in its
// error schema), never the portal's API envelope.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { SQL } from 'drizzle-orm';
import { runDeletionJob } from '../../domain/people/deletion';
import { authenticateScim, readGuard, type ScimActor, type ScimRead } from '../../domain/scim/auth';
import { listResponse, MAX_RESULTS, resourceTypeDocs, SCIM_BODY_LIMIT, schemaDocs, serviceProviderConfig } from '../../domain/scim/discovery';
import { invalidSyntax, notFound, ScimError } from '../../domain/scim/errors';
import { createScimGroup, deleteScimGroup, groupRead, groupsFilter, groupsRead, patchScimGroup, replaceScimGroup } from '../../domain/scim/groups';
import {
  createScimUser,
  deleteScimUser,
  patchOperations,
  patchScimUser,
  readUserInput,
  replaceScimUser,
  userRead,
  usersFilter,
  usersRead,
  type ListQuery,
  type ScimResource,
} from '../../domain/scim/users';
import { hostLabel } from '../../domain/tenants/hosts';
import { tenantScope, type TenantScope } from '../../domain/tenants/scope';
import { inBackground } from '../http/background';
import type { AppEnv } from '../http/env';
import { SCIM_MEDIA_TYPE, scimErrorAnswer, scimJson } from './http';

type C = Context<AppEnv>;

/** The SCIM base URL this request came to (meta.location and Location headers use it). */
function baseOf(c: C): string {
  const url = new URL(c.req.url);
  return `${c.get('https') ? 'https' : 'http'}://${url.host}${c.get('deps').config.BASE_PATH}/scim/v2`;
}

function bearer(c: C): string {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (!m) throw new ScimError(401, 'unauthenticated: send the token made on the Provisioning (SCIM) screen as Authorization: Bearer <token>');
  return m[1]!;
}

/**
 * The request's token, checked in one batch with the read (if any) the handler needs, guarded by
 * the same check (auth.ts). A read that cannot be built (an invalid filter) is refused only after
 * the token is known to be good: a stranger learns nothing but 401.
 */
async function authorize<R>(c: C, read?: (scope: TenantScope, guard: SQL) => ScimRead<R>): Promise<{ scope: TenantScope; actor: ScimActor; value: R | undefined }> {
  const deps = c.get('deps');
  const host = c.get('hostTenant');
  const label = hostLabel(new URL(c.req.url).hostname, deps.config.PORTAL_DOMAIN);
  if (!host || !label) throw new ScimError(404, 'not-found: SCIM answers on a tenant host, https://<tenant>.<domain>/accounts/scim/v2');
  const presented = bearer(c);
  const now = deps.clock.now();
  // The host's tenant as the request found it (perhaps from the host cache): the batch decides.
  const provisional = tenantScope(deps.db, host);
  let built: ScimRead<R> | undefined;
  let refused: ScimError | undefined;
  if (read) {
    try {
      built = read(provisional, readGuard(provisional, presented, now));
    } catch (e) {
      if (!(e instanceof ScimError)) throw e;
      refused = e;
    }
  }
  const auth = await authenticateScim(
    deps.db,
    { presented, label, ip: c.get('clientIp'), now, requestsPerMinute: deps.config.SCIM_REQUESTS_PER_MINUTE },
    built ? { scope: provisional, read: built } : undefined,
  );
  if (auth.kind === 'invalid') throw new ScimError(401, 'invalid-token: the token is unknown, expired, revoked, or not this tenant\'s');
  if (auth.kind === 'limited') throw new ScimError(429, 'too-many-attempts: slow down', undefined, auth.wait);
  if (auth.kind === 'not-subscribed') throw new ScimError(403, 'feature-not-subscribed: SCIM provisioning comes with the single sign-on (SSO) subscription; ask for it on the Get More Services screen');
  if (refused) throw refused;
  const scope = tenantScope(deps.db, auth.tenant);
  const actor: ScimActor = { tokenId: auth.token.id, tokenName: auth.token.name, ip: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null };
  let value: R | undefined;
  if (read) {
    if (auth.read && auth.read.tenantId === scope.id) value = auth.read.value;
    else {
      // The host's label moved to another tenant since the cache read it: read the token's.
      const again = read(scope, readGuard(scope, presented, now));
      value = again.parse((await deps.db.batch(again.statements as never)) as unknown[]);
    }
  }
  return { scope, actor, value };
}

async function body(c: C): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw invalidSyntax('the body is not valid JSON');
  }
}

const int = (v: string | undefined, fallback: number) => {
  const n = v === undefined || v.trim() === '' ? NaN : Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
};

/** startIndex (1-based, below 1 read as 1) and count (0 to MAX_RESULTS, 100 by default), RFC 7644 3.4.2.4. */
function page(c: C): { startIndex: number; count: number } {
  return { startIndex: Math.max(1, int(c.req.query('startIndex'), 1)), count: Math.min(MAX_RESULTS, Math.max(0, int(c.req.query('count'), MAX_RESULTS))) };
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((x) => x.trim().toLowerCase())
    .filter(Boolean);

/** `attributes` / `excludedAttributes` (RFC 7644 3.4.2.5) on the top-level attributes; id, schemas and meta always stay. */
function projection(c: C): { keep: (r: ScimResource) => ScimResource; wants: (attr: string) => boolean } {
  const only = list(c.req.query('attributes')).map((a) => a.split('.')[0]!);
  const without = list(c.req.query('excludedAttributes'));
  const always = new Set(['id', 'schemas', 'meta']);
  const wants = (attr: string) => !without.includes(attr) && (only.length === 0 || only.includes(attr));
  return {
    wants,
    keep: (r) => Object.fromEntries(Object.entries(r).filter(([k]) => always.has(k) || (only.length === 0 ? !without.includes(k.toLowerCase()) : only.some((a) => a === k.toLowerCase() || k.toLowerCase().startsWith(`${a}:`)) && !without.includes(k.toLowerCase())))),
  };
}

/** A path id: digits, else nothing matches (a 404 like a missing one). */
const idOf = (v: string | undefined) => (v && /^[1-9]\d{0,15}$/.test(v) ? Number(v) : null);

export const scimService = new Hono<AppEnv>();

scimService.onError((err, c) => scimErrorAnswer(c, err));

const limit = bodyLimit({ maxSize: SCIM_BODY_LIMIT, onError: (c) => scimErrorAnswer(c, new ScimError(413, `payload-too-large: at most ${SCIM_BODY_LIMIT} bytes`)) });

scimService.use('*', async (c, next) => {
  // A cookie's session does not count here: the bearer token is the only credential.
  c.set('session', null);
  c.set('user', null);
  c.set('member', null);
  c.set('memberships', null);
  c.set('scope', null);
  if (c.req.method === 'GET' || c.req.method === 'DELETE' || c.req.method === 'HEAD') return next();
  const type = c.req.header('content-type');
  if (type !== undefined && !new RegExp(`^(${SCIM_MEDIA_TYPE.replace('+', '\\+')}|application/json)\\b`, 'i').test(type)) {
    return scimErrorAnswer(c, new ScimError(415, `unsupported-media-type: send ${SCIM_MEDIA_TYPE}`));
  }
  return limit(c, next);
});

// Discovery (RFC 7644 section 4), behind the token like everything else.
scimService.get('/ServiceProviderConfig', async (c) => {
  await authorize(c);
  return scimJson(c, serviceProviderConfig(baseOf(c), null));
});

scimService.get('/ResourceTypes', async (c) => {
  await authorize(c);
  const docs = resourceTypeDocs(baseOf(c));
  return scimJson(c, listResponse(docs, docs.length, 1));
});

scimService.get('/ResourceTypes/:id', async (c) => {
  await authorize(c);
  const doc = resourceTypeDocs(baseOf(c)).find((d) => d.id === c.req.param('id'));
  if (!doc) throw notFound(`ResourceType ${c.req.param('id')}`);
  return scimJson(c, doc);
});

scimService.get('/Schemas', async (c) => {
  await authorize(c);
  const docs = schemaDocs(baseOf(c));
  return scimJson(c, listResponse(docs, docs.length, 1));
});

scimService.get('/Schemas/:id', async (c) => {
  await authorize(c);
  const doc = schemaDocs(baseOf(c)).find((d) => d.id.toLowerCase() === c.req.param('id').toLowerCase());
  if (!doc) throw notFound(`Schema ${c.req.param('id')}`);
  return scimJson(c, doc);
});

// Users

scimService.get('/Users', async (c) => {
  const { startIndex, count } = page(c);
  const filter = c.req.query('filter');
  const { keep } = projection(c);
  const base = baseOf(c);
  const { value } = await authorize(c, (scope, guard) => {
    const q: ListQuery = { filter: filter ? usersFilter(scope, filter) : undefined, startIndex, count };
    return usersRead(scope, guard, q, base);
  });
  return scimJson(c, listResponse(value!.resources.map(keep), value!.total, startIndex));
});

scimService.get('/Users/:id', async (c) => {
  const { keep } = projection(c);
  const base = baseOf(c);
  const { value } = await authorize(c, (scope, guard) => userRead(scope, guard, idOf(c.req.param('id')), base));
  if (!value) throw notFound(`User ${c.req.param('id')}`);
  return scimJson(c, keep(value));
});

scimService.post('/Users', async (c) => {
  const { scope, actor } = await authorize(c);
  const input = readUserInput(await body(c), 'keep');
  const base = baseOf(c);
  const { resource } = await createScimUser(c.get('deps'), scope, input, actor, base);
  return scimJson(c, resource, 201, { Location: String((resource.meta as { location: string }).location) });
});

scimService.put('/Users/:id', async (c) => {
  const { scope, actor } = await authorize(c);
  const id = idOf(c.req.param('id'));
  if (id === null) throw notFound(`User ${c.req.param('id')}`);
  const input = readUserInput(await body(c), 'keep');
  return scimJson(c, await replaceScimUser(c.get('deps'), scope, id, input, actor, baseOf(c)));
});

scimService.patch('/Users/:id', async (c) => {
  const { scope, actor } = await authorize(c);
  const id = idOf(c.req.param('id'));
  if (id === null) throw notFound(`User ${c.req.param('id')}`);
  const operations = patchOperations(await body(c));
  return scimJson(c, await patchScimUser(c.get('deps'), scope, id, operations, actor, baseOf(c)));
});

scimService.delete('/Users/:id', async (c) => {
  const { scope, actor } = await authorize(c);
  const id = idOf(c.req.param('id'));
  if (id === null) throw notFound(`User ${c.req.param('id')}`);
  const jobId = await deleteScimUser(c.get('deps'), scope, id, actor);
  // The membership is gone for SCIM now; the durable job tells the apps and removes the rows.
  inBackground(c, runDeletionJob(c.get('deps'), jobId), 'scim_user_deletion');
  return c.body(null, 204);
});

// Groups (departments)

scimService.get('/Groups', async (c) => {
  const { startIndex, count } = page(c);
  const filter = c.req.query('filter');
  const { keep, wants } = projection(c);
  const base = baseOf(c);
  const { value } = await authorize(c, (scope, guard) =>
    groupsRead(scope, guard, { filter: filter ? groupsFilter(scope, filter) : undefined, startIndex, count }, wants('members'), base),
  );
  return scimJson(c, listResponse(value!.resources.map(keep), value!.total, startIndex));
});

scimService.get('/Groups/:id', async (c) => {
  const { keep, wants } = projection(c);
  const base = baseOf(c);
  const { value } = await authorize(c, (scope, guard) => groupRead(scope, guard, idOf(c.req.param('id')), wants('members'), base));
  if (!value) throw notFound(`Group ${c.req.param('id')}`);
  return scimJson(c, keep(value));
});

scimService.post('/Groups', async (c) => {
  const { scope, actor } = await authorize(c);
  const resource = await createScimGroup(c.get('deps'), scope, await body(c), actor, baseOf(c));
  return scimJson(c, resource, 201, { Location: String((resource.meta as { location: string }).location) });
});

scimService.put('/Groups/:id', async (c) => {
  const { scope, actor } = await authorize(c);
  const id = idOf(c.req.param('id'));
  if (id === null) throw notFound(`Group ${c.req.param('id')}`);
  return scimJson(c, await replaceScimGroup(c.get('deps'), scope, id, await body(c), actor, baseOf(c)));
});

scimService.patch('/Groups/:id', async (c) => {
  const { scope, actor } = await authorize(c);
  const id = idOf(c.req.param('id'));
  if (id === null) throw notFound(`Group ${c.req.param('id')}`);
  await patchScimGroup(c.get('deps'), scope, id, patchOperations(await body(c)), actor, baseOf(c));
  // Entra asks for 204 here ("returning all the members isn't advisable"); Okta accepts it.
  return c.body(null, 204);
});

scimService.delete('/Groups/:id', async (c) => {
  const { scope, actor } = await authorize(c);
  const id = idOf(c.req.param('id'));
  if (id === null) throw notFound(`Group ${c.req.param('id')}`);
  await deleteScimGroup(c.get('deps'), scope, id, actor);
  return c.body(null, 204);
});

// Not offered: bulk operations, /Me (no user is behind a token), searching by POST.
scimService.all('/Bulk', () => {
  throw new ScimError(501, 'bulk operations are not supported (ServiceProviderConfig bulk.supported is false)');
});
scimService.all('/Me', () => {
  throw new ScimError(501, '/Me is not supported: a token is not a person');
});
scimService.all('*', () => {
  throw new ScimError(404, 'not-found: no such SCIM endpoint (Users, Groups, ServiceProviderConfig, ResourceTypes, Schemas)');
});
