import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], setupFiles: ['tests/support/no-console-error.ts'] } },
      {
        extends: true,
        test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], testTimeout: 30_000, setupFiles: ['tests/support/no-console-error.ts'] },
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
    ],
  },
});
