// The upload's progress percentage (spec 02 sections 2 and 4: "Uploads show a progress
// percentage, then success or error"), seen on a slow uplink (Chromium's network emulation), and
// the 50 MB limit (section 9) checked before anything is sent.
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { BASE, expect, test } from './fixtures';
import { signInToPage } from './support/admin-text';
import { ensurePeopleTenant, PEOPLE_TEXT } from './support/people';

test('a slow upload shows its progress, then the outcome', async ({ page, consoleGuard }) => {
  const x = PEOPLE_TEXT.ja;
  const label = 'pp-ja';
  const admin = 'pp-admin+ja@acme.test';
  await ensurePeopleTenant({ label, lang: 'ja', admin, meishiSeats: null });
  await signInToPage(page, 'ja', label, admin, '/admin/users');
  await page.getByRole('button', { name: x.editByImport }).click();
  const dialog = page.getByRole('dialog', { name: x.importDialog });
  // About 400 KB of a file the server will refuse for its columns: only the upload matters here.
  const body = `Name,Mail\r\n${'a,b@c.test\r\n'.repeat(36_000)}`;
  await dialog.getByLabel(x.chooseFile).setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(body) });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 100 * 1024 });
  consoleGuard.allowResourceError({ path: `${BASE}/api/admin/users/import/update`, status: 422 });
  await dialog.getByRole('button', { name: x.upload }).click();
  const progress = dialog.getByTestId('upload-progress');
  await expect(progress).toHaveText(/^([1-9]\d?)%$/);
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(dialog.getByTestId('import-outcome')).toHaveText(x.mismatch, { timeout: 30_000 });
  await expect(progress).toHaveCount(0);
});

test('a file over 50 MB is refused before it is sent', async ({ page }, testInfo) => {
  const x = PEOPLE_TEXT.ja;
  const label = 'pp-ja';
  const admin = 'pp-admin+ja@acme.test';
  await ensurePeopleTenant({ label, lang: 'ja', admin, meishiSeats: null });
  // A sparse file: 50 MB + 1 byte on paper, nothing on disk.
  const big = testInfo.outputPath('too-large.csv');
  mkdirSync(dirname(big), { recursive: true });
  writeFileSync(big, 'Name\r\n');
  truncateSync(big, 50 * 1024 * 1024 + 1);
  await signInToPage(page, 'ja', label, admin, '/admin/users');
  await page.getByRole('button', { name: x.editByImport }).click();
  const dialog = page.getByRole('dialog', { name: x.importDialog });
  let sent = false;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/admin/users/import')) sent = true;
  });
  await dialog.getByLabel(x.chooseFile).setInputFiles(big);
  await expect(dialog.getByTestId('import-outcome')).toHaveText(x.tooLarge);
  await expect(dialog.getByRole('button', { name: x.upload })).toBeDisabled();
  expect(sent).toBe(false);
});
