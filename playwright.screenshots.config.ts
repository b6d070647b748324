// `npm run screenshots`: a picture of every screen (public, signed-in and admin) at 1280x800 and
// 390x844, in Japanese and English, into .tmp/screenshots/ (ignored by git) for a reviewer to look
// at. The same server, database, demo data and Chromium as the browser tests (playwright.config.ts:
// its web server, global setup and launch options); only the tests and where results go differ.
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testDir: 'tests/screenshots',
  testMatch: '**/*.spec.ts',
  outputDir: '.tmp/screenshots-results',
  projects: [{ name: 'screenshots' }],
  retries: 0,
  reporter: 'list',
  use: { ...base.use, trace: 'off', screenshot: 'off' },
});
