// Where the Deno executable of the npm `deno` package is (installed on first use when npm ran no
// install scripts), so scripts and tests start Deno itself rather than through its Node wrapper,
// which would not pass signals on.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function denoExecutable() {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('deno/package.json'));
  const exe = join(dir, process.platform === 'win32' ? 'deno.exe' : 'deno');
  return existsSync(exe) ? exe : require(join(dir, 'install_api.cjs')).runInstall();
}

/** What the portal needs on Deno, no more: the libsql engine is a Node-API module (ffi). */
export function denoPermissions(dataDir = '.data') {
  return ['--allow-net', '--allow-env', '--allow-read', `--allow-write=${dataDir}`, '--allow-ffi', '--allow-sys'];
}
