// The variables `npm start` hands to `wrangler dev` (scripts/start-worker.mjs). workerd does not see
// the shell's environment: a setting reaches the worker only through wrangler.toml, `.dev.vars` or
// `--var`. So the port the portal listens on is passed as PORT (the dev default of PUBLIC_URL, the
// origin of every mail link, is derived from it in src/config.ts), and the settings below are
// passed through when the shell sets them. Anything else goes in `.dev.vars` (README "Quick start").
import { DEV_DEFAULTS } from './dev-env.mjs';

/** Settings a developer commonly sets in the shell for `npm start`, besides the dev defaults. */
export const PASSED_THROUGH = ['PUBLIC_URL', 'PORTAL_DOMAIN'];

/** The worker's variables for this environment and port: the dev defaults, the shell's values winning (as on Node and Deno). */
export function workerDevVarMap(env, port) {
  const vars = { ...DEV_DEFAULTS, PORT: String(port) };
  for (const key of [...Object.keys(DEV_DEFAULTS), ...PASSED_THROUGH]) if (env[key]) vars[key] = env[key];
  return vars;
}

/** `--var` arguments of `wrangler dev` for this environment and port. */
export function workerDevVars(env, port) {
  return Object.entries(workerDevVarMap(env, port)).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
}
