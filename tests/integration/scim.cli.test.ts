// `npm run portal -- scim-token <tenant> [--name N]` (decision 0040): the operators' CLI makes a
// tenant's SCIM token on the database directly, prints it once with the tenant's SCIM base URL,
// stores only its digest, and the token opens that tenant's endpoint.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../scripts/portal-cli';
import { migrateLibsql, openLibsql } from '../../src/adapters/db-libsql';
import { tenants } from '../../src/db/schema';
import { authenticateScim } from '../../src/domain/scim/auth';
import { sha256Hex } from '../../src/domain/security/tokens';
import { cliOutput } from '../support/cli-output';

describe('scim-token on a libSQL database', () => {
  let dir: string;
  let dbUrl: string;
  let db: ReturnType<typeof openLibsql>['db'];
  let client: ReturnType<typeof openLibsql>['client'];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-scim-cli-'));
    dbUrl = `file:${join(dir, 'portal.db')}`;
    ({ db, client } = openLibsql(dbUrl));
    await migrateLibsql(db, fileURLToPath(new URL('../../migrations', import.meta.url)));
    const now = Date.now();
    await db.insert(tenants).values([
      { name: 'Hooli', initialSubdomain: 'hooli', subdomain: 'hooli-xyz', status: 'contracted', featureSsoUsersLimit: 5, createdAt: now, updatedAt: now },
      { name: 'Pied Piper', initialSubdomain: 'piper', status: 'trial', createdAt: now, updatedAt: now },
    ]);
  });
  afterEach(() => {
    client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (...argv: string[]) => cliOutput(() => main([...argv, '--libsql', dbUrl, '--url', 'https://portal.example.com/accounts']));

  it('prints the token once with the base URL; only its digest is stored; it opens that tenant only', async () => {
    const made = await run('scim-token', 'hooli-xyz', '--name', 'Okta setup');
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    expect(made.out).toContain('SCIM base URL: https://hooli.portal.example.com/accounts/scim/v2');
    const token = /scim_[A-Za-z0-9_-]{43}/.exec(made.out)?.[0];
    expect(token).toBeTruthy();
    const rows = (await client.execute('select tenant_id, name, token_hash, created_by_user_id from scim_tokens')).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Okta setup', token_hash: sha256Hex(token!), created_by_user_id: null });
    const audit = (await client.execute("select actor_name, action from activity_logs where action = 'scim.token_created'")).rows;
    expect(audit[0]).toMatchObject({ actor_name: 'operator CLI' });

    const cred = { presented: token!, ip: '198.51.100.1', now: Date.now(), requestsPerMinute: 100 };
    expect((await authenticateScim(db, { ...cred, label: 'hooli' })).kind).toBe('ok');
    expect((await authenticateScim(db, { ...cred, label: 'piper' })).kind).toBe('invalid');
  });

  it('--json, a default name, the note about a tenant without SSO, and usage errors', async () => {
    const made = await run('scim-token', 'piper', '--json');
    expect(made.code).toBe(0);
    const body = JSON.parse(made.out);
    expect(body).toMatchObject({ name: 'SCIM', baseUrl: 'https://piper.portal.example.com/accounts/scim/v2' });
    expect(body.token).toMatch(/^scim_/);
    expect((await run('scim-token', 'piper')).out).toContain('no SSO subscription');
    expect((await run('scim-token', 'nobody')).code).toBe(64);
    expect((await run('scim-token')).code).toBe(64);
    expect((await run('scim-token', 'hooli', '--expires-in', '9999')).code).toBe(64);
  });
});
