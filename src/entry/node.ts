// Node entry: libSQL (a local file by default, or LIBSQL_URL for a libSQL server / Turso),
// migrations on start, the demo data on an empty database in dev mode, static assets; one HTTP
// process per core in production (WEB_CONCURRENCY).
import './production-mode';
import './node-heap';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadArgon2Native } from '../adapters/argon2-native';
import { migrateLibsql, openLibsql } from '../adapters/db-libsql';
import { outboxMailer } from '../adapters/mail-outbox';
import { smsSender } from '../adapters/sms';
import { nodeOutbound } from '../adapters/outbound-node';
import { smtpMailerNode } from '../adapters/mail-smtp-node';
import { nodeRuntime } from '../adapters/runtime-node';
import { createApp } from '../app';
import { readConfig } from '../config';
import { isEmpty, seedDemo } from '../db/seed';
import { demoSeedTools } from '../domain/operations/demo-data';
import type { Deps } from '../deps';
import { createPasswordHasher } from '../domain/security/password-hashing';
import { runScheduledJobs } from '../domain/operations/schedule';
import { forgetAllHosts, hostChanges } from '../domain/tenants/hosts';
import { appUsageReporter } from '../adapters/app-usage';
import { startPeopleSweep } from './people-sweep';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function buildNodeDeps(env: NodeJS.ProcessEnv = process.env, opts: { migrate?: boolean } = {}): Promise<Deps & { close(): void }> {
  const config = readConfig(env);
  const url = env.LIBSQL_URL ?? `file:${root}.data/portal.db`;
  if (url.startsWith('file:') && !env.LIBSQL_URL) mkdirSync(`${root}.data`, { recursive: true });
  const { db, client } = openLibsql(url, { authToken: env.LIBSQL_AUTH_TOKEN });
  // An HTTP process of several finds the database prepared by its primary.
  if (opts.migrate !== false) await migrateLibsql(db, `${root}migrations`);
  const clock = { now: () => Date.now() };
  const passwords = createPasswordHasher(loadArgon2Native);
  if (config.DEV_MODE && opts.migrate !== false && (await isEmpty(db))) {
    await seedDemo(db, demoSeedTools(passwords, config.DATA_ENCRYPTION_KEY), clock.now());
    console.log('Loaded the demo data (DESIGN.md section 7).');
  }
  const mailer = config.SMTP_URL ? smtpMailerNode(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(db, clock.now);
  return { db, config, clock, passwords, mailer, sms: smsSender(config, db, clock.now), runtime: nodeRuntime(config), appUsage: appUsageReporter(config), outbound: nodeOutbound(), close: () => client.close() };
}

/**
 * How many processes serve HTTP: `WEB_CONCURRENCY`, else one per core in production and one in
 * dev mode (one process to debug; the browser tests' helpers expect one host cache).
 */
export function webConcurrency(env: NodeJS.ProcessEnv, devMode: boolean): number {
  const n = Number(env.WEB_CONCURRENCY);
  return Number.isInteger(n) && n > 0 ? n : devMode ? 1 : availableParallelism();
}

export async function startNode(env: NodeJS.ProcessEnv = process.env) {
  // A process serves one core; with more, a primary prepares the database once, runs the
  // periodic jobs once, and forks the HTTP processes (node:cluster shares the port among them).
  const processes = webConcurrency(env, readConfig(env).DEV_MODE);
  if (processes > 1 && cluster.isPrimary) return startPrimary(env, processes);
  const deps = await buildNodeDeps(env, { migrate: !cluster.isWorker });
  if (cluster.isWorker) relayHostChanges();
  else startJobs(deps, env);
  const server = serveHttp(deps, env, () => {
    if (!cluster.isWorker) console.log(readyLine(deps, env));
  });
  return server;
}

/** The primary of several HTTP processes: migrations and demo data, the jobs, and the workers. */
async function startPrimary(env: NodeJS.ProcessEnv, processes: number) {
  const deps = await buildNodeDeps(env);
  startJobs(deps, env);
  const listened = new Set<number>();
  let stopping = false;
  // The hashing threads are shared out: each process gets its part of the cores, not all of them.
  const hashThreads = env.ARGON2_CONCURRENCY ?? String(Math.max(1, Math.ceil(availableParallelism() / processes)));
  const fork = () => cluster.fork({ ...env, ARGON2_CONCURRENCY: hashThreads });
  // A tenant changed through one HTTP process: the others forget their cached hosts at once.
  cluster.on('message', (from, message: unknown) => {
    if (!isForgetHosts(message)) return;
    for (const w of Object.values(cluster.workers ?? {})) if (w && w !== from && w.isConnected()) w.send(FORGET_HOSTS);
  });
  cluster.on('listening', (worker) => {
    listened.add(worker.id);
    if (listened.size === processes) console.log(`${readyLine(deps, env)} (${processes} processes)`);
  });
  const stop = (code: number) => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    deps.close();
    process.exit(code);
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(JSON.stringify({ level: 'error', event: 'http_process_exited', pid: worker.process.pid, code, signal }));
    // One that never listened (a port in use, a bad setting) would fail again: stop, not loop.
    if (!listened.has(worker.id)) return stop(1);
    fork();
  });
  process.once('SIGTERM', () => stop(0));
  process.once('SIGINT', () => stop(0));
  for (let i = 0; i < processes; i++) fork();
}

const FORGET_HOSTS = { portal: 'forget-hosts' } as const;
const isForgetHosts = (m: unknown) => typeof m === 'object' && m !== null && (m as { portal?: unknown }).portal === FORGET_HOSTS.portal;

/**
 * One of several HTTP processes: a change to a tenant made here is sent to the primary, which
 * passes it to the siblings; one they send is applied here. Each keeps a host cache for its
 * signed-out reads (decision 0031), and none keeps a stale one after a change (decision 0035).
 */
function relayHostChanges() {
  hostChanges.publish = () => {
    if (process.connected) process.send?.(FORGET_HOSTS);
  };
  process.on('message', (message: unknown) => {
    if (isForgetHosts(message)) forgetAllHosts();
  });
}

function readyLine(deps: Deps, env: NodeJS.ProcessEnv): string {
  return `Portal (Node) ready: http://acme.${deps.config.PORTAL_DOMAIN}:${Number(env.PORT ?? 8787)}${deps.config.BASE_PATH}/login`;
}

/** The periodic jobs and the sweep: once per deployment's Node primary, never per HTTP process. */
function startJobs(deps: Deps, env: NodeJS.ProcessEnv) {
  // The periodic jobs (cleanup of expired rows, ...) the Workers cron trigger runs: every
  // SCHEDULE_MINUTES (default 60, 0 turns the timer off, e.g. when an outside cron runs them),
  // first a minute after start. unref(): the timer never keeps the process alive.
  const every = Number(env.SCHEDULE_MINUTES ?? 60);
  if (every > 0) {
    const tick = () => void runScheduledJobs(deps);
    setTimeout(tick, 60_000).unref();
    setInterval(tick, every * 60_000).unref();
  }
  // Unfinished user deletions and queued invitation mail: resumed at start and every 10 s.
  startPeopleSweep(deps, Number(env.SWEEP_INTERVAL_MS ?? 10_000)).unref();
}

function serveHttp(deps: Deps, env: NodeJS.ProcessEnv, ready: () => void) {
  // Built assets (npm run build) are served before the app; Workers serves the same folder.
  const assetsPrefix = `${deps.config.BASE_PATH}/assets/`;
  const assets = new Hono();
  assets.use(`${assetsPrefix}*`, serveStatic({ root: `${root}dist/public`, onFound: (_p, c) => c.header('Cache-Control', 'no-cache') }));
  // Everything else goes straight to the app's own fetch (a second router and context in front
  // of every request cost more than the path check; mounting it with server.route() would also
  // drop its notFound handler, as Hono keeps only the outer app's).
  const app = createApp(deps);
  const fetch = (req: Request, env: unknown) => (pathOf(req.url).startsWith(assetsPrefix) ? assets.fetch(req, env) : app.fetch(req, env));
  const port = Number(env.PORT ?? 8787);
  const hostname = env.HOST ?? '127.0.0.1';
  return serve({ fetch, port, hostname }, ready);
}

/** The path of an absolute URL ("http://host/a/b?q" -> "/a/b?q"), without parsing the rest. */
function pathOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash < 0 ? '/' : url.slice(slash);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  startNode().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
