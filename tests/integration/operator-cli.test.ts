// The operators' command-line tool (scripts/portal-cli.ts) against the app served over real HTTP
// on loopback, and its local token administration on a libSQL file.
import { serve, type ServerType } from '@hono/node-server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../scripts/portal-cli';
import { APP_VERSION } from '../../src/config';
import { migrateLibsql, openLibsql } from '../../src/adapters/db-libsql';
import { createOperatorToken } from '../../src/domain/operator/tokens';
import { OPERATOR_SCOPES } from '../../src/shared/operator-schemas';
import { createHarness, type Harness } from '../support/harness';

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

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (...a: unknown[]) => out.push(a.join(' '));
  console.error = (...a: unknown[]) => err.push(a.join(' '));
  try {
    const code = await main([...argv, '--url', url, '--token', token]);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

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
    expect(out[0]).toBe('Error: invalid-token (the token is wrong or revoked) [HTTP 401]');
    expect(out[1]).toMatch(/^Error: Cannot reach http:\/\/127\.0\.0\.1:9\/accounts\/api\/operator\/whoami: /);
  });
});

describe('token administration on a libSQL database', () => {
  it('creates (printed once, stored hashed), lists and revokes; a revoked token is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-cli-'));
    const dbUrl = `file:${join(dir, 'portal.db')}`;
    const { db, client } = openLibsql(dbUrl);
    await migrateLibsql(db, fileURLToPath(new URL('../../migrations', import.meta.url)));
    const run = async (...argv: string[]) => {
      const out: string[] = [];
      const log = console.log;
      console.log = (...a: unknown[]) => out.push(a.join(' '));
      try {
        return { code: await main(argv), out: out.join('\n') };
      } finally {
        console.log = log;
      }
    };
    try {
      const created = await run('token', 'create', '--name', 'ops laptop', '--scopes', 'tenants:read,requests:read', '--libsql', dbUrl, '--json');
      expect(created.code).toBe(0);
      const { id, token: secret } = JSON.parse(created.out);
      expect(secret).toMatch(/^pop_[A-Za-z0-9_-]{43}$/);
      const row = (await client.execute('select token_hash, scopes from operator_tokens')).rows[0]!;
      expect(row.token_hash).not.toBe(secret);
      expect(JSON.parse(String(row.scopes))).toEqual(['requests:read', 'tenants:read']);

      const listed = await run('token', 'list', '--libsql', dbUrl);
      expect(listed.out).toMatch(/ops laptop\s+requests:read,tenants:read/);
      expect(listed.out).not.toContain(secret);

      expect((await run('token', 'revoke', String(id), '--libsql', dbUrl)).out).toBe(`Revoked operator token #${id}.`);
      const { authenticateOperator } = await import('../../src/domain/operator/tokens');
      expect(await authenticateOperator(db, secret, Date.now())).toEqual({ ok: false, reason: 'invalid-token' });
    } finally {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
