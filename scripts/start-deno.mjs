// npm run start:deno: build the browser assets, then run the portal on Deno (src/entry/deno.ts)
// with a local libSQL file (.data/portal-deno.db): migrations on start, the demo data when it is
// empty. Deno itself comes from npm (the `deno` package). deno.json holds the settings Deno needs
// here: npm's node_modules, extensionless imports, Deno.cron. The environment is the one every
// start command gives the portal (scripts/dev-env.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { denoExecutable, denoPermissions } from './deno-path.mjs';
import { devEnv, printEnvAndExit } from './dev-env.mjs';

const env = devEnv(process.env);
printEnvAndExit(process.argv, env);
const build = spawnSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const child = spawn(denoExecutable(), ['run', ...denoPermissions(), 'src/entry/deno.ts'], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
