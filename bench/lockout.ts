// npm run bench:lockout: how long the lock-out previews (issue 26, decision 0043) take on a
// tenant with 50,000 members; the issue asks for an answer within a second. Never part of the
// test suite. The app runs in this process (createApp + app.request, no socket) on a libSQL file
// with the real migrations and the demo data; Acme gets BENCH_LOCKOUT_MEMBERS members (50,000)
// seeded by SQL: a third with an authenticator, a tenth with a passkey, password traits of
// varied lengths, and BENCH_LOCKOUT_SIGN_INS sign-ins each (5) over the last 40 days from a few
// thousand addresses, a fifth of them through SSO, plus 200,000 audit entries of other kinds and
// another tenant's members. Each preview is requested BENCH_LOCKOUT_REPEAT times (20) after two
// warm-ups; the figures are p50, p95 and max of the whole HTTP answer, and the section is written
// to bench/RESULTS-people.md (replacing an earlier run's).
import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { replaceSection } from './results-section';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadArgon2Node } from '../src/adapters/argon2-node';
import { migrateLibsql, openLibsql } from '../src/adapters/db-libsql';
import { createApp } from '../src/app';
import { readConfig } from '../src/config';
import { seedDemo } from '../src/db/seed';
import { demoSeedTools } from '../src/domain/operations/demo-data';
import { createPasswordHasher } from '../src/domain/security/password-hashing';
import { inProcessDeps } from './in-process';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(os.tmpdir(), 'portal-bench-lockout-'));
const MEMBERS = Number(process.env.BENCH_LOCKOUT_MEMBERS ?? 50_000);
const SIGN_INS = Number(process.env.BENCH_LOCKOUT_SIGN_INS ?? 5);
const REPEAT = Number(process.env.BENCH_LOCKOUT_REPEAT ?? 20);
const ADMIN_IP = '133.242.10.20';

const config = readConfig({ DEV_MODE: 'true' });
const { db, client } = openLibsql(`file:${join(dir, 'portal.db')}`);
await migrateLibsql(db, join(root, 'migrations'));
const passwords = createPasswordHasher(loadArgon2Node);
const now = Date.now();
await seedDemo(db, demoSeedTools(passwords, config.DATA_ENCRYPTION_KEY), now);
const deps = inProcessDeps(db, config, passwords, ADMIN_IP);
const app = createApp(deps);
const host = `acme.localhost:${config.PORT ?? 8787}`;

const seedStart = performance.now();
const DAY = 86_400_000;
// Members: ids from 1000 up, in Acme (1); another 5,000 in Globex (2) who must never be counted.
await db.run(sql`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ${MEMBERS + 5000})
  INSERT INTO users (id, name, email, password_hash, password_traits, twofa_method, email_verified_at, language, created_at, updated_at)
  SELECT 1000 + x, 'メンバー ' || x, 'm' || x || '@bench.test', 'x',
    CASE WHEN x % 17 = 0 THEN NULL ELSE ((8 + x % 20) << 3) | (x % 8) END,
    CASE WHEN x % 3 = 0 THEN 'app' END, ${now}, 'ja', ${now}, ${now} FROM c`);
await db.run(sql`INSERT INTO tenant_users (tenant_id, user_id, is_admin, is_sso_enabled, saml_name_id, created_at, updated_at)
  SELECT CASE WHEN id - 1000 <= ${MEMBERS} THEN 1 ELSE 2 END, id, 0, 0, CASE WHEN id % 4 = 0 THEN 'n' || id END, ${now}, ${now} FROM users WHERE id > 1000`);
await db.run(sql`INSERT INTO passkeys (id, user_id, credential_id, public_key, aaguid, name, created_at)
  SELECT 'pk' || id, id, 'cred' || id, 'k', '00000000-0000-0000-0000-000000000000', 'Key', ${now} FROM users WHERE id > 1000 AND id % 10 = 0`);
// Sign-ins: each member SIGN_INS times over 40 days, from one of 4,000 addresses (a quarter in the office range).
await db.run(sql`WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k LIMIT ${SIGN_INS})
  INSERT INTO activity_logs (tenant_id, actor_user_id, action, ip_address, created_at)
  SELECT tu.tenant_id, tu.user_id, CASE WHEN (tu.user_id + k.n) % 5 = 0 THEN 'login.sso' ELSE 'login.succeeded' END,
    CASE WHEN (tu.user_id * 7 + k.n) % 4 = 0 THEN '133.242.20.' || ((tu.user_id + k.n) % 250 + 1)
      ELSE '198.51.' || ((tu.user_id + k.n) % 15) || '.' || ((tu.user_id * 3 + k.n) % 250 + 1) END,
    ${now} - ((tu.user_id + k.n * 7) % 40) * ${DAY}
  FROM tenant_users tu CROSS JOIN k WHERE tu.user_id > 1000`);
await db.run(sql`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 200000)
  INSERT INTO activity_logs (tenant_id, actor_user_id, action, ip_address, created_at)
  SELECT 1, 1000 + x % ${MEMBERS} + 1, 'user.updated', '198.51.100.1', ${now} - (x % 40) * ${DAY} FROM c`);
await db.run(sql`UPDATE tenants SET is_feature_twofa_enforcement_subscribed = 1, is_feature_ip_restriction_subscribed = 1, is_sso_enabled = 1, feature_sso_users_limit = ${MEMBERS + 100} WHERE id = 1`);
await db.run(sql`INSERT INTO whitelisted_ips (tenant_id, ip_address, prefix_length, created_at) VALUES (1, '133.242.10.0', 24, ${now}), (1, '133.242.20.0', 24, ${now})`);
await db.run(sql`ANALYZE`);
const seedSeconds = (performance.now() - seedStart) / 1000;
const signInRows = (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM activity_logs`))!.n;

const login = await app.request(`http://${host}${config.BASE_PATH}/api/v2/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', origin: `http://${host}` },
  body: JSON.stringify({ email: 'admin@acme.test', password: 'Portal-Demo-2026!', remember: false }),
});
const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
if (!cookie) throw new Error(`login failed: ${login.status} ${await login.text()}`);

const officeId = (await db.get<{ id: number }>(sql`SELECT id FROM whitelisted_ips WHERE ip_address = '133.242.20.0'`))!.id;
const scenarios: { name: string; path: string; body?: unknown }[] = [
  { name: '2FA required without skip', path: '/admin/lockout-preview', body: { kind: 'twofa', isTwofaEnforced: true, isTwofaSkipAllowed: false } },
  { name: 'IP allowlist switched on', path: '/admin/lockout-preview', body: { kind: 'ip-enable' } },
  { name: 'IP allowlist entry removed', path: '/admin/lockout-preview', body: { kind: 'ip-delete', id: officeId } },
  { name: 'SSO for all users', path: '/admin/users/enable-sso-for-all/preview' },
  { name: 'Stricter password policy', path: '/admin/lockout-preview', body: { kind: 'password-policy', policy: { minimumPasswordLength: 20, isMixedCaseRequired: true, isNumberRequired: true, isSpecialCharacterRequired: true } } },
];

const rows: string[] = [];
for (const s of scenarios) {
  const call = async () => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const res = await app.request(`http://${host}${config.BASE_PATH}/api${s.path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', origin: `http://${host}` },
      body: s.body === undefined ? undefined : JSON.stringify(s.body),
    });
    const body = (await res.json()) as { affected: number; members: number; unknown: number };
    if (res.status !== 200) throw new Error(`${s.name}: ${res.status} ${JSON.stringify(body)}`);
    const c = process.cpuUsage(c0);
    return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1000, body };
  };
  await call();
  await call();
  const times: number[] = [];
  const cpus: number[] = [];
  let last;
  for (let i = 0; i < REPEAT; i++) {
    const r = await call();
    times.push(r.ms);
    cpus.push(r.cpu);
    last = r.body;
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(0);
  rows.push(`| ${s.name} | ${last!.members} | ${last!.affected} | ${last!.unknown} | ${q(0.5)} | ${q(0.95)} | ${times[times.length - 1]!.toFixed(0)} | ${cpus[Math.floor(cpus.length / 2)]!.toFixed(0)} |`);
  console.log(rows[rows.length - 1]);
}

const load = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
const section = `## Lock-out previews on ${MEMBERS.toLocaleString('en-US')} members (decision 0043)

Written by \`npm run bench:lockout\` (bench/lockout.ts) on ${new Date().toISOString()}; Node ${process.version}, ${os.cpus().length} cores,
load average ${load} at the end (the machine is shared). Acme with ${MEMBERS.toLocaleString('en-US')} seeded members beside 5,000 of
another tenant, ${signInRows.toLocaleString('en-US')} audit entries (${SIGN_INS} sign-ins per member over 40 days, a fifth by SSO, and
200,000 of other kinds), a third of the members with an authenticator, a tenth with a passkey, one in
seventeen with password traits not yet recorded; seeding took ${seedSeconds.toFixed(1)} s. Each preview: the whole HTTP
answer (session check, the preview's statements, the rule per member, the JSON) over ${REPEAT} requests after two warm-ups,
in milliseconds, and the process CPU time per request (the database runs in this process, so CPU
time counts the queries too; it moves less than wall time when the shared machine is loaded). Issue 26
asks for an answer within a second.

| preview | members looked at | affected | unknown | p50 ms | p95 ms | max ms | CPU ms (p50) |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
const file = join(root, 'bench', 'RESULTS-people.md');
// Only this section is replaced; the sections of bench:people and bench:scim stay as they are.
replaceSection(file, '## Lock-out previews', section);
console.log(section);
client.close();
rmSync(dir, { recursive: true, force: true });
