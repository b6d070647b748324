// Global setup of the "workers" vitest project: the real Workers entry in workerd with a local D1.
//  1. a fresh temporary persist dir (never the developer's .wrangler/state);
//  2. `wrangler d1 migrations apply DB --local --persist-to <dir>`;
//  3. the demo data via `scripts/seed.ts --d1 --persist-to <dir>` (hashes made by Node);
//     and the SAML tests' tenant (support/sso-tenant.sql, `wrangler d1 execute --file`);
//  4. `wrangler dev --persist-to <dir>` on free ports, waiting for "Ready on";
//  5. teardown: the whole process group is stopped and the dir removed.
// Tests read the server's address with inject('workerOrigin').
// WORKERS_VERBOSE=1 prints wrangler's output at the end; WORKERS_KEEP_STATE=1 keeps the D1.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { rawRequest } from './support/client';
import { startSmtp } from './support/smtp-receiver';
import { freePort } from '../support/free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://127.0.0.1:<port> of `wrangler dev`; send the tenant host in the Host header. */
    workerOrigin: string;
    workerPort: number;
    /** The port of PUBLIC_URL, which mail links and SAML metadata carry (8787, the dev default, on workerd). */
    publicPort: number;
    /** Folder where the loopback SMTP receiver writes each message the worker sent (one .eml each). */
    mailDir: string;
    /** An operator token with every scope, made by `npm run portal -- token create --d1`, then rotated (`token rotate --d1`). */
    operatorToken: string;
    /** The token it replaced (ended at once). Workers layer only. */
    retiredOperatorToken: string;
    /** `token list --d1 --json` after the rotation (its output as printed). Workers layer only. */
    operatorTokenList: string;
    /** Acme's SCIM token, made by `npm run portal -- scim-token acme --d1` (decision 0040). */
    scimToken: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const wranglerBin = join(root, 'node_modules/wrangler/bin/wrangler.js');
const tsxBin = join(root, 'node_modules/tsx/dist/cli.mjs');
// Failure limits (a normal start takes about 10 s in all: migrations 2 s, seed 5 s, dev 3 s).
const STARTUP_TIMEOUT_MS = 30_000;
const STEP_TIMEOUT_MS = 40_000;
// No telemetry, no colours (the "Ready on" match reads plain text), no prompts.
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0', NO_COLOR: '1', CI: 'true' };

function run(label: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: root, env, timeout: STEP_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
      if (err) reject(new Error(`workers setup: ${label} failed (${err.message.split('\n')[0]}). Output:\n${output}`));
      else resolve(output);
    });
  });
}

interface Dev {
  child: ChildProcess;
  port: number;
  output: () => string;
}

async function startDev(persistDir: string, smtpPort: number): Promise<Dev> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const args = [
    wranglerBin, 'dev',
    '--port', String(port), '--ip', '127.0.0.1',
    '--inspector-port', String(inspectorPort), '--inspector-ip', '127.0.0.1',
    '--var', 'DEV_MODE:true',
    '--var', `SMTP_URL:smtp://127.0.0.1:${smtpPort}?tls=off`,
    '--persist-to', persistDir,
    '--show-interactive-dev-session=false',
    // GET /__scheduled runs the worker's scheduled handler (the cron trigger's jobs).
    '--test-scheduled',
  ];
  // Its own process group, so teardown can stop wrangler, esbuild and both workerd processes.
  const child = spawn(process.execPath, args, { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const output = () => log;
  const onData = (chunk: Buffer) => {
    log += chunk.toString().replace(/\x1b\[[0-9;]*m/g, '');
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const dev = { child, port, output };

  await new Promise<void>((resolve, reject) => {
    const ready = new RegExp(`Ready on http://127\\.0\\.0\\.1:${port}\\b`);
    const timer = setTimeout(() => {
      cleanup();
      stopGroup(child, 'SIGKILL');
      reject(new Error(`workers setup: wrangler dev printed no "Ready on" within ${STARTUP_TIMEOUT_MS / 1000} s. Output:\n${log}`));
    }, STARTUP_TIMEOUT_MS);
    const check = () => {
      if (ready.test(log)) {
        cleanup();
        resolve();
      }
    };
    const exited = (code: number | null, signal: string | null) => {
      cleanup();
      stopGroup(child, 'SIGKILL'); // workerd may outlive a wrangler that gave up
      reject(new Error(`workers setup: wrangler dev exited (code ${code}, signal ${signal}) before "Ready on". Output:\n${log}`));
    };
    function cleanup() {
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      child.off('exit', exited);
    }
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.on('exit', exited);
  });
  return dev;
}

function stopGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopDev(dev: Dev) {
  const pid = dev.child.pid;
  if (pid === undefined) return;
  stopGroup(dev.child, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) stopGroup(dev.child, 'SIGKILL');
}

/**
 * Waits until the worker answers on the main domain (Host localhost:<port>; a bare 127.0.0.1 is
 * an unknown host to the portal). The first request also builds the app in the isolate.
 */
async function waitHealthy(port: number) {
  const deadline = Date.now() + 15_000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await rawRequest(port, { method: 'GET', path: '/healthz', host: `localhost:${port}` }, 5_000);
      if (res.status === 200) return;
      last = `status ${res.status}: ${res.text.slice(0, 300)}`;
    } catch (e) {
      last = String(e);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`workers setup: GET /healthz never answered 200 (${last})`);
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  if (!existsSync(join(root, 'dist/public/accounts/assets/app.css'))) {
    await run('build assets (scripts/build.mjs)', [join(root, 'scripts/build.mjs')]);
  }
  const persistDir = mkdtempSync(join(tmpdir(), 'portal-workers-'));
  const mailDir = join(persistDir, 'mail');
  mkdirSync(mailDir);
  const smtp = await startSmtp(mailDir);
  let dev: Dev | undefined;
  let operatorToken = '';
  let retiredOperatorToken = '';
  let operatorTokenList = '';
  let scimToken = '';
  // Should vitest die without running teardown, still leave no workerd behind.
  const onExit = () => dev && stopGroup(dev.child, 'SIGKILL');
  process.once('exit', onExit);
  try {
    await run('migrations', [wranglerBin, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistDir]);
    const seeded = await run('seed', [tsxBin, join(root, 'scripts/seed.ts'), '--d1', '--persist-to', persistDir]);
    if (!/Demo data loaded/.test(seeded)) throw new Error(`workers setup: the seed loaded nothing. Output:\n${seeded}`);
    // The operators' CLI writes the token row to this D1 through `wrangler d1 execute`.
    const made = await run('operator token', [tsxBin, join(root, 'scripts/portal-cli.ts'), 'token', 'create', '--name', 'workers', '--scopes', 'all', '--d1', '--persist-to', persistDir, '--json']);
    retiredOperatorToken = /"token": "(pop_[A-Za-z0-9_-]{43})"/.exec(made)?.[1] ?? '';
    if (!retiredOperatorToken) throw new Error(`workers setup: no operator token. Output:\n${made}`);
    // Rotated at once through the same path (one INSERT ... SELECT on D1): the tests use the
    // successor, and check that the first one is refused and how `token list` reads D1.
    const madeId = /"id": (\d+)/.exec(made)?.[1] ?? '';
    const rotated = await run('operator token rotation', [tsxBin, join(root, 'scripts/portal-cli.ts'), 'token', 'rotate', madeId, '--d1', '--persist-to', persistDir, '--json']);
    operatorToken = /"token": "(pop_[A-Za-z0-9_-]{43})"/.exec(rotated)?.[1] ?? '';
    if (!operatorToken) throw new Error(`workers setup: the operator token was not rotated. Output:\n${rotated}`);
    operatorTokenList = await run('operator token list', [tsxBin, join(root, 'scripts/portal-cli.ts'), 'token', 'list', '--d1', '--persist-to', persistDir, '--json']);
    // Acme's SCIM token, through the CLI's D1 path as well (tests/workers/scim.test.ts).
    const scim = await run('scim token', [tsxBin, join(root, 'scripts/portal-cli.ts'), 'scim-token', 'acme', '--name', 'Entra workers', '--d1', '--persist-to', persistDir, '--json']);
    scimToken = /"token": "(scim_[A-Za-z0-9_-]{43})"/.exec(scim)?.[1] ?? '';
    if (!scimToken) throw new Error(`workers setup: no SCIM token. Output:\n${scim}`);
    // The SAML tests' own tenant with an SSO member (tests/workers/saml.test.ts).
    await run('sso tenant', [wranglerBin, 'd1', 'execute', 'DB', '--local', '--persist-to', persistDir, '--file', join(root, 'tests/workers/support/sso-tenant.sql')]);
    await run('revocation tenant', [wranglerBin, 'd1', 'execute', 'DB', '--local', '--persist-to', persistDir, '--file', join(root, 'tests/workers/support/revocation-tenant.sql')]);
    // An enforcing tenant for the SMS setup at login (tests/workers/twofa-setup-sms.test.ts).
    await run('2fa tenant', [wranglerBin, 'd1', 'execute', 'DB', '--local', '--persist-to', persistDir, '--file', join(root, 'tests/workers/support/twofa-tenant.sql')]);
    // A port taken between freePort() and wrangler's bind gets one more try on new ports.
    for (let attempt = 1; ; attempt++) {
      try {
        dev = await startDev(persistDir, smtp.port);
        break;
      } catch (e) {
        if (attempt < 2 && /EADDRINUSE|address already in use/i.test(String(e))) continue;
        throw e;
      }
    }
    await waitHealthy(dev.port);
  } catch (e) {
    if (dev) await stopDev(dev);
    await smtp.close();
    rmSync(persistDir, { recursive: true, force: true });
    process.off('exit', onExit);
    throw e;
  }
  if (process.env.WORKERS_VERBOSE) console.log(`workers setup: wrangler dev ready on ${dev.port} in ${Date.now() - started} ms`);
  project.provide('workerOrigin', `http://127.0.0.1:${dev.port}`);
  project.provide('workerPort', dev.port);
  project.provide('publicPort', 8787);
  project.provide('mailDir', mailDir);
  project.provide('operatorToken', operatorToken);
  project.provide('retiredOperatorToken', retiredOperatorToken);
  project.provide('operatorTokenList', operatorTokenList);
  project.provide('scimToken', scimToken);

  return async () => {
    await stopDev(dev!);
    await smtp.close();
    process.off('exit', onExit);
    if (process.env.WORKERS_VERBOSE) console.log(dev!.output());
    // WORKERS_KEEP_STATE=1 keeps the D1 for a look afterwards (path printed).
    if (process.env.WORKERS_KEEP_STATE) console.log(`workers teardown: local D1 kept in ${persistDir}/v3/d1`);
    else rmSync(persistDir, { recursive: true, force: true });
  };
}
