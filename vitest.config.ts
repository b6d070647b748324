import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'], testTimeout: 30_000 } },
      {
        extends: true,
        test: { name: 'workers', include: ['tests/workers/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false },
      },
    ],
  },
});
