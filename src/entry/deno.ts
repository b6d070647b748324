// Deno entry (Deno 2, Deno Deploy): the same createApp(deps) on Deno.serve. libSQL through
// @libsql/client (a local file by default, LIBSQL_URL for Turso or sqld), argon2id native where
// Node-API modules load and in WebAssembly elsewhere, mail over SMTP (nodemailer on Deno's Node
// compatibility) or the dev outbox, migrations on start and the demo data on an empty database in
// dev mode, the built assets from dist/public, scheduled jobs with Deno.cron where the runtime
// offers it (Deno Deploy), a timer otherwise. Nothing outside src/entry and src/adapters knows it
// runs here.
import './production-mode';
import { Hono } from 'hono';
import { serveStatic } from 'hono/deno';
import { loadArgon2Deno } from '../adapters/argon2-deno';
import { appUsageReporter } from '../adapters/app-usage';
import { migrateLibsql, openLibsqlRemote, type LibsqlDatabase } from '../adapters/db-libsql-core';
import { outboxMailer } from '../adapters/mail-outbox';
import { webOutbound } from '../adapters/outbound-web';
import { smtpMailerNode } from '../adapters/mail-smtp-node';
import { denoRuntime, type DenoConnInfo } from '../adapters/runtime-deno';
import { smsSender } from '../adapters/sms';
import { createApp } from '../app';
import { readConfig } from '../config';
import { isEmpty, seedDemo } from '../db/seed';
import { demoSeedTools } from '../domain/operations/demo-data';
import type { Deps } from '../deps';
import { createPasswordHasher } from '../domain/security/password-hashing';
import { runScheduledJobs } from '../domain/operations/schedule';
import { cronSchedule } from './cron-schedule';
import { startPeopleSweep } from './people-sweep';

// The parts of the Deno namespace this entry uses (no Deno types in the project's type check).
interface DenoApi {
  env: { toObject(): Record<string, string> };
  mkdirSync(path: string, opts: { recursive: boolean }): void;
  serve(
    opts: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: (req: Request, info: DenoConnInfo) => Response | Promise<Response>,
  ): { finished: Promise<void>; shutdown(): Promise<void> };
  cron?: (name: string, schedule: string, fn: () => Promise<void> | void) => Promise<void>;
  addSignalListener(signal: 'SIGINT' | 'SIGTERM', fn: () => void): void;
  exit(code: number): never;
  resolveDns?(name: string, type: 'A' | 'AAAA'): Promise<string[]>;
}
const Deno = (globalThis as typeof globalThis & { Deno: DenoApi }).Deno;

const root = new URL('../..', import.meta.url).pathname;

/**
 * A remote URL (Turso, sqld) goes through @libsql/client's web build, which loads no native
 * module (Deno Deploy has no Node-API). A local file needs the libsql engine's native module,
 * loaded only then (the Deno CLI with --allow-ffi): @libsql/client's own file driver, since ours
 * relies on Node's worker threads for long batches.
 */
async function openDatabase(url: string, authToken: string | undefined): Promise<LibsqlDatabase> {
  if (!url.startsWith('file:')) return openLibsqlRemote(url, { authToken });
  const { openLibsql } = await import('../adapters/db-libsql');
  return openLibsql(url, { driver: 'libsql-client' });
}

export async function buildDenoDeps(env: Record<string, string | undefined>): Promise<Deps & { close(): void }> {
  const config = readConfig(env);
  const url = env.LIBSQL_URL ?? `file:${root}.data/portal-deno.db`;
  if (!env.LIBSQL_URL) Deno.mkdirSync(`${root}.data`, { recursive: true });
  const { db, client } = await openDatabase(url, env.LIBSQL_AUTH_TOKEN);
  await migrateLibsql(db, `${root}migrations`);
  const clock = { now: () => Date.now() };
  const passwords = createPasswordHasher(loadArgon2Deno);
  if (config.DEV_MODE && (await isEmpty(db))) {
    await seedDemo(db, demoSeedTools(passwords, config.DATA_ENCRYPTION_KEY), clock.now());
    console.log('Loaded the demo data (DESIGN.md section 7).');
  }
  const mailer = config.SMTP_URL ? smtpMailerNode(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(db, clock.now);
  return {
    db,
    config,
    clock,
    passwords,
    mailer,
    sms: smsSender(config, db, clock.now),
    runtime: denoRuntime(config),
    appUsage: appUsageReporter(config),
    // Deno resolves names (Deno.resolveDns, --allow-net): every A and AAAA answer is checked.
    outbound: webOutbound(Deno.resolveDns ? async (host) => (await Promise.all((['A', 'AAAA'] as const).map((t) => Deno.resolveDns!(host, t).catch(() => [] as string[])))).flat() : undefined),
    close: () => client.close(),
  };
}

export async function runJobs(deps: Deps): Promise<void> {
  try {
    await runScheduledJobs(deps);
  } catch (e) {
    console.error(JSON.stringify({ level: 'error', msg: 'scheduled jobs failed', error: String(e) }));
  }
}

export async function startDeno(env: Record<string, string | undefined>, deps: Deps & { close(): void }) {
  const server = new Hono<{ Bindings: DenoConnInfo }>();
  const base = deps.config.BASE_PATH;
  // The built assets (npm run build), as the other entries serve them.
  server.use(
    `${base}/assets/*`,
    serveStatic({
      root: `${root}dist/public`,
      rewriteRequestPath: (p) => p,
      onFound: (_p, c) => c.header('Cache-Control', 'no-cache'),
    }),
  );
  const app = createApp(deps);
  server.all('*', (c) => app.fetch(c.req.raw, c.env));

  startPeopleSweep(deps, Number(env.SWEEP_INTERVAL_MS ?? 10_000));

  const port = Number(env.PORT ?? 8787);
  const hostname = env.HOST ?? '127.0.0.1';
  const srv = Deno.serve({ port, hostname, onListen: () => console.log(`Portal (Deno) ready: http://acme.${deps.config.PORTAL_DOMAIN}:${port}${base}/login`) }, (req, info) =>
    server.fetch(req, info),
  );
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    Deno.addSignalListener(sig, () => {
      void srv.shutdown().finally(() => {
        deps.close();
        Deno.exit(0);
      });
    });
  }
  return srv;
}

if ((import.meta as ImportMeta & { main?: boolean }).main) {
  const env = Deno.env.toObject();
  const deps = buildDenoDeps(env);
  deps.then((d) => startDeno(env, d)).catch((e) => {
    console.error(e);
    Deno.exit(1);
  });
  // The periodic jobs: Deno.cron where the runtime has it (Deno Deploy finds crons registered at
  // a module's top level), a timer otherwise or for a period no cron expression states.
  const every = Number(env.SCHEDULE_MINUTES ?? 60);
  const schedule = cronSchedule(every);
  if (schedule && typeof Deno.cron === 'function') void Deno.cron('portal scheduled jobs', schedule, () => deps.then(runJobs));
  else if (every > 0) setInterval(() => void deps.then(runJobs), every * 60_000);
}
