// Node entry: libSQL (a local file by default, or LIBSQL_URL for a libSQL server / Turso),
// migrations on start, the demo data on an empty database in dev mode, static assets.
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadArgon2Native } from '../adapters/argon2-native';
import { migrateLibsql, openLibsql } from '../adapters/db-libsql';
import { outboxMailer } from '../adapters/mail-outbox';
import { smsSender } from '../adapters/sms';
import { smtpMailerNode } from '../adapters/mail-smtp-node';
import { nodeRuntime } from '../adapters/runtime-node';
import { createApp } from '../app';
import { readConfig } from '../config';
import { isEmpty, seedDemo } from '../db/seed';
import type { Deps } from '../deps';
import { createPasswordHasher } from '../domain/auth/passwords';
import { runScheduledJobs } from '../domain/operations/schedule';
import { appUsageReporter } from '../adapters/app-usage';
import { startPeopleSweep } from './people-sweep';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function buildNodeDeps(env: NodeJS.ProcessEnv = process.env): Promise<Deps & { close(): void }> {
  const config = readConfig(env);
  const url = env.LIBSQL_URL ?? `file:${root}.data/portal.db`;
  if (url.startsWith('file:') && !env.LIBSQL_URL) mkdirSync(`${root}.data`, { recursive: true });
  const { db, client } = openLibsql(url, { authToken: env.LIBSQL_AUTH_TOKEN });
  await migrateLibsql(db, `${root}migrations`);
  const clock = { now: () => Date.now() };
  const passwords = createPasswordHasher(loadArgon2Native);
  if (config.DEV_MODE && (await isEmpty(db))) {
    await seedDemo(db, passwords, clock.now(), config.DATA_ENCRYPTION_KEY);
    console.log('Loaded the demo data (DESIGN.md section 7).');
  }
  const mailer = config.SMTP_URL ? smtpMailerNode(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(db, clock.now);
  return { db, config, clock, passwords, mailer, sms: smsSender(config, db, clock.now), runtime: nodeRuntime(config), appUsage: appUsageReporter(config), close: () => client.close() };
}

export async function startNode(env: NodeJS.ProcessEnv = process.env) {
  const deps = await buildNodeDeps(env);
  const server = new Hono();
  // Built assets (npm run build) are served before the app; Workers serves the same folder.
  server.use(`${deps.config.BASE_PATH}/assets/*`, serveStatic({ root: `${root}dist/public`, onFound: (_p, c) => c.header('Cache-Control', 'no-cache') }));
  // Everything else goes to the app's own fetch: mounting it with server.route() would drop its
  // notFound handler (Hono keeps only the outer app's), so unknown pages answered a bare
  // "404 Not Found" text instead of the portal's translated page.
  const app = createApp(deps);
  server.all('*', (c) => app.fetch(c.req.raw, c.env));
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
  const port = Number(env.PORT ?? 8787);
  const hostname = env.HOST ?? '127.0.0.1';
  return serve({ fetch: server.fetch, port, hostname }, () => {
    console.log(`Portal (Node) ready: http://acme.${deps.config.PORTAL_DOMAIN}:${port}${deps.config.BASE_PATH}/login`);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  startNode().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
