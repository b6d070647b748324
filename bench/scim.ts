// npm run bench:scim: SCIM provisioning figures (issue 25, decision 0040), written into the "SCIM
// provisioning" section of bench/RESULTS-people.md (bench/people.ts keeps that section when it
// rewrites the file). Never part of the test suite. The app runs in this process (createApp +
// app.request, no socket) on a libSQL file in a temporary folder, with the real migrations:
//  - a tenant of N people provisioned at Entra ID's pace (one request at a time: the userName
//    look-up, then the create) and at Okta's (the same pair from several clients at once), into a
//    tenant with unlimited seats: seconds, creates per second, latency of the create, errors;
//  - GET /Users?filter=userName eq "…" on that tenant (the look-up both IdPs send before every
//    create): p50/p95 and the number of database round trips (batches) per request.
import { mkdtempSync, rmSync } from 'node:fs';
import { replaceSection } from './results-section';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadArgon2Node } from '../src/adapters/argon2-node';
import { migrateLibsql, openLibsql } from '../src/adapters/db-libsql';
import { createApp } from '../src/app';
import { inProcessDeps } from './in-process';
import { readConfig } from '../src/config';
import { createScimToken } from '../src/domain/scim/tokens';
import { createPasswordHasher } from '../src/domain/security/password-hashing';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(os.tmpdir(), 'portal-bench-scim-'));
const USERS = Number(process.env.BENCH_SCIM_USERS ?? 10_000);
const OKTA_CLIENTS = Number(process.env.BENCH_SCIM_OKTA_CLIENTS ?? 8);
const LOOKUPS = Number(process.env.BENCH_SCIM_LOOKUPS ?? 500);

// The per-token budget is raised: this measures the server, not the limit (6,000 a minute by default).
const config = readConfig({ DEV_MODE: 'true', SCIM_REQUESTS_PER_MINUTE: '1000000', MAIL_QUEUE_BATCH: '1' });
const { db, client } = openLibsql(`file:${join(dir, 'portal.db')}`);
await migrateLibsql(db, join(root, 'migrations'));
const passwords = createPasswordHasher(loadArgon2Node);
let batches = 0;
const batch = db.batch.bind(db);
db.batch = ((statements: never) => {
  batches++;
  return batch(statements);
}) as typeof db.batch;
const deps = inProcessDeps(db, config, passwords, '20.190.128.1');
const app = createApp(deps);

async function tenant(label: string): Promise<string> {
  const now = Date.now();
  const r = await client.execute({
    sql: `INSERT INTO tenants (name, initial_subdomain, status, feature_sso_users_limit, created_at, updated_at) VALUES (?, ?, 'contracted', 100000, ?, ?) RETURNING id`,
    args: [label, label, now, now],
  });
  const id = Number(r.rows[0]!.id);
  await client.execute({ sql: `INSERT INTO tenant_apps (tenant_id, app, seats, created_at) VALUES (?, 'meishi', NULL, ?)`, args: [id, now] });
  return (await createScimToken(db, id, { name: 'bench' }, { userId: null, name: 'bench', ip: null, userAgent: null }, now)).token;
}

function scim(label: string, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await app.request(`http://${label}.localhost:8787/accounts/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  };
}

const user = (email: string, i: number) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  userName: email,
  externalId: `ext-${i}`,
  active: true,
  name: { givenName: '太郎', familyName: `山田${i}` },
  emails: [{ primary: true, type: 'work', value: email }],
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: `部署${i % 20}` },
});

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))] ?? 0;
};

async function provision(label: string, clients: number) {
  const call = scim(label, await tenant(label));
  const createMs: number[] = [];
  let errors = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < USERS; i = next++) {
        const email = `person${i}@${label}.example`;
        if ((await call('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`)) !== 200) errors++;
        const c0 = performance.now();
        if ((await call('POST', '/Users', user(email, i))) !== 201) errors++;
        createMs.push(performance.now() - c0);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { label, call, seconds, createMs, errors };
}

const entra = await provision('entra', 1);
const okta = await provision('okta', OKTA_CLIENTS);

const lookupMs: number[] = [];
let lookupBatches = 0;
for (let i = 0; i < LOOKUPS; i++) {
  const email = `person${(i * 7919) % USERS}@entra.example`;
  const b0 = batches;
  const t0 = performance.now();
  await entra.call('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
  lookupMs.push(performance.now() - t0);
  lookupBatches += batches - b0;
}

const load = os.loadavg().map((x) => x.toFixed(1)).join(' / ');
const row = (r: typeof entra, pace: string) =>
  `| ${pace} | ${USERS.toLocaleString('en-US')} | ${r.seconds.toFixed(1)} | ${(USERS / r.seconds).toFixed(0)} | ${pct(r.createMs, 0.5).toFixed(1)} | ${pct(r.createMs, 0.95).toFixed(1)} | ${pct(r.createMs, 0.99).toFixed(1)} | ${r.errors} |`;
const section = `## SCIM provisioning (decision 0040)

Written by \`npm run bench:scim\` (bench/scim.ts) on ${new Date().toISOString()}, Node ${process.version}, a libSQL file
database; load average at the end ${load} on ${os.cpus().length} cores (the machine is shared: one run, not a lab).

Each person is the pair both IdPs send: \`GET /Users?filter=userName eq "…"&startIndex=1&count=100\`, then
\`POST /Users\` (Japanese name, department from the enterprise extension, externalId), into a tenant with
unlimited card-app seats and SSO off (so each create also queues an invitation). The token check, its
limits, the seat and SSO guards and the audit entry are part of every request. Entra's pace is one
request at a time; Okta's is ${OKTA_CLIENTS} clients at once. The per-token budget is raised for the run.

| pace | people | seconds | creates/s | create p50 ms | p95 ms | p99 ms | errors |
|---|---|---|---|---|---|---|---|
${row(entra, 'Entra ID (1 at a time)')}
${row(okta, `Okta (${OKTA_CLIENTS} at once)`)}

A filtered look-up by userName on the tenant of ${USERS.toLocaleString('en-US')} people, ${LOOKUPS} requests one at a time: p50
${pct(lookupMs, 0.5).toFixed(2)} ms, p95 ${pct(lookupMs, 0.95).toFixed(2)} ms, database round trips per request ${(lookupBatches / LOOKUPS).toFixed(2)} (the token
check, its limits, the last-use note, the page and the count in one batch; the address is found through
the unique index on \`users.email\`, the membership through \`tenant_users (tenant_id, user_id)\`).
`;

const file = join(root, 'bench', 'RESULTS-people.md');
replaceSection(file, '## SCIM provisioning', section);
client.close();
rmSync(dir, { recursive: true, force: true });
console.log(section);
