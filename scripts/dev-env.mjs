// The environment every local start command gives the portal: `npm start` (workerd),
// `npm run start:node` and `npm run start:deno`. One list, so the three cannot drift apart
// (issue 21: start:deno once left HANDOFF_BROWSER_BINDING on, and every hand-off on *.localhost
// answered 400). A value set in the shell wins over these, on all three.

/** Local development on *.localhost: dev mode, and no hand-off browser binding (decision 0026:
 *  browsers keep a `Domain=localhost` cookie to `localhost` alone). */
export const DEV_DEFAULTS = { DEV_MODE: 'true', HANDOFF_BROWSER_BINDING: 'false' };

/** The port all three listen on unless PORT is set (mail links follow it: src/config.ts). */
export const DEV_PORT = '8787';

/** Node and Deno: their process environment, the defaults under the shell's values. */
export function devEnv(env) {
  return { ...DEV_DEFAULTS, PORT: DEV_PORT, ...env };
}

/**
 * `--print-env`: the start script prints what the portal would get (as JSON) and stops, without
 * building or starting anything; tests/unit/start-commands.test.ts compares the three.
 */
export function printEnvAndExit(argv, env) {
  if (!argv.includes('--print-env')) return;
  console.log(JSON.stringify(env));
  process.exit(0);
}
