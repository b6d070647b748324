// Operator API (issue 8): bearer tokens (missing, wrong, revoked, out of scope), tenants, tenant
// managers, maintenance messages, service requests; every call audited; main domain only.
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, like } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLogs, contractDetails, operatorTokens, serviceRequests, tenantApps, tenants, tenantUsers, throttles, users } from '../../src/db/schema';
import { createOperatorToken, listOperatorTokens, revokeOperatorToken, rotateOperatorToken } from '../../src/domain/operator/tokens';
import { OPERATOR_SCOPES } from '../../src/shared/operator/schemas';
import { createHarness, TEST_IP_HEADER, type Harness } from '../support/harness';
import { lastMail, linkIn } from '../support/mail';

let h: Harness;
let token: string;
beforeEach(async () => {
  h = await createHarness();
  token = (await createOperatorToken(h.deps.db, 'ops test', [...OPERATOR_SCOPES], h.clock.now())).token;
});
afterEach(() => h.close());

const MAIN = 'http://localhost:8787';
const API = '/accounts/api/operator';

async function call(method: string, path: string, opts: { token?: string | null; json?: unknown; host?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { 'user-agent': 'portal-cli/test', ...opts.headers };
  const bearer = opts.token === undefined ? token : opts.token;
  if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
  let body: string | undefined;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  const res = await h.app.request(`${opts.host ?? MAIN}${API}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const newTenant = (over: Record<string, unknown> = {}) => ({
  name: 'Umbrella 株式会社',
  subdomain: 'umbrella',
  apps: [{ app: 'meishi', seats: 20 }, { app: 'scheduler', seats: null }],
  features: { featureSsoUsersLimit: 5, isFeatureIpRestrictionSubscribed: true, featureBulkEmailMonthlyLimit: 10_000 },
  contract: { trialEndsAt: '2026-12-05T00:00:00+09:00' },
  admin: { email: 'Boss@Umbrella.test', name: 'Umbrella Boss' },
  ...over,
});

const EVERY_CALL: [string, string, unknown?][] = [
  ['GET', '/whoami'],
  ['GET', '/tenants'],
  ['POST', '/tenants', newTenant()],
  ['GET', '/tenants/1'],
  ['PATCH', '/tenants/1', { name: 'x' }],
  ['GET', '/managers'],
  ['POST', '/managers', { email: 'user@acme.test' }],
  ['POST', '/managers/revoke', { email: 'manager@staff.test' }],
  ['GET', '/maintenance-messages'],
  ['POST', '/maintenance-messages', { app: 'accounts', messageJa: 'メンテ', messageEn: 'Maintenance' }],
  ['DELETE', '/maintenance-messages/1'],
  ['GET', '/service-requests'],
  ['POST', '/service-requests/1/handled'],
];

describe('authentication', () => {
  it('refuses every call without a token, with a wrong one and with a revoked one, changing nothing', async () => {
    const revoked = await createOperatorToken(h.deps.db, 'old', [...OPERATOR_SCOPES], h.clock.now());
    expect(await revokeOperatorToken(h.deps.db, revoked.id, h.clock.now())).toBe(true);
    const wrong = `pop_${'A'.repeat(43)}`;
    for (const [m, p, json] of EVERY_CALL) {
      const none = await call(m, p, { token: null, json });
      expect(none.status, `${m} ${p}`).toBe(401);
      expect(none.body).toEqual({ message: 'unauthenticated' });
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await call(m, p, { token: wrong, json })).body, `${m} ${p}`).toEqual({ message: 'invalid-token' });
      expect((await call(m, p, { token: revoked.token, json })).status, `${m} ${p}`).toBe(401);
      // Advance past the failed-attempt window so the throttle does not answer instead.
      h.clock.advance(11 * 60_000);
    }
    expect(await h.deps.db.select().from(tenants).where(eq(tenants.initialSubdomain, 'umbrella')).get()).toBeUndefined();
    expect((await h.deps.db.select().from(users).where(eq(users.email, 'user@acme.test')).get())!.isTenantManager).toBe(false);
  });

  it('a signed-in tenant manager\'s session cookie is not an operator credential, with or without the CSRF headers', async () => {
    const b = h.client('localhost:8787');
    expect((await b.login('manager@staff.test')).body.message).toBe('success');
    expect((await b.get(`${API}/tenants`)).status).toBe(401);
    expect((await b.post(`${API}/tenants`, newTenant())).status).toBe(401);
    expect((await b.request('POST', `${API}/managers`, { json: { email: 'user@acme.test' }, raw: true })).status).toBe(401);
  });

  it('a token only works in its scopes: 403 insufficient-scope, audited', async () => {
    const reader = await createOperatorToken(h.deps.db, 'reader', ['tenants:read'], h.clock.now());
    expect((await call('GET', '/tenants', { token: reader.token })).status).toBe(200);
    const refused = await call('POST', '/tenants', { token: reader.token, json: newTenant() });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'insufficient-scope', scope: 'tenants:write' });
    for (const [m, p, json] of EVERY_CALL.filter(([, p]) => !p.startsWith('/tenants') && p !== '/whoami')) {
      expect((await call(m, p, { token: reader.token, json })).body.message, `${m} ${p}`).toBe('insufficient-scope');
    }
    const log = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'operator.scope_refused'));
    expect(log[0]!.details).toMatchObject({ operatorTokenId: reader.id, operatorTokenName: 'reader', scope: 'tenants:write' });
    expect(await h.deps.db.select().from(tenants).where(eq(tenants.initialSubdomain, 'umbrella')).get()).toBeUndefined();
  });

  it('whoami names the token; the token is stored only as its digest and notes its last use and address', async () => {
    const r = await call('GET', '/whoami', { headers: { [TEST_IP_HEADER]: '198.51.100.7' } });
    expect(r.body).toEqual({ id: 1, name: 'ops test', scopes: [...OPERATOR_SCOPES].sort() });
    const row = async () => (await h.deps.db.select().from(operatorTokens).where(eq(operatorTokens.id, 1)).get())!;
    expect((await row()).tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await row()).tokenHash).not.toContain(token.slice(4, 20));
    expect(await row()).toMatchObject({ lastUsedAt: h.clock.now(), lastUsedIp: '198.51.100.7' });
    const first = h.clock.now();
    // Within a minute from the same address: no write.
    h.clock.advance(30_000);
    h.queries.length = 0;
    await call('GET', '/whoami', { headers: { [TEST_IP_HEADER]: '198.51.100.7' } });
    expect(h.queries.filter((q) => /^update "?operator_tokens/i.test(q))).toEqual([]);
    expect((await row()).lastUsedAt).toBe(first);
    // From another address: noted at once.
    await call('GET', '/whoami', { headers: { [TEST_IP_HEADER]: '192.0.2.44' } });
    expect(await row()).toMatchObject({ lastUsedAt: h.clock.now(), lastUsedIp: '192.0.2.44' });
  });

  it('answers on the main domain only: a tenant host says not-found', async () => {
    expect((await call('GET', '/tenants', { host: 'http://acme.localhost:8787' })).status).toBe(404);
  });
});

describe('token lifetimes', () => {
  const DAY = 86_400_000;

  it('a token expires after the days chosen at creation (90 by default) and is then refused exactly like an unknown one', async () => {
    const standard = await createOperatorToken(h.deps.db, 'standard', ['tenants:read'], h.clock.now());
    expect(standard.expiresAt).toBe(h.clock.now() + 90 * DAY);
    const short = await createOperatorToken(h.deps.db, 'short', ['tenants:read'], h.clock.now(), { expiresInDays: 1 });
    expect((await call('GET', '/whoami', { token: short.token })).status).toBe(200);
    h.clock.advance(DAY - 1);
    expect((await call('GET', '/whoami', { token: short.token })).status).toBe(200);
    h.clock.advance(1);
    const expired = await call('GET', '/whoami', { token: short.token });
    const unknown = await call('GET', '/whoami', { token: `pop_${'U'.repeat(43)}` });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ message: 'invalid-token' });
    expect(unknown.body).toEqual(expired.body);
    expect(expired.headers.get('www-authenticate')).toBe(unknown.headers.get('www-authenticate'));
    h.clock.advance(89 * DAY - 1);
    expect((await call('GET', '/whoami', { token: standard.token })).status).toBe(200);
    h.clock.advance(1);
    expect((await call('GET', '/whoami', { token: standard.token })).body).toEqual({ message: 'invalid-token' });
  });

  it('refuses a lifetime outside 1 to 365 days', async () => {
    for (const days of [0, 366, 1.5, -1]) {
      await expect(createOperatorToken(h.deps.db, 'x', ['tenants:read'], h.clock.now(), { expiresInDays: days }), String(days)).rejects.toMatchObject({ code: 'invalid-token-lifetime' });
    }
    expect((await createOperatorToken(h.deps.db, 'year', ['tenants:read'], h.clock.now(), { expiresInDays: 365 })).expiresAt).toBe(h.clock.now() + 365 * DAY);
  });

  it('rotation: a new token with the same name and scopes; the old one ends at once by default', async () => {
    const old = await createOperatorToken(h.deps.db, 'deploy bot', ['tenants:read', 'requests:read'], h.clock.now(), { expiresInDays: 30 });
    h.clock.advance(DAY);
    const r = await rotateOperatorToken(h.deps.db, old.id, h.clock.now());
    expect(r).toMatchObject({ name: 'deploy bot', scopes: ['requests:read', 'tenants:read'], expiresAt: h.clock.now() + 90 * DAY, replaced: { id: old.id, endsAt: h.clock.now() } });
    expect(r.token).toMatch(/^pop_[A-Za-z0-9_-]{43}$/);
    expect((await call('GET', '/whoami', { token: old.token })).body).toEqual({ message: 'invalid-token' });
    expect((await call('GET', '/whoami', { token: r.token })).body).toEqual({ id: r.id, name: 'deploy bot', scopes: ['requests:read', 'tenants:read'] });
    // Once: the successor is the one to rotate next.
    await expect(rotateOperatorToken(h.deps.db, old.id, h.clock.now())).rejects.toMatchObject({ code: 'token-already-rotated', details: { successor: r.id } });
    const next = await rotateOperatorToken(h.deps.db, r.id, h.clock.now(), { expiresInDays: 7 });
    expect(next.expiresAt).toBe(h.clock.now() + 7 * DAY);
    expect((await call('GET', '/whoami', { token: next.token })).status).toBe(200);
  });

  it('rotation with an overlap: both work until it ends, never past the old expiry; at most a day', async () => {
    const old = await createOperatorToken(h.deps.db, 'ci', ['tenants:read'], h.clock.now());
    const r = await rotateOperatorToken(h.deps.db, old.id, h.clock.now(), { overlapMinutes: 30 });
    expect(r.replaced.endsAt).toBe(h.clock.now() + 30 * 60_000);
    h.clock.advance(30 * 60_000 - 1);
    expect((await call('GET', '/whoami', { token: old.token })).status).toBe(200);
    expect((await call('GET', '/whoami', { token: r.token })).status).toBe(200);
    h.clock.advance(1);
    expect((await call('GET', '/whoami', { token: old.token })).body).toEqual({ message: 'invalid-token' });
    expect((await call('GET', '/whoami', { token: r.token })).status).toBe(200);

    // An overlap cannot lengthen a token's life.
    const brief = await createOperatorToken(h.deps.db, 'brief', ['tenants:read'], h.clock.now(), { expiresInDays: 1 });
    h.clock.advance(DAY - 10 * 60_000);
    const r2 = await rotateOperatorToken(h.deps.db, brief.id, h.clock.now(), { overlapMinutes: 60 });
    expect(r2.replaced.endsAt).toBe(brief.expiresAt);
    await expect(rotateOperatorToken(h.deps.db, r2.id, h.clock.now(), { overlapMinutes: 24 * 60 + 1 })).rejects.toMatchObject({ code: 'invalid-rotation-overlap' });
  });

  it('rotation refuses a revoked or unknown token and writes nothing; an expired one may be rotated', async () => {
    const revoked = await createOperatorToken(h.deps.db, 'gone', ['tenants:read'], h.clock.now());
    await revokeOperatorToken(h.deps.db, revoked.id, h.clock.now());
    const count = async () => (await h.deps.db.select().from(operatorTokens)).length;
    const before = await count();
    await expect(rotateOperatorToken(h.deps.db, revoked.id, h.clock.now())).rejects.toMatchObject({ code: 'token-revoked' });
    await expect(rotateOperatorToken(h.deps.db, 999, h.clock.now())).rejects.toMatchObject({ code: 'not-found' });
    expect(await count()).toBe(before);
    const lapsed = await createOperatorToken(h.deps.db, 'lapsed', ['managers:read'], h.clock.now(), { expiresInDays: 1 });
    h.clock.advance(2 * DAY);
    const r = await rotateOperatorToken(h.deps.db, lapsed.id, h.clock.now());
    expect((await call('GET', '/whoami', { token: r.token })).body).toMatchObject({ name: 'lapsed', scopes: ['managers:read'] });
  });

  it('parallel rotations of one token: exactly one succeeds', async () => {
    const old = await createOperatorToken(h.deps.db, 'raced', ['tenants:read'], h.clock.now());
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => rotateOperatorToken(h.deps.db, old.id, h.clock.now())));
    expect(results.filter((x) => x.status === 'fulfilled')).toHaveLength(1);
    for (const x of results) if (x.status === 'rejected') expect(x.reason).toMatchObject({ code: 'token-already-rotated' });
    expect((await h.deps.db.select().from(operatorTokens).where(eq(operatorTokens.replacesId, old.id))).length).toBe(1);
  });

  it('lists usable tokens first, soonest to end on top, then ended ones; never a secret', async () => {
    const a = await createOperatorToken(h.deps.db, 'long', ['tenants:read'], h.clock.now(), { expiresInDays: 200 });
    const b = await createOperatorToken(h.deps.db, 'soon', ['tenants:read'], h.clock.now(), { expiresInDays: 3 });
    const c = await createOperatorToken(h.deps.db, 'lapsing', ['tenants:read'], h.clock.now(), { expiresInDays: 1 });
    const d = await createOperatorToken(h.deps.db, 'revoked', ['tenants:read'], h.clock.now());
    await revokeOperatorToken(h.deps.db, d.id, h.clock.now());
    const e = await createOperatorToken(h.deps.db, 'rotating', ['tenants:read'], h.clock.now());
    const e2 = await rotateOperatorToken(h.deps.db, e.id, h.clock.now(), { overlapMinutes: 60 });
    await call('GET', '/whoami', { token: b.token, headers: { [TEST_IP_HEADER]: '192.0.2.9' } });
    h.clock.advance(DAY + 1);
    const list = await listOperatorTokens(h.deps.db, h.clock.now());
    expect(list.map((t) => [t.name, t.state])).toEqual([
      ['soon', 'active'],
      ['ops test', 'active'],
      ['rotating', 'active'],
      ['long', 'active'],
      ['lapsing', 'expired'],
      ['rotating', 'rotated'],
      ['revoked', 'revoked'],
    ]);
    expect(list.find((t) => t.id === b.id)).toMatchObject({ lastUsedIp: '192.0.2.9', lastUsedAt: h.clock.now() - DAY - 1, endsAt: b.expiresAt });
    expect(list.find((t) => t.id === e.id)).toMatchObject({ replacedById: e2.id, endsAt: e2.replaced.endsAt });
    expect(list.find((t) => t.id === e2.id)).toMatchObject({ replacesId: e.id });
    expect(list.find((t) => t.id === c.id)!.endsAt).toBe(c.expiresAt);
    expect(list.find((t) => t.id === a.id)!.endsAt).toBe(a.expiresAt);
    expect(JSON.stringify(list)).not.toMatch(/pop_|[0-9a-f]{64}/);
  });
});

describe('failed tokens: per token prefix and address, and per address', () => {
  const OFFICE = { [TEST_IP_HEADER]: '198.51.100.80' };
  const randomToken = () => `pop_${randomBytes(32).toString('base64url')}`;

  it('one office behind one address: a tool with a broken token locks only itself out; another tool with a good token keeps working', async () => {
    const broken = randomToken();
    const results: number[] = [];
    for (let i = 0; i < 120; i++) results.push((await call('GET', '/tenants', { token: broken, headers: OFFICE })).status);
    expect(results.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(new Set(results.slice(20))).toEqual(new Set([429]));
    const limited = await call('GET', '/tenants', { token: broken, headers: OFFICE });
    expect(limited.body).toMatchObject({ message: 'too-many-attempts' });
    expect(limited.body.duration).toBeGreaterThan(0);
    // The other tool behind the same address, again and again.
    for (let i = 0; i < 30; i++) expect((await call('GET', '/tenants', { headers: OFFICE })).status).toBe(200);
    // The broken tool from elsewhere is not locked.
    expect((await call('GET', '/tenants', { token: broken, headers: { [TEST_IP_HEADER]: '192.0.2.200' } })).status).toBe(401);
    // The broken tool spent 20 of the address's failures, not 121.
    const row = await h.deps.db.select().from(throttles).where(eq(throttles.key, 'operator-auth:ip:198.51.100.80')).get();
    expect(row!.hits).toBe(20);
    // Counted under its prefix, never the whole secret.
    const keys = (await h.deps.db.select().from(throttles)).map((t) => t.key).filter((k) => k.startsWith('operator-auth:'));
    expect(keys).toContain(`operator-auth:tok:198.51.100.80:${broken.slice(0, 12)}`);
    expect(keys.join(' ')).not.toContain(broken.slice(0, 13));
    h.clock.advance(10 * 60_000 + 1);
    expect((await call('GET', '/tenants', { token: broken, headers: OFFICE })).status).toBe(401);
  });

  it('spraying random tokens from one address hits the per-address cap; then even a good token waits, other addresses do not', async () => {
    for (let i = 0; i < 100; i++) expect((await call('GET', '/whoami', { token: randomToken(), headers: OFFICE })).status, `attempt ${i + 1}`).toBe(401);
    expect((await call('GET', '/whoami', { token: randomToken(), headers: OFFICE })).status).toBe(429);
    expect((await call('GET', '/whoami', { headers: OFFICE })).status).toBe(429);
    expect((await call('GET', '/whoami', { headers: { [TEST_IP_HEADER]: '192.0.2.201' } })).status).toBe(200);
    h.clock.advance(10 * 60_000 + 1);
    expect((await call('GET', '/whoami', { headers: OFFICE })).status).toBe(200);
  });

  it('a good token gives its attempts back: any number of calls never locks it out', async () => {
    for (let i = 0; i < 130; i++) expect((await call('GET', '/whoami', { headers: OFFICE })).status).toBe(200);
  });

  it('a request without a token is answered 401 without counting anything', async () => {
    for (let i = 0; i < 30; i++) expect((await call('GET', '/whoami', { token: null, headers: OFFICE })).status).toBe(401);
    expect((await h.deps.db.select().from(throttles)).filter((t) => t.key.startsWith('operator-auth:'))).toEqual([]);
  });
});

describe('tenants', () => {
  it('creates a tenant with apps, features, trial date and its first admin, who is invited by mail and can register', async () => {
    const r = await call('POST', '/tenants', { json: newTenant() });
    expect(r.status).toBe(201);
    expect(r.body.tenant).toMatchObject({
      name: 'Umbrella 株式会社',
      initialSubdomain: 'umbrella',
      subdomain: null,
      status: 'trial',
      apps: [
        { app: 'meishi', seats: 20, used: 1 },
        { app: 'scheduler', seats: null, used: 1 },
      ],
      features: { featureSsoUsersLimit: 5, isFeatureIpRestrictionSubscribed: true, isFeatureTwofaEnforcementSubscribed: false, featureBulkEmailMonthlyLimit: 10_000 },
      contract: { trialEndsAt: '2026-12-04T15:00:00.000Z', contractStartsAt: null },
      members: { active: 1, admins: 1 },
    });
    expect(r.body.admin).toMatchObject({ email: 'boss@umbrella.test', name: 'Umbrella Boss', invitation: 'sent' });

    const mail = await lastMail(h, 'boss@umbrella.test');
    const link = linkIn(mail.body);
    expect(link.host).toBe('umbrella.localhost:8787');
    const b = h.client(link.host);
    const reg = await b.post(`/accounts/api/users/register/${link.searchParams.get('id')}?${link.searchParams.toString()}`, {
      password: 'Umbrella-Admin-2026!',
      password_confirmation: 'Umbrella-Admin-2026!',
    });
    expect(reg.status).toBe(200);
    const me = await b.get('/accounts/api/user');
    expect(me.body.user.current_tenant.initial_subdomain).toBe('umbrella');

    const log = await h.deps.db.select().from(activityLogs).where(eq(activityLogs.action, 'operator.tenant_created')).get();
    expect(log).toMatchObject({ tenantId: r.body.tenant.id, actorUserId: null, userAgent: 'portal-cli/test' });
    expect(log!.details).toMatchObject({ operatorTokenName: 'ops test', subdomain: 'umbrella', admin: 'boss@umbrella.test' });
  });

  it('adds an already registered user as the admin without an invitation', async () => {
    const r = await call('POST', '/tenants', { json: newTenant({ admin: { email: 'user@acme.test', name: 'ignored' } }) });
    expect(r.body.admin).toMatchObject({ email: 'user@acme.test', name: '山田 太郎', invitation: 'not-needed' });
    const m = await h.deps.db.select().from(tenantUsers).where(eq(tenantUsers.tenantId, r.body.tenant.id)).get();
    expect(m).toMatchObject({ userId: 2, isAdmin: true });
  });

  it('refuses a subdomain taken as initial or custom label, or reserved, and invalid input with 422 field errors', async () => {
    expect((await call('POST', '/tenants', { json: newTenant({ subdomain: 'acme' }) })).body).toEqual({ message: 'subdomain-taken' });
    expect((await call('POST', '/tenants', { json: newTenant({ subdomain: 'Globex-JP' }) })).status).toBe(409);
    expect((await call('POST', '/tenants', { json: newTenant({ subdomain: 'www' }) })).body).toEqual({ message: 'subdomain-reserved' });
    const bad = await call('POST', '/tenants', {
      json: newTenant({ subdomain: '-x', apps: [], admin: { email: 'nope', name: '' }, contract: { trialEndsAt: '2026-12-05' } }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('The given data was invalid.');
    expect(Object.keys(bad.body.errors).sort()).toEqual(['admin.email', 'admin.name', 'apps', 'contract.trialEndsAt', 'subdomain']);
    const dup = await call('POST', '/tenants', { json: newTenant({ apps: [{ app: 'meishi', seats: 1 }, { app: 'meishi', seats: 2 }] }) });
    expect(dup.status).toBe(422);
    const malformed = await h.app.request(`${MAIN}${API}/tenants`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{' });
    expect(malformed.status).toBe(400);
    expect(await h.deps.db.select().from(tenants).where(like(tenants.name, 'Umbrella%'))).toHaveLength(0);
  });

  it('updates name, status, apps and seats, features and contract dates of one tenant only', async () => {
    const before = await call('GET', '/tenants/2');
    const r = await call('PATCH', '/tenants/1', {
      json: {
        name: 'Acme Holdings',
        status: 'contract_ended',
        apps: [{ app: 'meishi', seats: 50 }],
        features: { isFeatureTwofaEnforcementSubscribed: false, isFeatureKintoneSubscribed: true, featureScannerAppKeysLimit: 3 },
        contract: { contractEndsAt: '2027-03-31T23:59:59+09:00', contractRenewsAt: null },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: 1,
      name: 'Acme Holdings',
      status: 'contract_ended',
      apps: [{ app: 'meishi', seats: 50 }],
      features: { featureSsoUsersLimit: 10, isFeatureIpRestrictionSubscribed: true, isFeatureTwofaEnforcementSubscribed: false, isFeatureKintoneSubscribed: true, featureScannerAppKeysLimit: 3 },
      contract: { contractEndsAt: '2027-03-31T14:59:59.000Z', contractRenewsAt: null },
    });
    expect(r.body.contract.contractStartsAt).not.toBeNull();
    // Other tenants untouched.
    expect((await call('GET', '/tenants/2')).body).toEqual(before.body);
    expect(await h.deps.db.select().from(tenantApps).where(eq(tenantApps.tenantId, 3))).toHaveLength(1);
    const log = await h.deps.db.select().from(activityLogs).where(and(eq(activityLogs.action, 'operator.tenant_updated'), eq(activityLogs.tenantId, 1))).get();
    expect(log!.details).toMatchObject({ changes: { name: 'Acme Holdings', status: 'contract_ended' } });
  });

  it('creates the contract row when a tenant had none; an empty change is refused', async () => {
    await h.deps.db.delete(contractDetails).where(eq(contractDetails.tenantId, 3));
    const r = await call('PATCH', '/tenants/3', { json: { contract: { trialEndsAt: '2026-12-31T00:00:00Z' } } });
    expect(r.body.contract.trialEndsAt).toBe('2026-12-31T00:00:00.000Z');
    expect((await call('PATCH', '/tenants/3', { json: {} })).status).toBe(422);
    expect((await call('PATCH', '/tenants/3', { json: { status: 'gone' } })).status).toBe(422);
  });

  it('gets and lists tenants with filters; unknown ids are 404', async () => {
    const one = await call('GET', '/tenants/2');
    expect(one.body).toMatchObject({ id: 2, name: 'Globex 株式会社', initialSubdomain: 'globex', subdomain: 'globex-jp', status: 'trial' });
    expect((await call('GET', '/tenants/99')).body).toEqual({ message: 'not-found' });
    expect((await call('GET', '/tenants/abc')).status).toBe(404);
    expect((await call('GET', '/tenants')).body.tenants.map((t: { id: number }) => t.id)).toEqual([3, 2, 1]);
    expect((await call('GET', '/tenants?status=contracted')).body.tenants.map((t: { id: number }) => t.id)).toEqual([1]);
    expect((await call('GET', '/tenants?q=GLOBEX-jp')).body.tenants.map((t: { id: number }) => t.id)).toEqual([2]);
    expect((await call('GET', '/tenants?q=%25')).body.tenants).toEqual([]);
    expect((await call('GET', '/tenants?status=nope')).status).toBe(422);
    const acme = (await call('GET', '/tenants/1')).body;
    // Four active members (gone@acme.test is deactivated), one admin.
    expect(acme.members).toEqual({ active: 4, admins: 1 });
    expect(acme.apps).toEqual([
      { app: 'meishi', seats: 10, used: 4 },
      { app: 'scheduler', seats: 5, used: 1 },
    ]);
    const reads = await h.deps.db.select().from(activityLogs).where(like(activityLogs.action, 'operator.tenant%'));
    expect(reads.map((l) => l.action)).toContain('operator.tenants_listed');
  });
});

describe('tenant managers', () => {
  it('grants and revokes is_tenant_manager; a revoked manager loses tenant hosts at the next request', async () => {
    expect((await call('GET', '/managers')).body.managers).toEqual([{ id: 7, name: 'Staff Manager', email: 'manager@staff.test' }]);
    const staff = h.client('initech.localhost:8787');
    expect((await staff.login('manager@staff.test')).body.message).toBe('success');
    expect((await staff.get('/accounts/api/user')).status).toBe(200);

    expect((await call('POST', '/managers/revoke', { json: { email: 'MANAGER@staff.test' } })).body).toMatchObject({ email: 'manager@staff.test', isTenantManager: false });
    expect((await staff.get('/accounts/api/user')).status).toBe(401);

    expect((await call('POST', '/managers', { json: { email: 'user@acme.test' } })).body).toMatchObject({ id: 2, isTenantManager: true });
    expect((await call('GET', '/managers')).body.managers.map((m: { email: string }) => m.email)).toEqual(['user@acme.test']);
    expect((await call('POST', '/managers', { json: { email: 'nobody@nowhere.test' } })).body).toEqual({ message: 'user-not-found' });
    expect((await call('POST', '/managers', { json: { email: 'not-an-email' } })).status).toBe(422);
    const log = await h.deps.db.select().from(activityLogs).where(inArray(activityLogs.action, ['operator.manager_granted', 'operator.manager_revoked']));
    expect(log.map((l) => [l.action, l.targetId])).toEqual([
      ['operator.manager_revoked', '7'],
      ['operator.manager_granted', '2'],
    ]);
  });
});

describe('maintenance messages', () => {
  it('posts a message with a window; the public banner call shows it only inside the window; delete removes it', async () => {
    const start = new Date(h.clock.now() + 60 * 60_000).toISOString();
    const end = new Date(h.clock.now() + 2 * 60 * 60_000).toISOString();
    const posted = await call('POST', '/maintenance-messages', { json: { app: 'meishi', messageJa: '今夜メンテナンス', messageEn: 'Maintenance tonight', startsAt: start, endsAt: end } });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ app: 'meishi', startsAt: start, endsAt: end, active: false });
    const banner = () => h.client('acme.localhost:8787').get('/accounts/api/maintenance-messages', { headers: { 'accept-language': 'en' } });
    expect((await banner()).body.meishi).toBeNull();
    h.clock.advance(90 * 60_000);
    expect((await banner()).body).toMatchObject({ meishi: expect.stringMatching(/今夜メンテナンス|Maintenance tonight/), accounts: null });
    expect((await call('GET', '/maintenance-messages')).body.messages).toMatchObject([{ id: posted.body.id, active: true }]);
    expect((await call('DELETE', `/maintenance-messages/${posted.body.id}`)).body).toEqual({ message: 'success' });
    expect((await banner()).body.meishi).toBeNull();
    expect((await call('DELETE', `/maintenance-messages/${posted.body.id}`)).status).toBe(404);
  });

  it('refuses an unknown app, an empty text and an end before the start', async () => {
    const bad = await call('POST', '/maintenance-messages', { json: { app: 'operator', messageJa: '', messageEn: 'x', startsAt: '2026-11-22T00:00:00Z', endsAt: '2026-11-21T00:00:00Z' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['app', 'messageJa']);
    const order = await call('POST', '/maintenance-messages', { json: { app: 'accounts', messageJa: 'a', messageEn: 'b', startsAt: '2026-11-22T00:00:00Z', endsAt: '2026-11-21T00:00:00Z' } });
    expect(Object.keys(order.body.errors)).toEqual(['endsAt']);
  });

  it('lists ended messages only with all=true', async () => {
    await call('POST', '/maintenance-messages', { json: { app: 'scheduler', messageJa: 'a', messageEn: 'b', endsAt: new Date(h.clock.now() + 1000).toISOString() } });
    h.clock.advance(2000);
    expect((await call('GET', '/maintenance-messages')).body.messages).toEqual([]);
    expect((await call('GET', '/maintenance-messages?all=true')).body.messages).toHaveLength(1);
  });
});

describe('service requests', () => {
  it('lists pending get-more-services requests and contract applications from every tenant, and marks them handled once', async () => {
    const acme = h.client('acme.localhost:8787', { ip: '133.242.10.20' });
    await acme.login('admin@acme.test');
    expect((await acme.post('/accounts/api/admin/get-more-services', [{ key: 'addMeishiUsers', value: 5 }])).body.message).toBe('success');
    const initech = h.client('initech.localhost:8787');
    await initech.login('admin@initech.test');
    expect((await initech.post('/accounts/api/apply-for-contract')).body.message).toBe('success');

    const all = (await call('GET', '/service-requests')).body.requests;
    expect(all).toHaveLength(2);
    expect(all.find((r: { kind: string }) => r.kind === 'get_more_services')).toMatchObject({
      tenant: { id: 1, name: 'Acme Corporation', initialSubdomain: 'acme' },
      requestedBy: { email: 'admin@acme.test' },
      payload: [{ key: 'addMeishiUsers', value: 5 }],
      handledAt: null,
    });
    expect((await call('GET', '/service-requests?kind=contract_application')).body.requests.map((r: { tenant: { id: number } }) => r.tenant.id)).toEqual([3]);
    expect((await call('GET', '/service-requests?tenantId=1')).body.requests).toHaveLength(1);

    const id = all[0].id;
    expect((await call('POST', `/service-requests/${id}/handled`)).body).toMatchObject({ id });
    expect((await call('POST', `/service-requests/${id}/handled`)).body).toEqual({ message: 'already-handled' });
    expect((await call('POST', '/service-requests/999/handled')).status).toBe(404);
    expect((await call('GET', '/service-requests')).body.requests).toHaveLength(1);
    expect((await call('GET', '/service-requests?state=all')).body.requests).toHaveLength(2);
    expect((await h.deps.db.select().from(serviceRequests).where(eq(serviceRequests.id, id)).get())!.handledAt).toBe(h.clock.now());
  });
});

describe('audit', () => {
  it('every successful call leaves an entry naming the token, the address and the client', async () => {
    for (const [m, p, json] of EVERY_CALL) await call(m, p, { json });
    const rows = await h.deps.db.select().from(activityLogs).where(like(activityLogs.action, 'operator.%'));
    // One entry per call that reached a handler (the two deletes/handled of missing rows answer 404).
    expect(rows.length).toBeGreaterThanOrEqual(EVERY_CALL.length - 2);
    for (const r of rows) {
      expect(r.actorUserId).toBeNull();
      expect(r.ipAddress).toBe('203.0.113.10');
      expect(r.details).toMatchObject({ operatorTokenName: 'ops test' });
    }
  });
});
