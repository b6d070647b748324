// The Node entry with several HTTP processes (WEB_CONCURRENCY, one per core in production): a
// primary prepares the database and runs the periodic jobs once, forked processes share the port.
// A session made through one process is honoured by the others (sessions live in the database),
// each process answers, and stopping the primary stops them all.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../bench/http';
import { freePort } from '../support/free-port';

let dir = '';
let child: ChildProcess;
let port = 0;
let output = '';
const host = () => `acme.localhost:${port}`;

/** The pids of the primary's Node children: the HTTP processes (tsx's esbuild service is not one). */
const childrenOf = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([, comm]) => comm === 'node')
    .map(([p]) => Number(p));

/** Running (a zombie left for a parent that is gone counts as stopped). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-processes-'));
  port = await freePort();
  child = spawn(process.execPath, ['--import', 'tsx', 'src/entry/node.ts'], {
    // A long host cache: a change must reach the sibling's cache at once, not when it runs out.
    env: { ...process.env, WEB_CONCURRENCY: '2', DEV_MODE: 'true', PORTAL_DOMAIN: 'localhost', BASE_PATH: '/accounts', PORT: String(port), HOST: '127.0.0.1', LIBSQL_URL: `file:${join(dir, 'p.db')}`, SCHEDULE_MINUTES: '0', SMTP_URL: '', HOST_CACHE_SECONDS: '300' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready:\n${output}`)), 60_000);
    child.stdout!.on('data', () => {
      if (output.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}, 70_000);

afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('WEB_CONCURRENCY=2', () => {
  it('says ready once, when both HTTP processes listen', () => {
    expect(output.match(/Portal \(Node\) ready/g)).toHaveLength(1);
    expect(output).toContain('(2 processes)');
    expect(childrenOf(child.pid!)).toHaveLength(2);
  });

  it('a session made through one process is honoured by every process, and each process answers', async () => {
    const login = await call(port, host(), 'POST', '/accounts/api/v2/login', { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', origin: `http://${host()}` }, JSON.stringify({ email: 'admin@acme.test', password: 'Portal-Demo-2026!', remember: false }));
    expect(login.status).toBe(200);
    const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    // New connections are dealt to the processes in turn (node:cluster's round robin).
    const statuses = await Promise.all(Array.from({ length: 8 }, () => call(port, host(), 'GET', '/accounts/api/user', { cookie, connection: 'close' })));
    expect(statuses.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(statuses.map((r) => JSON.parse(String(r.body)).user.email))).toEqual(new Set(['admin@acme.test']));
  });

  it('a tenant changed through one process is seen by the other at once (its host cache is told)', async () => {
    const json = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', origin: `http://${host()}` };
    const newHost = `acme-ipc.localhost:${port}`;
    // Both processes answer (and cache) the label as no tenant's: round robin over new connections.
    const before = await Promise.all(Array.from({ length: 8 }, () => call(port, newHost, 'GET', '/accounts/api/user', { connection: 'close' })));
    expect(before.map((r) => r.status)).toEqual(Array(8).fill(404));
    const login = await call(port, host(), 'POST', '/accounts/api/v2/login', { ...json, connection: 'close' }, JSON.stringify({ email: 'admin@acme.test', password: 'Portal-Demo-2026!', remember: false }));
    expect(login.status).toBe(200);
    const cookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const verified = await call(port, host(), 'POST', '/accounts/api/password/verify', { ...json, cookie, connection: 'close' }, JSON.stringify({ password: 'Portal-Demo-2026!', redirect: 'admin/subdomain' }));
    expect(verified.status).toBe(200);
    const changed = await call(port, host(), 'PATCH', '/accounts/api/admin/subdomain', { ...json, cookie, connection: 'close' }, JSON.stringify({ subdomain: 'acme-ipc' }));
    expect(changed.status).toBe(200);
    // The message goes primary -> sibling asynchronously; it arrives within milliseconds, not 300 s.
    await expect
      .poll(async () => (await Promise.all(Array.from({ length: 8 }, () => call(port, newHost, 'GET', '/accounts/api/user', { connection: 'close' })))).map((r) => r.status), { timeout: 2_000, interval: 20 })
      .toEqual(Array(8).fill(401));
  });

  it('stopping the primary stops the HTTP processes', async () => {
    const workers = childrenOf(child.pid!);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await expect.poll(() => workers.filter(alive), { timeout: 10_000 }).toEqual([]);
  });

  it('an HTTP process that cannot start (its port is taken) stops the primary instead of being forked again and again', async () => {
    const taken = createServer();
    const busyPort = await freePort();
    await new Promise<void>((r) => taken.listen(busyPort, '127.0.0.1', r));
    try {
      const primary = spawn(process.execPath, ['--import', 'tsx', 'src/entry/node.ts'], {
        env: { ...process.env, WEB_CONCURRENCY: '2', DEV_MODE: 'true', PORTAL_DOMAIN: 'localhost', PORT: String(busyPort), HOST: '127.0.0.1', LIBSQL_URL: `file:${join(dir, 'p.db')}`, SCHEDULE_MINUTES: '0', SMTP_URL: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errors = '';
      primary.stderr!.on('data', (d) => (errors += String(d)));
      const code = await new Promise<number | null>((r) => primary.once('exit', r));
      expect(code).toBe(1);
      expect(errors).toContain('http_process_exited');
    } finally {
      taken.close();
    }
  }, 60_000);
});
