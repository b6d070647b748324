// npm run start:node: build the assets and the Node entry (dist/server/node.mjs), then run it on a
// libSQL file (.data/portal.db, or LIBSQL_URL); it migrates and loads the demo data when empty. The
// environment is the one every start command gives the portal (scripts/dev-env.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { devEnv, printEnvAndExit } from './dev-env.mjs';

const env = devEnv(process.env);
printEnvAndExit(process.argv, env);
const b = spawnSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
if (b.status !== 0) process.exit(b.status ?? 1);
const child = spawn(process.execPath, ['dist/server/node.mjs'], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
