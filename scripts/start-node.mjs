// npm run start:node: build assets, then run the Node entry (libSQL file .data/portal.db, or
// LIBSQL_URL); it migrates and loads the demo data when empty.
import { spawn, spawnSync } from 'node:child_process';

const b = spawnSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
if (b.status !== 0) process.exit(b.status ?? 1);
const child = spawn('npx', ['tsx', 'src/entry/node.ts'], {
  stdio: 'inherit',
  // *.localhost hosts cannot share the hand-off binding cookie (decision 0026).
  env: { DEV_MODE: 'true', HANDOFF_BROWSER_BINDING: 'false', ...process.env },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
