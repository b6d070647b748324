// Tenant URL (spec 02 "Tenant settings screen", sections 4, 5 and 8): the admin copies the URL,
// meets the subdomain rules and the password re-entry, tries a taken label, then changes the
// custom subdomain and arrives signed in on the new host, where "subdomain changed" shows and the
// status query is gone from the address bar. On a tenant of its own (support/admin-tenants.ts).
import { BASE, expect, LANGUAGES, origin, test } from './fixtures';
import { ADMIN_TEXT, signInToPage, toast } from './support/admin-text';
import { ensureSettingsTenant } from './support/admin-tenants';

const api = (path: string) => `${BASE}/api/${path}`;

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const label = `url-${lang}`;
    const moved = `url-moved-${lang}`;
    const admin = `url-admin+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureSettingsTenant({ label, name: `URL Tenant ${lang}` }, [{ email: admin, language: lang, admin: true }]);
    });

    test('an admin changes the custom subdomain and arrives signed in on the new host', async ({ page, context, consoleGuard, checkA11y }) => {
      const x = ADMIN_TEXT[lang];
      await signInToPage(page, lang, label, admin, '/admin/tenant-settings');
      await expect(page).toHaveTitle(x.title(x.tenantSettings));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.tenantSettings);
      const initialUrl = `${origin(label)}${BASE}`;
      await expect(page.getByRole('row', { name: new RegExp(`^${x.initial}`) })).toContainText(initialUrl);
      await expect(page.getByRole('row', { name: new RegExp(`^${x.custom}`) }).getByRole('cell')).toHaveText(['N/A', 'N/A', '']);
      await checkA11y(page, 'tenant settings');

      // Copy: the full URL goes to the clipboard.
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: origin(label) });
      await page.getByRole('button', { name: x.copyInitial }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.copied}`));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(initialUrl);

      // The dialog: Next waits for a valid, changed label; the address is previewed.
      const edit = page.getByRole('button', { name: x.editSubdomain });
      await edit.click();
      const dialog = page.getByRole('dialog', { name: x.subdomainDialog });
      const field = dialog.getByLabel(x.subdomainField);
      const next = dialog.getByRole('button', { name: x.next });
      await expect(field).toBeFocused();
      await expect(next).toBeDisabled();
      await field.fill('a');
      await expect(field).toHaveAccessibleDescription(new RegExp(`^${x.tooShort}`));
      await expect(next).toBeDisabled();
      await field.fill('-abc');
      await expect(dialog.getByText(x.invalidSubdomain)).toBeVisible();
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(next).toBeDisabled();
      // A label another tenant uses passes the form; the server refuses it after the password.
      await field.fill('globex');
      await expect(dialog.getByTestId('subdomain-preview')).toHaveText(x.preview('globex.localhost'));
      await checkA11y(page, 'subdomain dialog');
      await next.click();

      const confirm = page.getByRole('dialog', { name: x.passwordDialog });
      const password = confirm.getByLabel(x.currentPassword, { exact: true });
      await expect(password).toBeFocused();
      consoleGuard.allowResourceError({ path: api('password/verify'), status: 422 });
      await password.fill('not-my-password');
      await confirm.getByRole('button', { name: x.change }).click();
      await expect(confirm.getByText(x.passwordsDiffer)).toBeVisible();
      await expect(password).toHaveAttribute('aria-invalid', 'true');
      await checkA11y(page, 'password re-entry, wrong password');

      consoleGuard.allowResourceError({ path: api('admin/subdomain'), status: 422 });
      await password.fill('Portal-Demo-2026!');
      const refused = page.waitForResponse((r) => new URL(r.url()).pathname === api('admin/subdomain'));
      await confirm.getByRole('button', { name: x.change }).click();
      expect(await (await refused).json()).toEqual({ message: 'could-not-change' });
      await expect(confirm).toBeHidden();
      await expect(dialog.getByText(x.couldNotChange)).toBeVisible();
      await expect(field).toBeFocused();

      // A free label: password again, then the browser follows the hand-off to the new host.
      await field.fill(moved);
      await expect(dialog.getByTestId('subdomain-preview')).toHaveText(x.preview(`${moved}.localhost`));
      await next.click();
      await confirm.getByLabel(x.currentPassword, { exact: true }).fill('Portal-Demo-2026!');
      await confirm.getByRole('button', { name: x.change }).click();
      await expect(page).toHaveURL(`${origin(moved)}${BASE}/admin/tenant-settings`);
      await expect(toast(page)).toHaveText(new RegExp(`^${x.subdomainChanged}`));
      expect(new URL(page.url()).search).toBe('');
      await expect(page.getByRole('row', { name: new RegExp(`^${x.custom}`) })).toContainText(`${origin(moved)}${BASE}`);
      // Signed in on the new host, in the admin's own session there.
      await expect(page.getByTestId('app-version')).toBeVisible();
    });
  });
}
