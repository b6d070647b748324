// SSO options and tenant managers on the people screens (spec 02 "User management screen",
// sections 1, 5 and 6): with SSO on for the tenant and an SSO users limit, the list has an SSO
// column, the menu turns SSO on and off for everyone, and the add dialog has the SSO switch with
// the SAML name id. A tenant manager on the tenant's host sees the banner naming the tenant, and
// no audit-log download (admins only). On a tenant of its own per language.
import { BASE, expect, LANGUAGES, test } from './fixtures';
import { ADMIN_TEXT, signInToPage, toast } from './support/admin-text';
import { ensureDedicatedUsers } from './support/dedicated-users';
import { ensurePeopleTenant, PEOPLE_TEXT, personEmail } from './support/people';

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const label = `ps-${lang}`;
    const admin = `ps-admin+${lang}@acme.test`;
    const manager = `ps-manager+${lang}@staff.test`;

    test.beforeAll(async () => {
      await ensurePeopleTenant({ label, lang, admin, meishiSeats: null, ssoUsersLimit: 10 });
      await ensureDedicatedUsers([{ from: 'manager@staff.test', email: manager, language: lang }]);
    });

    test('SSO for all users, the SSO switch, and the tenant manager view', async ({ page, browser, consoleGuard, checkA11y }) => {
      const x = PEOPLE_TEXT[lang];
      await signInToPage(page, lang, label, admin, '/admin/users');
      await expect(page.getByRole('columnheader', { name: x.ssoColumn, exact: true })).toBeVisible();
      const row = page.getByTestId('user-row').first();
      const more = page.getByRole('button', { name: x.more });
      await more.click();
      await expect(more).toHaveAttribute('aria-expanded', 'true');
      await checkA11y(page, 'users, SSO menu open');
      // Everyone would be sent to the IdP: the lock-out preview lists who it has never signed in (decision 0043).
      const previewed = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/admin/users/enable-sso-for-all/preview`);
      await page.getByRole('button', { name: x.enableSsoAll }).click();
      const preview = (await (await previewed).json()) as { affected: number; members: number };
      expect(preview.affected).toBe(preview.members);
      const a = ADMIN_TEXT[lang];
      const confirm = page.getByRole('dialog', { name: a.ssoAllTitle });
      const people = confirm.getByRole('list', { name: a.lockoutListLabel });
      await expect(people).toContainText(admin);
      await expect(people.getByRole('listitem').first()).toContainText(a.lockoutReasonNeverSso);
      await checkA11y(page, 'SSO for all, lock-out preview');
      const enabled = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/admin/users/enable-sso-for-all`);
      await confirm.getByRole('button', { name: a.lockoutConfirm(preview.affected) }).click();
      expect(new URL((await enabled).url()).searchParams.get('confirmAffected')).toBe(String(preview.affected));
      await expect(toast(page)).toHaveText(new RegExp(`^${x.ssoAllEnabled}`));
      await expect(row.getByRole('cell', { name: x.on, exact: true }).first()).toBeVisible();
      await more.click();
      await expect(page.getByRole('button', { name: x.ssoAllOn })).toBeDisabled();
      await page.keyboard.press('Escape');
      await expect(more).toHaveAttribute('aria-expanded', 'false');
      await expect(more).toBeFocused();
      await more.click();
      await page.getByRole('button', { name: x.disableSsoAll }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.ssoAllDisabled}`));

      // The add dialog's SSO switch brings the SAML name id field.
      await page.getByRole('button', { name: x.add, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: x.addDialog });
      const sso = dialog.getByRole('switch', { name: x.ssoSwitch });
      await expect(sso).toHaveAttribute('aria-checked', 'false');
      await expect(dialog.getByRole('textbox', { name: x.samlNameId })).toHaveCount(0);
      await sso.click();
      await expect(dialog.getByRole('textbox', { name: x.samlNameId })).toBeVisible();
      await checkA11y(page, 'add dialog with SSO');
      // Two members cannot share a SAML name id (one could sign in as the other).
      const nameId = dialog.getByRole('textbox', { name: x.samlNameId });
      await dialog.getByRole('textbox', { name: x.name, exact: true }).fill('SSO One');
      await dialog.getByRole('textbox', { name: x.email, exact: true }).fill(personEmail('sso1', label));
      await nameId.fill('E1001');
      await dialog.getByRole('button', { name: x.addSubmit, exact: true }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.added}`));
      await expect(page.getByTestId('user-row').filter({ hasText: personEmail('sso1', label) }).getByRole('cell', { name: x.on, exact: true }).first()).toBeVisible();
      consoleGuard.allowResourceError({ path: `${BASE}/api/admin/users`, status: 422 });
      await page.getByRole('button', { name: x.add, exact: true }).click();
      await dialog.getByRole('textbox', { name: x.name, exact: true }).fill('SSO Two');
      await dialog.getByRole('textbox', { name: x.email, exact: true }).fill(personEmail('sso2', label));
      await sso.click();
      await nameId.fill('E1001');
      await dialog.getByRole('button', { name: x.addSubmit, exact: true }).click();
      await expect(nameId).toHaveAccessibleDescription(new RegExp(`^${x.samlNameIdTaken}`));
      await expect(nameId).toBeFocused();
      await dialog.getByRole('button', { name: x.cancel }).click();
      await expect(page.getByRole('link', { name: x.auditDownload })).toBeVisible();

      // A tenant manager: the banner names the tenant; the audit log is not theirs to download.
      const other = await browser.newContext({ locale });
      const managerPage = await other.newPage();
      await signInToPage(managerPage, lang, label, manager, '/admin/users');
      await expect(managerPage.getByTestId('manager-banner')).toHaveText(x.managerBanner(`People ${label}`));
      await expect(managerPage.getByRole('link', { name: x.auditDownload })).toHaveCount(0);
      await checkA11y(managerPage, 'users, tenant manager');
      await managerPage.goto(managerPage.url().replace('/admin/users', '/admin/departments'));
      await expect(managerPage.getByTestId('manager-banner')).toHaveText(x.managerBanner(`People ${label}`));
      await other.close();
    });
  });
}
