// npm start: build assets, apply migrations to the local D1, load the demo data when empty,
// then run the portal in workerd with `wrangler dev`, and fire wrangler.toml's cron triggers on
// their schedule as production does (scripts/dev-cron.mjs): the people sweep with the invitation
// mail queue every minute, the scheduled jobs hourly.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DEV_PORT, printEnvAndExit } from './dev-env.mjs';
import { localCrons, startCronTimer } from './dev-cron.mjs';
import { workerDevVarMap, workerDevVars } from './worker-dev-vars.mjs';

const port = process.env.PORT || DEV_PORT;
const host = process.env.HOST ?? '127.0.0.1';
printEnvAndExit(process.argv, workerDevVarMap(process.env, port));
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run('node', ['scripts/build.mjs']);
run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local']);
run('npx', ['tsx', 'scripts/seed.ts', '--d1']);

// wrangler itself, not through npx: a SIGTERM sent to this script then reaches wrangler, which
// stops workerd (through npx, wrangler and workerd were left running).
const wrangler = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');
const child = spawn(
  process.execPath,
  [wrangler, 'dev', '--port', port, '--ip', host, ...workerDevVars(process.env, port), '--test-scheduled', '--show-interactive-dev-session=false'],
  // CLOUDFLARE_CF_FETCH_ENABLED=false: miniflare would download request.cf's data from
  // workers.cloudflare.com at every start and print a stack trace when offline; its placeholder
  // ("Austin, Texas") is shown as an unknown location (src/adapters/runtime-worker.ts).
  { stdio: ['inherit', 'pipe', 'inherit'], env: { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', ...process.env } },
);

// The address to reach wrangler dev on from here (it may listen on every interface).
const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
const crons = localCrons(readFileSync('wrangler.toml', 'utf8'));
const fireCron = (cron) => {
  globalThis.fetch(`http://${local}:${port}/__scheduled?cron=${encodeURIComponent(cron)}`)
    .then((r) => (r.ok ? r.body?.cancel() : console.error(`cron "${cron}": HTTP ${r.status}`)))
    .catch((e) => console.error(`cron "${cron}": ${e.message}`));
};
let stopCrons = () => {};

let announced = false;
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (!announced && /Ready on/.test(String(chunk))) {
    announced = true;
    stopCrons = startCronTimer(crons, fireCron);
    console.log(`\nPortal (workerd + local D1) ready. Open: http://acme.${process.env.PORTAL_DOMAIN || 'localhost'}:${port}/accounts/login`);
    console.log(`Cron triggers fire on schedule (${crons.map((c) => `"${c}"`).join(', ')}, UTC) through /__scheduled.`);
    console.log('Demo accounts: admin@acme.test, user@acme.test, multi@example.test ... password Portal-Demo-2026!\n');
  }
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => {
  stopCrons();
  process.exit(code ?? 0);
});
