// Operator API (provider staff and their tools): bearer-token authentication with scopes, on the
// main domain only. A session cookie never authenticates here, so these calls are exempt from the
// cookie CSRF rule (src/app.ts). Every call is audited by the domain functions.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as z from 'zod/mini';
import { createTenant, getTenant, listTenants, updateTenant, auditOperator, type OperatorActor } from '../../domain/operator/tenants';
import { deleteMaintenance, listMaintenance, listManagers, listServiceRequests, markRequestHandled, postMaintenance, setManager } from '../../domain/operator/staff';
import { tenantsWithExpiringCertificates } from '../../domain/sso/certificate-watch';
import { authenticateOperator, failureBucket, type OperatorIdentity } from '../../domain/operator/tokens';
import { refund, reserve } from '../../domain/security/limiter';
import { addressKey } from '../../domain/security/network';
import {
  createTenantSchema,
  listTenantsQuerySchema,
  maintenanceMessageSchema,
  managerSchema,
  serviceRequestsQuerySchema,
  expiringCertificatesQuerySchema,
  updateTenantSchema,
  type OperatorScope,
} from '../../shared/operator/schemas';
import type { AppEnv, AppVariables } from '../http/env';
import { idParam } from '../http/params';
import { readJson, readQuery } from '../http/validate';
import { errorAnswer } from '../http/errors';

export type OperatorEnv = { Variables: AppVariables & { operator: OperatorIdentity } };

/**
 * Failed bearer attempts (decision 0036). Per client address and presented token's prefix: one
 * tool with a broken token locks only itself out. Per address, looser, counted only while that
 * token's own limit is not yet reached (so a locked-out tool that keeps retrying spends nothing
 * more): stops spraying random tokens, and takes five broken tools behind one address to reach.
 */
export const OPERATOR_TOKEN_FAILURE_LIMIT = { max: 20, windowMs: 10 * 60_000 };
export const OPERATOR_ADDRESS_FAILURE_LIMIT = { max: 100, windowMs: 10 * 60_000 };

const bearerAuth: MiddlewareHandler<OperatorEnv> = async (c, next) => {
  // Operators work across tenants: the API answers on the main domain only, never on a tenant host.
  if (c.get('hostTenant')) return errorAnswer(c, 'not-found');
  // Whatever the session middleware found in a cookie does not count here.
  c.set('session', null);
  c.set('user', null);
  c.set('member', null);
  const header = c.req.header('authorization') ?? '';
  const m = /^Bearer ([^\s]+)$/i.exec(header.trim());
  // No credential, no lookup: nothing to count.
  if (!m) {
    c.header('WWW-Authenticate', 'Bearer realm="operator"');
    return errorAnswer(c, 'unauthenticated');
  }
  const presented = m[1]!;
  const { db, clock } = c.get('deps');
  const address = addressKey(c.get('clientIp'));
  const perToken = { key: `operator-auth:tok:${address}:${failureBucket(presented)}`, ...OPERATOR_TOKEN_FAILURE_LIMIT };
  const perAddress = { key: `operator-auth:ip:${address}`, ...OPERATOR_ADDRESS_FAILURE_LIMIT, onlyWithin: perToken };
  // Reserved before the token is looked at (parallel requests cannot pass a limit); a good token
  // gives its attempts back.
  await reserve(db, [perToken, perAddress], clock.now());
  const result = await authenticateOperator(db, presented, clock.now(), c.get('clientIp'));
  if (!result.ok) {
    c.header('WWW-Authenticate', 'Bearer realm="operator", error="invalid_token"');
    return errorAnswer(c, 'bearer-token-invalid');
  }
  await refund(db, [perToken, perAddress], clock.now());
  c.set('operator', result.identity);
  return next();
};

const actorOf = (c: Context<OperatorEnv>): OperatorActor => ({
  identity: c.get('operator'),
  ip: c.get('clientIp'),
  userAgent: c.req.header('user-agent') ?? null,
});

/** 403 unless the token carries `scope`; the refusal is audited too. */
function need(scope: OperatorScope): MiddlewareHandler<OperatorEnv> {
  return async (c, next) => {
    if (!c.get('operator').scopes.includes(scope)) {
      await auditOperator(c.get('deps'), actorOf(c), 'scope_refused', { details: { scope, method: c.req.method, path: c.req.path } });
      return errorAnswer(c, 'insufficient-scope', { scope });
    }
    return next();
  };
}

const allQuery = z.object({ all: z.optional(z.enum(['true', 'false'])) });

/** Mounted under `<base>/api` by createApp. */
export const operatorApi = new Hono<AppEnv>();
// The same app, its calls typed with the operator the bearer check sets.
const operator = operatorApi.use('/operator/*', bearerAuth);

operator.get('/operator/whoami', async (c) => {
  await auditOperator(c.get('deps'), actorOf(c), 'whoami');
  const { tokenId, tokenName, scopes } = c.get('operator');
  return c.json({ id: tokenId, name: tokenName, scopes });
});

operator.get('/operator/tenants', need('tenants:read'), async (c) => c.json({ tenants: await listTenants(c.get('deps'), actorOf(c), readQuery(c, listTenantsQuerySchema)) }));

operator.post('/operator/tenants', need('tenants:write'), async (c) => {
  const input = await readJson(c, createTenantSchema);
  return c.json(await createTenant(c.get('deps'), actorOf(c), input), 201);
});

operator.get('/operator/tenants/:id', need('tenants:read'), async (c) => c.json(await getTenant(c.get('deps'), actorOf(c), idParam(c.req.param('id')))));

operator.patch('/operator/tenants/:id', need('tenants:write'), async (c) => {
  const id = idParam(c.req.param('id'));
  const input = await readJson(c, updateTenantSchema);
  return c.json(await updateTenant(c.get('deps'), actorOf(c), id, input));
});

operator.get('/operator/sso-certificates', need('tenants:read'), async (c) => {
  const days = readQuery(c, expiringCertificatesQuerySchema).days ?? 30;
  await auditOperator(c.get('deps'), actorOf(c), 'sso_certificates_read', { details: { days } });
  return c.json({ days, tenants: await tenantsWithExpiringCertificates(c.get('deps'), days) });
});

operator.get('/operator/managers', need('managers:read'), async (c) => c.json({ managers: await listManagers(c.get('deps'), actorOf(c)) }));

operator.post('/operator/managers', need('managers:write'), async (c) => {
  const { email } = await readJson(c, managerSchema);
  return c.json(await setManager(c.get('deps'), actorOf(c), email, true));
});

operator.post('/operator/managers/revoke', need('managers:write'), async (c) => {
  const { email } = await readJson(c, managerSchema);
  return c.json(await setManager(c.get('deps'), actorOf(c), email, false));
});

operator.get('/operator/maintenance-messages', need('maintenance:read'), async (c) => {
  const { all } = readQuery(c, allQuery);
  return c.json({ messages: await listMaintenance(c.get('deps'), actorOf(c), all === 'true') });
});

operator.post('/operator/maintenance-messages', need('maintenance:write'), async (c) => {
  const input = await readJson(c, maintenanceMessageSchema);
  return c.json(await postMaintenance(c.get('deps'), actorOf(c), input), 201);
});

operator.delete('/operator/maintenance-messages/:id', need('maintenance:write'), async (c) => {
  await deleteMaintenance(c.get('deps'), actorOf(c), idParam(c.req.param('id')));
  return c.json({ message: 'success' });
});

operator.get('/operator/service-requests', need('requests:read'), async (c) =>
  c.json({ requests: await listServiceRequests(c.get('deps'), actorOf(c), readQuery(c, serviceRequestsQuerySchema)) }),
);

operator.post('/operator/service-requests/:id/handled', need('requests:write'), async (c) =>
  c.json(await markRequestHandled(c.get('deps'), actorOf(c), idParam(c.req.param('id')))),
);
