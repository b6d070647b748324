// Cloudflare Workers entry: D1 binding, workerd's WebAssembly modules for argon2id, and
// Cloudflare's client address and location. Static assets are served by Workers Assets.
import { loadArgon2Worker } from '../adapters/argon2-worker';
import { openD1 } from '../adapters/db-d1';
import { outboxMailer } from '../adapters/mail-outbox';
import { smsSender } from '../adapters/sms';
import { smtpMailerWorker } from '../adapters/mail-smtp-worker';
import { workerRuntime } from '../adapters/runtime-worker';
import { createApp, type App } from '../app';
import { readConfig } from '../config';
import type { Deps } from '../deps';
import { createPasswordHasher } from '../domain/auth/passwords';
import { runScheduledJobs } from '../domain/operations/schedule';
import { runPeopleSweep } from '../domain/people/sweep';
import { appUsageReporter } from '../adapters/app-usage';

interface Env {
  DB: Parameters<typeof openD1>[0];
  [key: string]: unknown;
}

// One app per isolate and binding: built on the first request, never shared across isolates.
/** The every-minute cron of wrangler.toml; any other cron runs the periodic jobs. */
const PEOPLE_SWEEP_CRON = '* * * * *';

let cached: { db: unknown; app: App; deps: Deps } | undefined;
const passwords = createPasswordHasher(loadArgon2Worker);

function appFor(env: Env): { app: App; deps: Deps } {
  if (cached && cached.db === env.DB) return cached;
  const config = readConfig(env);
  const db = openD1(env.DB);
  const clock = { now: () => Date.now() };
  const mailer = config.SMTP_URL ? smtpMailerWorker(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(db, clock.now);
  const deps: Deps = { db, config, clock, passwords, mailer, sms: smsSender(config, db, clock.now), runtime: workerRuntime, appUsage: appUsageReporter(config) };
  cached = { db: env.DB, app: createApp(deps), deps };
  return cached;
}

export default {
  fetch(request: Request, env: Env, ctx: unknown) {
    return appFor(env).app.fetch(request, env, ctx as never);
  },
  // Cron triggers (wrangler.toml [triggers] crons): every minute the people sweep (unfinished
  // user deletions, then queued invitation mail); the hourly one runs the periodic jobs
  // (cleanup of expired rows, ...).
  scheduled(controller: { cron: string }, env: Env, ctx: { waitUntil(p: Promise<unknown>): void }) {
    const { deps } = appFor(env);
    ctx.waitUntil(controller.cron === PEOPLE_SWEEP_CRON ? runPeopleSweep(deps) : runScheduledJobs(deps));
  },
};
