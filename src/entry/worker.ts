// Cloudflare Workers entry: D1 binding, workerd's WebAssembly modules for argon2id, and
// Cloudflare's client address and location. Static assets are served by Workers Assets.
import { loadArgon2Worker } from '../adapters/argon2-worker';
import { d1Scopes, openD1 } from '../adapters/db-d1';
import { outboxMailer } from '../adapters/mail-outbox';
import { smsSender } from '../adapters/sms';
import { webOutbound } from '../adapters/outbound-web';
import { smtpMailerWorker } from '../adapters/mail-smtp-worker';
import { workerRuntime } from '../adapters/runtime-worker';
import { createApp, type App } from '../app';
import { readConfig } from '../config';
import type { Deps } from '../deps';
import { createPasswordHasher } from '../domain/security/password-hashing';
import { runScheduledJobs } from '../domain/operations/schedule';
import { handleJobMessage } from '../domain/people/import/runner';
import { runPeopleSweep } from '../domain/people/sweep';
import { appUsageReporter } from '../adapters/app-usage';
import { PEOPLE_SWEEP_CRON } from './cron-schedule';

interface Env {
  DB: Parameters<typeof openD1>[0];
  /** Optional Queue binding whose consumer runs import jobs (decision 0030). */
  IMPORT_QUEUE?: { send(body: unknown, opts?: { delaySeconds?: number }): Promise<void> };
  [key: string]: unknown;
}

// One app per isolate and binding: built on the first request, never shared across isolates.

let cached: { db: unknown; app: App; deps: Deps } | undefined;
const passwords = createPasswordHasher(loadArgon2Worker);

function appFor(env: Env): { app: App; deps: Deps } {
  if (cached && cached.db === env.DB) return cached;
  const config = readConfig(env);
  const db = openD1(env.DB);
  const clock = { now: () => Date.now() };
  const mailer = config.SMTP_URL ? smtpMailerWorker(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(db, clock.now);
  const queue = env.IMPORT_QUEUE;
  const jobs = queue ? { send: (message: unknown, opts?: { delaySeconds?: number }) => queue.send(message, opts) } : undefined;
  const deps: Deps = { db, config, clock, passwords, mailer, sms: smsSender(config, db, clock.now), runtime: workerRuntime, appUsage: appUsageReporter(config), outbound: webOutbound(), jobs, dbScopes: d1Scopes(env.DB, db) };
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
  // The import-jobs queue (wrangler.toml [[queues.consumers]]): each message runs a job for a
  // while, then sends the next message for the rest; a message that fails is retried by Queues.
  async queue(batch: { messages: { body: unknown; ack(): void; retry(): void }[] }, env: Env) {
    const { deps } = appFor(env);
    for (const message of batch.messages) {
      try {
        await handleJobMessage(deps, message.body);
        message.ack();
      } catch (e) {
        console.error(JSON.stringify({ level: 'error', msg: 'job message failed', error: String(e) }));
        message.retry();
      }
    }
  },
};
