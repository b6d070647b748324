// npm start: build assets, apply migrations to the local D1, load the demo data when empty,
// then run the portal in workerd with `wrangler dev`.
import { spawn, spawnSync } from 'node:child_process';
import { workerDevVars } from './worker-dev-vars.mjs';

const port = process.env.PORT ?? '8787';
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run('node', ['scripts/build.mjs']);
run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local']);
run('npx', ['tsx', 'scripts/seed.ts', '--d1']);

const child = spawn('npx', ['wrangler', 'dev', '--port', port, '--ip', process.env.HOST ?? '127.0.0.1', ...workerDevVars(process.env, port), '--show-interactive-dev-session=false'], {
  stdio: ['inherit', 'pipe', 'inherit'],
  env: { WRANGLER_SEND_METRICS: 'false', ...process.env },
});
let announced = false;
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (!announced && /Ready on/.test(String(chunk))) {
    announced = true;
    console.log(`\nPortal (workerd + local D1) ready. Open: http://acme.localhost:${port}/accounts/login`);
    console.log('Demo accounts: admin@acme.test, user@acme.test, multi@example.test ... password Portal-Demo-2026!\n');
  }
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
