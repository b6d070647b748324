// A machine without Chromium is told what to install before any browser test starts (issue 27
// part 7): `npm test` stops before its first layer, `npm run screenshots` (and the journeys)
// before the web server builds.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const env = { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', CI: '' };

describe('without Chromium', () => {
  it('npm test says what to install and runs nothing', () => {
    const r = spawnSync(process.execPath, ['scripts/test-all.mjs'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('sudo apt-get install chromium fonts-noto-cjk');
    expect(r.stderr).toContain('/nonexistent/chromium');
    expect(r.stdout).not.toContain('=== type check');
  });

  it('npm run screenshots says what to install before the web server starts', () => {
    const r = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'playwright.screenshots.config.ts'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('sudo apt-get install chromium fonts-noto-cjk');
    expect(`${r.stdout}${r.stderr}`).not.toContain('[WebServer]');
  });
});
