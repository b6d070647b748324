// Global setup of the "deno" vitest project: the real Deno entry (src/entry/deno.ts) on Deno from
// the npm `deno` package, with a fresh libSQL file and a real SMTP receiver on loopback.
//  1. the database file: migrations, the demo data and the SAML tests' tenant, written by Node
//     (the same migrator and seed the entries use), plus an operator token through the CLI;
//  2. `deno run` with the permissions `npm run start:deno` grants, on a free port;
//  3. teardown: Deno is stopped and the folder removed.
// It provides what the workers layer's tests read (workerPort, mailDir, operatorToken), so the
// server-level checks of tests/workers run unchanged against Deno (vitest.config.ts lists which).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { loadArgon2Node } from '../../src/adapters/argon2-node';
import { migrateLibsql, openLibsql } from '../../src/adapters/db-libsql';
import { readConfig } from '../../src/config';
import { seedDemo } from '../../src/db/seed';
import { demoSeedTools } from '../../src/domain/operations/demo-data';
import { createPasswordHasher } from '../../src/domain/security/password-hashing';
import { denoExecutable, denoPermissions } from '../../scripts/deno-path.mjs';
import { rawRequest } from '../workers/support/client';
import { startSmtp } from '../workers/support/smtp-receiver';
import { freePort } from '../support/free-port';

const root = fileURLToPath(new URL('../..', import.meta.url));
const STARTUP_TIMEOUT_MS = 60_000;

async function prepareDatabase(file: string): Promise<{ operatorToken: string; scimToken: string }> {
  const url = `file:${file}`;
  const { db, client } = openLibsql(url);
  try {
    await migrateLibsql(db, join(root, 'migrations'));
    const config = readConfig({ DEV_MODE: 'true' });
    await seedDemo(db, demoSeedTools(createPasswordHasher(loadArgon2Node), config.DATA_ENCRYPTION_KEY), Date.now());
    await client.executeMultiple(readFileSync(join(root, 'tests/workers/support/sso-tenant.sql'), 'utf8'));
  } finally {
    client.close();
  }
  // The operators' CLI writes the token row, as it would for a deployment.
  const made = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/portal-cli.ts'), 'token', 'create', '--name', 'deno', '--scopes', 'all', '--libsql', url, '--json'], { cwd: root, timeout: 40_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`deno setup: operator token failed: ${stdout}${stderr}`)) : resolve(stdout),
    ),
  );
  const token = /"token": "(pop_[A-Za-z0-9_-]{43})"/.exec(made)?.[1];
  if (!token) throw new Error(`deno setup: no operator token in:\n${made}`);
  // Acme's SCIM token, through the same CLI (tests/workers/scim.test.ts; decision 0040).
  const scim = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/portal-cli.ts'), 'scim-token', 'acme', '--name', 'Entra deno', '--libsql', url, '--json'], { cwd: root, timeout: 40_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`deno setup: SCIM token failed: ${stdout}${stderr}`)) : resolve(stdout),
    ),
  );
  const scimToken = /"token": "(scim_[A-Za-z0-9_-]{43})"/.exec(scim)?.[1];
  if (!scimToken) throw new Error(`deno setup: no SCIM token in:\n${scim}`);
  return { operatorToken: token, scimToken };
}

function startDeno(dir: string, port: number, smtpPort: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(denoExecutable(), ['run', ...denoPermissions(dir), 'src/entry/deno.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEV_MODE: 'true',
      LIBSQL_URL: `file:${join(dir, 'portal.db')}`,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}?tls=off`,
      // Mail links carry this origin and their signatures cover it: the port Deno listens on.
      PUBLIC_URL: `http://localhost:${port}`,
      // The tests vary the client address with this header, as they do on wrangler dev.
      TRUST_PROXY: 'cf-connecting-ip',
      SCHEDULE_MINUTES: '0',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const onData = (c: Buffer) => {
    log += c.toString();
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`deno setup: no "Portal (Deno) ready" within ${STARTUP_TIMEOUT_MS / 1000} s. Output:\n${log}`));
    }, STARTUP_TIMEOUT_MS);
    const check = () => {
      if (/Portal \(Deno\) ready/.test(log)) {
        clearTimeout(timer);
        resolve({ child, output: () => log });
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`deno setup: Deno exited (code ${code}, signal ${signal}) before it was ready. Output:\n${log}`));
    });
  });
}

export default async function setup(project: TestProject) {
  if (!existsSync(join(root, 'dist/public/accounts/assets/app.css'))) throw new Error('deno setup: build the assets first (node scripts/build.mjs)');
  const dir = mkdtempSync(join(tmpdir(), 'portal-deno-'));
  const mailDir = join(dir, 'mail');
  mkdirSync(mailDir);
  const smtp = await startSmtp(mailDir);
  let deno: Awaited<ReturnType<typeof startDeno>> | undefined;
  const onExit = () => deno?.child.kill('SIGKILL');
  process.once('exit', onExit);
  let operatorToken: string;
  let scimToken: string;
  try {
    ({ operatorToken, scimToken } = await prepareDatabase(join(dir, 'portal.db')));
    const port = await freePort();
    deno = await startDeno(dir, port, smtp.port);
    const health = await rawRequest(port, { method: 'GET', path: '/healthz', host: `localhost:${port}` });
    if (health.status !== 200) throw new Error(`deno setup: /healthz answered ${health.status}`);
    project.provide('workerOrigin', `http://127.0.0.1:${port}`);
    project.provide('workerPort', port);
    project.provide('publicPort', port);
  } catch (e) {
    deno?.child.kill('SIGKILL');
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', onExit);
    throw e;
  }
  project.provide('mailDir', mailDir);
  project.provide('operatorToken', operatorToken);
  project.provide('scimToken', scimToken);

  return async () => {
    const child = deno!.child;
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await smtp.close();
    process.off('exit', onExit);
    if (process.env.DENO_VERBOSE) console.log(deno!.output());
    rmSync(dir, { recursive: true, force: true });
  };
}
