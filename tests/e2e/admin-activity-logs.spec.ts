// The audit-log screen (decision 0021): an admin sees the tenant's sign-ins and changes newest
// first (their own sign-in on top), reaches it from the drawer, and downloads the whole log as CSV
// from it. On a tenant of its own per language (support/admin-tenants.ts).
import { readFile } from 'node:fs/promises';
import { BASE, expect, LANGUAGES, origin, test } from './fixtures';
import { signInToPage } from './support/admin-text';
import { ensureSettingsTenant } from './support/admin-tenants';

const TEXT = {
  ja: { title: '監査ログ | Nexta Meishi', heading: '監査ログ', download: 'CSVをダウンロード', drawer: '監査ログ', header: '日時,操作者,操作者メールアドレス,操作' },
  en: { title: 'Audit Logs | Nexta Meishi', heading: 'Audit Logs', download: 'Download CSV', drawer: 'Audit log', header: 'Time,Actor,Actor email,Action' },
} as const;

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const tenant = { label: `audit-${lang}`, name: `Audit Tenant ${lang}` };
    const admin = `audit-admin+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureSettingsTenant(tenant, [{ email: admin, language: lang, admin: true }]);
    });

    test("an admin reads the tenant's audit log and downloads it as CSV", async ({ page, checkA11y }) => {
      const x = TEXT[lang];
      await signInToPage(page, lang, tenant.label, admin, '/admin/activity-logs');
      await expect(page).toHaveTitle(x.title);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.heading);
      await expect(page.getByRole('navigation').getByRole('link', { name: x.drawer })).toHaveAttribute('aria-current', 'page');
      // Newest first: this very sign-in, by this admin.
      const first = page.getByTestId('activity-table').getByRole('row').nth(1);
      await expect(first.getByRole('code')).toHaveText('login.succeeded');
      await expect(first).toContainText(admin);
      await checkA11y(page, 'audit log');

      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: x.download }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(new RegExp(`^${x.heading}\\d{14}\\.csv$`));
      const csv = await readFile((await file.path())!, 'utf8');
      expect(csv.startsWith(`\uFEFF${x.header}`)).toBe(true);
      expect(csv).toContain('login.succeeded');
      await expect(page).toHaveURL(`${origin(tenant.label)}${BASE}/admin/activity-logs`);
    });
  });
}
