// The operators' command-line tool (scripts/portal-cli.ts) against the app served over real HTTP
// on loopback, and its local token administration on a libSQL file.
import { serve, type ServerType } from '@hono/node-server';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../scripts/portal-cli';
import { APP_VERSION } from '../../src/config';
import { migrateLibsql, openLibsql } from '../../src/adapters/db-libsql';
import { authenticateOperator, createOperatorToken } from '../../src/domain/operator/tokens';
import { OPERATOR_SCOPES } from '../../src/shared/operator/schemas';
import { createHarness, type Harness } from '../support/harness';
import { cliOutput } from '../support/cli-output';

let h: Harness;
let server: ServerType;
let url: string;
let token: string;

beforeAll(async () => {
  h = await createHarness();
  token = (await createOperatorToken(h.deps.db, 'cli', [...OPERATOR_SCOPES], h.clock.now())).token;
  await new Promise<void>((resolve) => {
    server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      url = `http://localhost:${info.port}/accounts`;
      resolve();
    });
  });
});
afterAll(() => {
  server.close();
  h.close();
});

const cli = (...argv: string[]) => cliOutput(() => main([...argv, '--url', url, '--token', token]));

describe('portal CLI over the operator API', () => {
  it('creates a tenant, shows it by subdomain, updates it, and prints JSON with --json', async () => {
    const created = await cli('tenants', 'create', '--name', 'Hooli', '--subdomain', 'hooli', '--admin-email', 'gavin@hooli.test', '--admin-name', 'Gavin', '--app', 'meishi=3', '--app', 'scheduler', '--feature', 'sso-users=2', '--feature', 'ip-restriction=on', '--trial-ends', '2026-12-31');
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out).toContain('#4 Hooli  [trial]');
    expect(created.out).toContain('meishi 1/3, scheduler 1/unlimited');
    expect(created.out).toContain('Invitation mailed to gavin@hooli.test.');

    const shown = await cli('tenants', 'get', 'hooli', '--json');
    expect(shown.code).toBe(0);
    const t = JSON.parse(shown.out);
    expect(t).toMatchObject({ id: 4, initialSubdomain: 'hooli', features: { featureSsoUsersLimit: 2, isFeatureIpRestrictionSubscribed: true }, contract: { trialEndsAt: '2026-12-30T15:00:00.000Z' } });

    const updated = await cli('tenants', 'update', 'hooli', '--status', 'contracted', '--trial-ends', 'none', '--contract-starts', '2027-01-01T00:00:00Z', '--app', 'meishi=50');
    expect(updated.code).toBe(0);
    expect(updated.out).toContain('[contracted]');
    expect(updated.out).toContain('meishi 1/50');
    expect(updated.out).not.toContain('scheduler');

    const list = await cli('tenants', 'list', '--status', 'contracted');
    expect(list.out.split('\n').map((l) => l.split(/\s+/)[0])).toEqual(['ID', '4', '1']);
  });

  it('manages tenant managers, maintenance messages and service requests', async () => {
    expect((await cli('managers', 'grant', 'user@acme.test')).out).toBe('user@acme.test is now a tenant manager.');
    expect((await cli('managers', 'list')).out).toContain('user@acme.test');
    expect((await cli('managers', 'revoke', 'user@acme.test')).code).toBe(0);

    const posted = await cli('maintenance', 'post', '--app', 'scheduler', '--ja', '停止します', '--en', 'Down for maintenance', '--json');
    const id = JSON.parse(posted.out).id;
    expect((await cli('maintenance', 'list')).out).toContain('停止します / Down for maintenance');
    expect((await cli('maintenance', 'delete', String(id))).out).toBe(`Deleted maintenance message #${id}.`);

    expect((await cli('requests', 'list')).out).toBe('(none)');
    expect((await cli('health')).out).toBe(`${url}: ok, database ok, version ${APP_VERSION}`);
  });

  it('reports errors plainly with an exit code: API refusals 1, usage mistakes 64', async () => {
    const taken = await cli('tenants', 'create', '--name', 'X', '--subdomain', 'acme', '--admin-email', 'x@x.test', '--admin-name', 'X', '--app', 'meishi');
    expect(taken).toMatchObject({ code: 1, err: 'Error: subdomain-taken [HTTP 409]' });
    const invalid = await cli('maintenance', 'post', '--app', 'operator', '--ja', 'a', '--en', 'b');
    expect(invalid.code).toBe(1);
    expect(invalid.err).toMatch(/^Error: The given data was invalid\. \[HTTP 422\]\n {2}app: /);
    expect((await cli('tenants', 'get', 'nowhere')).err).toBe('Error: No tenant with the subdomain "nowhere"');
    expect((await cli('tenants', 'create', '--name', 'X')).code).toBe(64);
    expect((await cli('tenants', 'update', '1', '--trial-ends', 'soon')).err).toMatch(/--trial-ends: expected YYYY-MM-DD/);
    expect((await cli('tenants', 'frobnicate')).code).toBe(64);
    expect((await cli('tenants', 'list', '--bogus')).code).toBe(64);
    const help = await cli('maintenance', 'post', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: npm run portal -- maintenance post --app <app>/);
  });

  it('names the problem when the token is wrong or the portal is unreachable', async () => {
    const out: string[] = [];
    const error = console.error;
    console.error = (...a: unknown[]) => out.push(a.join(' '));
    try {
      expect(await main(['whoami', '--url', url, '--token', `pop_${'Z'.repeat(43)}`])).toBe(1);
      expect(await main(['whoami', '--url', 'http://127.0.0.1:9/accounts', '--token', token])).toBe(1);
    } finally {
      console.error = error;
    }
    expect(out[0]).toBe('Error: invalid-token (the token is wrong, expired or revoked) [HTTP 401]');
    expect(out[1]).toMatch(/^Error: Cannot reach http:\/\/127\.0\.0\.1:9\/accounts\/api\/operator\/whoami: /);
  });
});

describe('token administration on a libSQL database', () => {
  const DAY = 86_400_000;
  let dir: string;
  let dbUrl: string;
  let db: ReturnType<typeof openLibsql>['db'];
  let client: ReturnType<typeof openLibsql>['client'];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-cli-'));
    dbUrl = `file:${join(dir, 'portal.db')}`;
    ({ db, client } = openLibsql(dbUrl));
    await migrateLibsql(db, fileURLToPath(new URL('../../migrations', import.meta.url)));
  });
  afterEach(() => {
    client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (...argv: string[]) => cliOutput(() => main([...argv, '--libsql', dbUrl]));

  it('creates (printed once, stored hashed, 90 days by default), lists and revokes; a revoked token is refused', async () => {
    const before = Date.now();
    const created = await run('token', 'create', '--name', 'ops laptop', '--scopes', 'tenants:read,requests:read', '--json');
    expect(created.code).toBe(0);
    const { id, token: secret, expiresAt } = JSON.parse(created.out);
    expect(secret).toMatch(/^pop_[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 90 * DAY);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 90 * DAY);
    const row = (await client.execute('select token_hash, scopes, expires_at from operator_tokens')).rows[0]!;
    expect(row.token_hash).not.toBe(secret);
    expect(JSON.parse(String(row.scopes))).toEqual(['requests:read', 'tenants:read']);
    expect(Number(row.expires_at)).toBe(expiresAt);

    const listed = await run('token', 'list');
    expect(listed.out).toMatch(/ops laptop\s+requests:read,tenants:read\s+active\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+-\s+-/);
    expect(listed.out).not.toContain(secret);

    expect((await run('token', 'revoke', String(id))).out).toBe(`Revoked operator token #${id}.`);
    expect(await authenticateOperator(db, secret, Date.now())).toEqual({ ok: false, reason: 'invalid-token' });
    expect((await run('token', 'list')).out).toMatch(/ops laptop\s+requests:read,tenants:read\s+revoked\s+revoked \d{4}-/);
  });

  it('takes --expires-in in days (1 to 365) and says when the token expires', async () => {
    const created = await run('token', 'create', '--name', 'short', '--scopes', 'all', '--expires-in', '7');
    expect(created.code).toBe(0);
    const expires = /expiring (\S+) \(in 7 days\)\./.exec(created.out)?.[1];
    expect(Math.abs(Date.parse(expires!) - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    for (const bad of ['0', '366', 'soon']) {
      const r = await run('token', 'create', '--name', 'x', '--scopes', 'all', '--expires-in', bad);
      expect(r.code, bad).toBe(64);
      expect(r.err).toBe(`Error: --expires-in: expected a whole number of days from 1 to 365; got "${bad}"`);
    }
    expect((await client.execute('select count(*) as n from operator_tokens')).rows[0]!.n).toBe(1);
  });

  it('rotates: a new token with the same name and scopes printed once; the old one ends at once or after the overlap', async () => {
    const first = JSON.parse((await run('token', 'create', '--name', 'deployer', '--scopes', 'tenants:read,tenants:write', '--json')).out);
    const rotated = await run('token', 'rotate', String(first.id), '--overlap', '15', '--expires-in', '30');
    expect(rotated.code).toBe(0);
    const secret = /\n\n(pop_[A-Za-z0-9_-]{43})\n?$/.exec(rotated.out)?.[1];
    expect(secret).toBeDefined();
    expect(rotated.out).toMatch(new RegExp(`^Rotated operator token #${first.id} "deployer": the new token #2 has scopes tenants:read, tenants:write and expires \\S+ \\(in 30 days\\); #${first.id} keeps working until \\S+\\.`));
    const check = async (t: string) => (await authenticateOperator(db, t, Date.now())).ok;
    expect(await check(first.token)).toBe(true);
    expect(await check(secret!)).toBe(true);
    expect(await authenticateOperator(db, first.token, Date.now() + 15 * 60_000)).toEqual({ ok: false, reason: 'invalid-token' });

    const listed = await run('token', 'list', '--json');
    const tokens = JSON.parse(listed.out).tokens;
    expect(tokens.map((t: { id: number; state: string }) => [t.id, t.state])).toEqual([
      [first.id, 'ending'],
      [2, 'active'],
    ]);
    expect((await run('token', 'list')).out).toMatch(/deployer\s+tenants:read,tenants:write\s+ending \(→ #2\)/);

    // Once per token; the successor is the one to rotate, at once by default.
    const again = await run('token', 'rotate', String(first.id));
    expect(again).toMatchObject({ code: 1, err: `Error: Operator token #${first.id} was already rotated, to #2: rotate that one` });
    const next = await run('token', 'rotate', '2', '--json');
    expect(next.code).toBe(0);
    const n = JSON.parse(next.out);
    expect(n).toMatchObject({ id: 3, name: 'deployer', scopes: ['tenants:read', 'tenants:write'], replaced: { id: 2 } });
    expect(await check(secret!)).toBe(false);
    expect(await check(n.token)).toBe(true);
    expect((await run('token', 'rotate', '3')).out).toMatch(/#3 has ended\./);
  });

  it('refuses to rotate what cannot be rotated, with the reason and an exit code', async () => {
    await run('token', 'create', '--name', 'old', '--scopes', 'all');
    await run('token', 'revoke', '1');
    expect(await run('token', 'rotate', '1')).toMatchObject({ code: 1, err: 'Error: Operator token #1 is revoked: create a new one instead (token create)' });
    expect(await run('token', 'rotate', '42')).toMatchObject({ code: 1, err: 'Error: No operator token #42' });
    expect((await run('token', 'rotate', 'one')).code).toBe(64);
    const overlap = await run('token', 'rotate', '1', '--overlap', '1441');
    expect(overlap).toMatchObject({ code: 64, err: 'Error: --overlap: expected a whole number of minutes from 0 to 1440 (one day); got "1441"' });
    expect((await client.execute('select count(*) as n from operator_tokens')).rows[0]!.n).toBe(1);
  });

  it('lists working tokens first (soonest end on top), then ended ones, with the last use and its address', async () => {
    const mk = async (name: string, days: string) => JSON.parse((await run('token', 'create', '--name', name, '--scopes', 'tenants:read', '--expires-in', days, '--json')).out);
    const late = await mk('late', '300');
    const soon = await mk('soon', '2');
    await mk('gone', '90');
    await run('token', 'revoke', '3');
    expect((await authenticateOperator(db, soon.token, Date.now(), '203.0.113.77')).ok).toBe(true);
    expect((await authenticateOperator(db, late.token, Date.now(), '2001:db8::5')).ok).toBe(true);
    const lines = (await run('token', 'list')).out.split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+SCOPES\s+STATE\s+ENDS\s+LAST USED\s+FROM\s+CREATED$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(['2 soon', '1 late', '3 gone']);
    expect(lines[1]).toMatch(/ active .* 203\.0\.113\.77 /);
    expect(lines[2]).toMatch(/ active .* 2001:db8::5 /);
  });
});

describe('migration 0004 (token lifetimes)', () => {
  it('gives tokens made before it 90 days from the moment it runs, so none stays valid forever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-migrate-'));
    const all = fileURLToPath(new URL('../../migrations', import.meta.url));
    const older = join(dir, 'migrations');
    cpSync(all, older, { recursive: true });
    // The migrations as they were before 0004.
    const journal = JSON.parse(readFileSync(join(older, 'meta/_journal.json'), 'utf8'));
    journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < '0004');
    writeFileSync(join(older, 'meta/_journal.json'), JSON.stringify(journal));
    const { db, client } = openLibsql(`file:${join(dir, 'portal.db')}`);
    try {
      await migrateLibsql(db, older);
      await client.execute("insert into operator_tokens (name, token_hash, scopes, created_at) values ('legacy', 'aa', '[\"tenants:read\"]', 1)");
      const before = Date.now();
      await migrateLibsql(db, all);
      const row = (await client.execute('select expires_at from operator_tokens')).rows[0]!;
      expect(Number(row.expires_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 90 * 86_400_000);
      expect(Number(row.expires_at)).toBeLessThanOrEqual(Date.now() + 90 * 86_400_000);
      // A writer that forgets the column (an older CLI through wrangler) makes a dead token.
      await client.execute("insert into operator_tokens (name, token_hash, scopes, created_at) values ('forgetful', 'bb', '[]', 2)");
      expect((await client.execute("select expires_at from operator_tokens where name = 'forgetful'")).rows[0]!.expires_at).toBe(0);
    } finally {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sso-certificates (decision 0042)', () => {
  it('lists tenants whose IdP certificates end within the days asked, with a token that may read tenants', async () => {
    const { makeKeyPair } = await import('../support/saml-idp');
    const { samlSettings } = await import('../../src/db/schema');
    // Valid from a day before the real now for 5 days: ends within 30 days of the harness clock.
    const soon = await makeKeyPair('idp ends soon', 5);
    await h.deps.db.insert(samlSettings).values({ tenantId: 1, idpEntityId: 'https://idp.example.test', idpSsoUrl: 'https://idp.example.test/sso', idpX509Cert: soon.certPem, isIdpConfigured: true });
    try {
      const listed = await cli('sso-certificates', '--days', '30');
      expect(listed.code).toBe(0);
      expect(listed.out).toMatch(/^TENANT\s+SUBDOMAIN\s+SSO\s+CERTIFICATE/);
      expect(listed.out).toContain('acme');
      const json = JSON.parse((await cli('sso-certificates', '--days', '30', '--json')).out);
      expect(json.tenants).toMatchObject([{ tenantId: 1, initialSubdomain: 'acme', certificates: [{ expired: false }] }]);
      expect((await cli('sso-certificates', '--days', '0')).out).toContain('No tenant has a certificate ending within 0 days.');
      expect((await cli('sso-certificates', '--days', 'soon')).code).toBe(64);
      const narrow = (await createOperatorToken(h.deps.db, 'requests only', ['requests:read'], h.clock.now())).token;
      const refused = await cliOutput(() => main(['sso-certificates', '--url', url, '--token', narrow]));
      expect(refused.code).toBe(1);
    } finally {
      await h.deps.db.delete(samlSettings);
    }
  });
});
