// Browser tests (DESIGN.md section 8): Playwright driving Debian's Chromium against the Node entry,
// on a free port, with a fresh libSQL file database that the entry migrates and seeds (DEV_MODE).
//
// The config is evaluated by the runner and again by every worker. The runner picks the port and the
// database file and puts them in the environment; workers inherit that environment, so the `??=`
// below keeps the runner's choice and tests (tests/e2e/fixtures.ts) read the same values.
import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverEnv } from './tests/e2e/support/server-env';
import { CHROMIUM_PATH, chromiumMissing } from './scripts/chromium.mjs';

// No Chromium: say what to install before the web server builds or any test starts (issue 27).
const missing = chromiumMissing();
if (missing) {
  console.error(`\n${missing}\n`);
  process.exit(1);
}

function freePort(): string {
  // Synchronous on purpose (the config cannot await): ask the kernel for a free port.
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

process.env.E2E_PORT ??= freePort();
// The SMTP receiver the global setup starts (tests/e2e/support/mail-receiver.ts); the server sends
// its mail there. nodemailer connects per message, so the receiver may start after the server.
process.env.E2E_SMTP_PORT ??= freePort();
// The test SAML IdP of the SSO journeys (tests/e2e/support/idp-server.ts, started by the global setup).
process.env.E2E_IDP_PORT ??= freePort();
// The same IdP over https with its metadata (decision 0042).
process.env.E2E_IDP_TLS_PORT ??= freePort();
process.env.E2E_DB_DIR ??= mkdtempSync(join(tmpdir(), 'portal-e2e-'));
const port = process.env.E2E_PORT;
const EXCLUSIVE_TESTS = /(maintenance-banner|operator-cli|passkeys-one-domain)\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // Tests of one file run in order in one worker; files run side by side (the machine has 2 cores).
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // One retry on CI absorbs a machine hiccup; a test failing twice fails the run.
  retries: process.env.CI ? 1 : 0,
  // Generous limits: the journeys do argon2id sign-ins and run axe in two languages, and a busy
  // 2-core machine can be several times slower than an idle one.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  globalSetup: './tests/e2e/support/global-setup.ts',
  globalTeardown: './tests/e2e/support/global-teardown.ts',
  projects: [
    { name: 'journeys', testIgnore: EXCLUSIVE_TESTS },
    // Tests that write to the database while the server runs. The Node entry's libSQL connection
    // waits for no lock (busy timeout 0), so another connection's read or write at the wrong moment
    // turns a concurrent request into a 500 (SQLITE_BUSY). These run alone, after the journeys.
    // (The name is EXCLUSIVE_PROJECT in tests/e2e/fixtures.ts, which lends them the `db` fixture.)
    { name: 'exclusive', testMatch: EXCLUSIVE_TESTS, dependencies: ['journeys'] },
  ],
  use: {
    // Japanese is the product's default; Accept-Language follows this (tests for English override it).
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    browserName: 'chromium',
    launchOptions: {
      // `npx playwright install` cannot download here: use Debian's Chromium.
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    // Build the browser assets first so the tests always run against the current islands and CSS
    // (`npm test` builds them once for every layer and says so with E2E_ASSETS_BUILT=1).
    // Its log is also kept in a file, whose errors `npm test` repeats at the end of a failed run.
    command: `mkdir -p .tmp/test-reports && ${process.env.E2E_ASSETS_BUILT === '1' ? '' : 'node scripts/build.mjs && '}node dist/server/node.mjs 2>&1 | tee .tmp/test-reports/e2e-server.log`,
    env: serverEnv(),
    port: Number(port),
    wait: { stdout: /Portal \(Node\) ready/ },
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: 60_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
  },
});
