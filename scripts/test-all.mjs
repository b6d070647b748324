// npm test: every layer CI runs, in order — type check, lint (and no import cycles), unit + integration (libSQL in
// files; a second time through @libsql/client's driver), the Workers layer (workerd + local D1 via wrangler dev), the Deno layer
// (src/entry/deno.ts on Deno from npm, libSQL file), and the browser journeys
// (Playwright + Debian's Chromium). Ends with one "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { chromiumMissing } from './chromium.mjs';
import { driverSensitiveFiles } from './driver-tests.mjs';

const reports = '.tmp/test-reports';
// Where playwright.config.ts has the browser journeys' server write its log.
const E2E_SERVER_LOG = `${reports}/e2e-server.log`;
const firstLine = (text) => String(text ?? '').replace(/\x1b\[[0-9;]*m/g, '').split('\n').find((l) => l.trim()) ?? '';
// The browser layer needs Chromium: a machine without it is told what to install before any test starts.
const noChromium = chromiumMissing();
if (noChromium) {
  console.error(`\n${noChromium}\n\nnpm test stopped before running anything.`);
  process.exit(1);
}
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

let passed = 0;
let failed = 0;
const failures = [];

function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${name}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  if (r.status !== 0) failures.push(name);
  return r.status === 0;
}

function countVitest(file) {
  try {
    const j = JSON.parse(readFileSync(file, 'utf8'));
    passed += j.numPassedTests;
    failed += j.numFailedTests;
  } catch {
    /* the step's own failure is reported */
  }
}

step('type check', 'npx', ['tsc', '--noEmit']);
step('lint', 'npx', ['eslint', '.']);
// No import cycles in src, type-only imports included (ESLint's rules cannot see those).
step('import cycles', 'npx', ['madge', '--circular', '--extensions', 'ts,tsx', '--ts-config', 'tsconfig.json', '--no-spinner', 'src']);
// Once for every layer: the browser layer's web server skips its own build when told they are built.
const assetsBuilt = step('build assets', 'node', ['scripts/build.mjs']);
step('unit + integration', 'npx', ['vitest', 'run', '--project', 'unit', '--project', 'integration', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/vitest.json`]);
countVitest(`${reports}/vitest.json`);
// The integration files where the driver can make a difference, again through @libsql/client's file
// driver (the default is ours, decision 0031; scripts/driver-tests.mjs says which files and why).
step('integration (DB_DRIVER=libsql-client)', 'npx', ['vitest', 'run', '--project', 'integration', ...driverSensitiveFiles(), '--reporter=dot', '--reporter=json', `--outputFile.json=${reports}/vitest-libsql-client.json`], { DB_DRIVER: 'libsql-client' });
countVitest(`${reports}/vitest-libsql-client.json`);
step('workers (workerd + D1)', 'npx', ['vitest', 'run', '--project', 'workers', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/workers.json`]);
countVitest(`${reports}/workers.json`);
step('deno (src/entry/deno.ts on Deno)', 'npx', ['vitest', 'run', '--project', 'deno', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/deno.json`]);
countVitest(`${reports}/deno.json`);
step('browser (Playwright + Chromium)', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/e2e.json`, ...(assetsBuilt ? { E2E_ASSETS_BUILT: '1' } : {}) });
try {
  const j = JSON.parse(readFileSync(`${reports}/e2e.json`, 'utf8'));
  passed += j.stats.expected + (j.stats.flaky ?? 0);
  failed += j.stats.unexpected;
} catch {
  /* reported above */
}

// A digest at the very end, where a CI log's tail is read: each failed test's first error line,
// and the browser journeys' server errors (the cause a browser assertion cannot see).
const digest = [];
for (const file of ['vitest.json', 'vitest-libsql-client.json', 'workers.json', 'deno.json']) {
  try {
    for (const t of JSON.parse(readFileSync(`${reports}/${file}`, 'utf8')).testResults)
      for (const a of t.assertionResults.filter((r) => r.status === 'failed'))
        digest.push(`${file.replace('.json', '')} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  } catch {
    /* no report: the step's own failure is listed */
  }
}
try {
  const walk = (suite) => [...(suite.specs ?? []).flatMap((sp) => sp.tests.map((t) => ({ sp, t }))), ...(suite.suites ?? []).flatMap(walk)];
  for (const { sp, t } of JSON.parse(readFileSync(`${reports}/e2e.json`, 'utf8')).suites.flatMap(walk))
    if (t.status === 'unexpected') digest.push(`e2e › ${sp.file}:${sp.line} › ${sp.title}: ${firstLine(t.results[0]?.error?.message)}`);
} catch {
  /* no report */
}
if (digest.length) {
  console.log(`\nFailed tests (${digest.length}; first error line each):`);
  for (const line of digest.slice(0, 25)) console.log(`  ${line}`);
  if (digest.length > 25) console.log(`  ... and ${digest.length - 25} more`);
  try {
    const errors = readFileSync(E2E_SERVER_LOG, 'utf8').split('\n').filter((l) => /"level":"error"/.test(l));
    if (errors.length) {
      console.log(`\nThe browser journeys' server logged ${errors.length} errors; the first ones:`);
      for (const line of errors.slice(0, 5)) console.log(`  ${line.slice(0, 600)}`);
    }
  } catch {
    /* the browser layer did not run */
  }
}
if (failures.length) console.log(`\nFailed steps: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failures.length || failed ? 1 : 0);
