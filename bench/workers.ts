// The Workers side of `npm run bench`: the real Workers entry in workerd (`wrangler dev`, dev
// mode) with a local D1, migrated and seeded like `npm start` does, in a temporary folder.
// What it measures: D1 round trips per request, read from the `X-D1-Round-Trips` header the
// worker sets in dev mode (each is a network hop to D1 in production; locally D1 is in-process,
// so times here say little about production and the count is the figure that matters), and a
// short load run of `GET api/user` for reference.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freePort } from '../tests/support/free-port';
import { call, renderDuration, type Reply } from './http';
import type { Screen } from './screens';

const root = fileURLToPath(new URL('..', import.meta.url));
const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0', NO_COLOR: '1', CI: 'true' };
const PASSWORD = 'Portal-Demo-2026!';

export interface RoundTripRow {
  request: string;
  status: number;
  roundTrips: string;
}
export interface WorkersScreen {
  name: string;
  status: number;
  roundTrips: string;
  /** Mean wall time of sequential requests, ms. */
  ms: number;
  /** Mean render time the worker reported for them (Server-Timing, dev mode), ms; null if none did. */
  renderMs: number | null;
}

export interface WorkersResult {
  rows: RoundTripRow[];
  load: { connections: number; seconds: number; rps: number; p50: number; p99: number; non2xx: number };
  screens: WorkersScreen[];
}

function step(label: string, args: string[]) {
  const r = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`workers bench: ${label} failed:\n${r.stdout}${r.stderr}`);
}

async function startDev(persist: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const inspector = await freePort();
  const child = spawn(
    process.execPath,
    [wrangler, 'dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(inspector), '--inspector-ip', '127.0.0.1',
      '--var', 'DEV_MODE:true', '--var', 'HANDOFF_BROWSER_BINDING:false', '--persist-to', persist, '--show-interactive-dev-session=false'],
    { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`workers bench: wrangler dev not ready in 60 s:\n${log}`)), 60_000);
    const onData = (c: Buffer) => {
      log += c.toString();
      if (new RegExp(`Ready on http://127\\.0\\.0\\.1:${port}\\b`).test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`workers bench: wrangler dev exited (${code}):\n${log}`)));
  });
  return { child, port };
}

function stop(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGTERM'); // the group: wrangler, esbuild, workerd
  } catch {
    /* gone already */
  }
}

const cookiesOf = (r: Reply) => ([] as string[]).concat(r.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!);

/** Sequential requests per screen whose mean wall time estimates a Worker's CPU for it. */
export const WORKERS_SEQUENTIAL = 20;

export async function workersBench(base: string, screenList: Screen[], log: (line: string) => void): Promise<WorkersResult> {
  const persist = mkdtempSync(join(os.tmpdir(), 'portal-bench-workers-'));
  let dev: { child: ChildProcess; port: number } | null = null;
  try {
    log('  migrating and seeding a local D1...');
    step('migrations', [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist]);
    step('seed', [tsx, join(root, 'scripts/seed.ts'), '--d1', '--persist-to', persist]);
    log('  starting wrangler dev...');
    dev = await startDev(persist);
    const { port } = dev;
    const host = `acme.localhost:${port}`;
    const json = { 'x-requested-with': 'XMLHttpRequest', origin: `http://${host}`, 'content-type': 'application/json' };
    const rows: RoundTripRow[] = [];
    const probe = async (label: string, path: string, cookie?: string) => {
      // The second answer: the first of a host may read it for the host cache.
      await call(port, host, 'GET', path, cookie ? { cookie } : {});
      const r = await call(port, host, 'GET', path, cookie ? { cookie } : {});
      rows.push({ request: label, status: r.status, roundTrips: String(r.headers['x-d1-round-trips'] ?? 'n/a') });
    };
    await probe('`GET api/user` signed out', `${base}/api/user`);
    await probe('login page signed out', `${base}/login`);
    const login = await call(port, host, 'POST', `${base}/api/v2/login`, json, JSON.stringify({ email: 'admin@acme.test', password: PASSWORD }));
    rows.push({ request: '`POST v2/login` (a write: primary)', status: login.status, roundTrips: String(login.headers['x-d1-round-trips'] ?? 'n/a') });
    const cookie = cookiesOf(login).join('; ');
    if (login.status !== 200 || !cookie.includes('portal_session=')) throw new Error(`workers bench: sign-in failed: ${login.status} ${login.body.toString('utf8').slice(0, 200)}`);
    await probe('`GET api/user` signed in', `${base}/api/user`, cookie);
    await probe('my-account page signed in', `${base}/my-account`, cookie);
    await probe('admin users page signed in', `${base}/admin/users`, cookie);
    await probe('`GET admin/users` (API) signed in', `${base}/api/admin/users`, cookie);
    for (const r of rows) log(`  ${r.request}: ${r.status}, ${r.roundTrips} round trip(s)`);

    // Every screen: its round trips, and the mean wall time of sequential requests (no
    // concurrency, so nothing but the request itself: an upper bound of its CPU in workerd).
    const screenRows: WorkersScreen[] = [];
    for (const screen of screenList) {
      const headers: Record<string, string> = screen.signedIn ? { cookie } : {};
      await call(port, host, 'GET', screen.path, headers);
      const r = await call(port, host, 'GET', screen.path, headers);
      // The page's own render figure: workerd under `wrangler dev` reads its clock to the
      // millisecond, so one request says 0 or 1 ms; the mean of the 20 estimates the render.
      const renders: number[] = [];
      const t0 = performance.now();
      for (let i = 0; i < WORKERS_SEQUENTIAL; i++) {
        const dur = renderDuration(await call(port, host, 'GET', screen.path, headers));
        if (dur !== null) renders.push(dur);
      }
      const ms = (performance.now() - t0) / WORKERS_SEQUENTIAL;
      const renderMs = renders.length === WORKERS_SEQUENTIAL ? renders.reduce((a, b) => a + b, 0) / renders.length : null;
      screenRows.push({ name: screen.name, status: r.status, roundTrips: String(r.headers['x-d1-round-trips'] ?? 'n/a'), ms, renderMs });
      log(`  ${screen.name}: ${r.status}, ${r.headers['x-d1-round-trips'] ?? 'n/a'} round trip(s), ${ms.toFixed(1)} ms${renderMs === null ? '' : `, render ${renderMs.toFixed(2)} ms`}`);
    }

    log('  load: GET api/user signed in, 16 connections, 5 s...');
    const result = await autocannon({
      url: `http://127.0.0.1:${port}${base}/api/user`,
      connections: 16,
      duration: 5,
      headers: { host, cookie },
    });
    const load = {
      connections: 16,
      seconds: 5,
      rps: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
    };
    log(`  ${load.rps} req/s, p99 ${load.p99} ms, non-2xx ${load.non2xx}`);
    return { rows, load, screens: screenRows };
  } finally {
    if (dev) stop(dev.child);
    rmSync(persist, { recursive: true, force: true });
  }
}

export function workersSection(w: WorkersResult): string[] {
  return [
    '## Workers (workerd + local D1)',
    '',
    '`wrangler dev` in dev mode with a local D1 migrated and seeded as `npm start` does. D1 round trips per request come from the `X-D1-Round-Trips` header the worker sets in dev mode (each request has its own D1 session, Sessions API; the count is of statements sent, batches count once). Each row is the second of two identical requests, so a host the first one read for the host cache is not counted again. Locally D1 runs in the same process, so the load figure below says little about production, where each round trip is a network hop: the count is the figure that matters.',
    '',
    '| request | status | D1 round trips |',
    '|---|---|---|',
    ...w.rows.map((r) => `| ${r.request} | ${r.status} | ${r.roundTrips} |`),
    '',
    `Load, for reference: \`GET api/user\` signed in at ${w.load.connections} connections for ${w.load.seconds} s: **${w.load.rps} req/s**, p50 ${w.load.p50} ms, p99 ${w.load.p99} ms, non-2xx ${w.load.non2xx} (workerd and the load generator on the same 2 cores).`,
    '',
  ];
}
