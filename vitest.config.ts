import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two files at a time: Vitest's default (cores - 1) is one worker on the 2-core CI machine, and
    // unit + integration took 180 s with one against 125 s with two (docs/TESTING.md).
    maxWorkers: 2,
    projects: [
      // A unit file shares the two cores with another file: 15 s rather than 5 for the few that spawn processes.
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], testTimeout: 15_000, setupFiles: ['tests/support/no-console-error.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          testTimeout: 30_000,
          setupFiles: ['tests/support/no-console-error.ts', 'tests/support/native-response.ts'],
          // Each file builds its own app on its own database (tests/support/harness.ts), so files
          // share nothing but loaded modules: importing the app once per worker instead of once per
          // file saves a third of the layer (it runs twice, once per driver).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'workers',
          include: ['tests/workers/**/*.test.ts'],
          // wrangler dev (workerd + a fresh local D1) once for the whole layer.
          globalSetup: ['tests/workers/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'deno',
          // The server-level checks of the workers layer that are not about Workers itself (D1
          // round trips, the cron trigger), against src/entry/deno.ts, plus Deno's own.
          include: ['tests/workers/{smoke,limits,admin-people,saml,scim,passkeys}.test.ts', 'tests/deno/**/*.test.ts'],
          globalSetup: ['tests/deno/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
