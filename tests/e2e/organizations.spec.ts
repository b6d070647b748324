// Members of several organisations: the chooser after login on the main domain, Switch
// Organization from the toolbar, and host-only sessions (DESIGN.md section 3).
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { loginResponse, signInOnTenantHost } from './support/flows';
import { TEXT } from './support/text';

const GLOBEX = 'Globex 株式会社';
const ACME = 'Acme Corporation';

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('a member of two organisations signs in on the main domain, picks Globex, and is signed in on its host only', async ({
      page,
      context,
      account,
      checkA11y,
    }) => {
      const t = TEXT[lang];
      const email = account('multi@example.test');

      await gotoHydrated(page, `${origin(null)}${BASE}/login`);
      await expect(page).toHaveTitle(t.loginTitle);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.mainHeading);
      // The main domain asks for email and password at once.
      await expect(page.getByLabel(t.email)).toBeVisible();
      await expect(page.getByLabel(t.password, { exact: true })).toBeVisible();
      await checkA11y(page, 'login on the main domain');

      await page.getByLabel(t.email).fill(email);
      await page.getByLabel(t.password, { exact: true }).fill(DEMO_PASSWORD);
      const response = loginResponse(page);
      await page.getByRole('button', { name: t.logIn, exact: true }).click();
      expect((await response).status()).toBe(200);

      const chooser = page.getByRole('dialog', { name: t.chooseOrganization });
      await expect(chooser).toBeVisible();
      // The organisations, and a way out of a step that cannot be dismissed.
      await expect(chooser.getByRole('listitem').getByRole('button')).toHaveText([ACME, GLOBEX]);
      await expect(chooser.getByTestId('redirection-sign-out')).toHaveText(lang === 'ja' ? 'ログアウト' : 'Sign out');
      // The account is a way too; no administration before an organisation is chosen (issue 27 part 4).
      await expect(chooser.getByTestId('redirection-shortcuts').getByRole('link')).toHaveText([lang === 'ja' ? 'マイアカウント' : 'My account']);
      await checkA11y(page, 'organisation chooser');
      await chooser.getByRole('button', { name: GLOBEX }).click();

      // Globex has one app: its host, signed in, straight into the app.
      await expect(page).toHaveURL(`${origin('globex-jp')}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toHaveText(t.standInSignedIn('Multi Tenant', email));
      await expect(page.getByTestId('stand-in-tenant')).toHaveText(t.standInTenant(GLOBEX));
      await checkA11y(page, 'app stand-in on Globex');

      // Sessions are host-only: no other host of the portal domain receives one.
      const sessionCookies = (await context.cookies()).filter((c) => c.name === 'portal_session');
      expect(sessionCookies.map((c) => c.domain).sort()).toEqual(['globex-jp.localhost', 'localhost']);
      for (const c of sessionCookies) expect(c.httpOnly).toBe(true);
      for (const host of ['acme', 'globex']) {
        const sent = await context.cookies(origin(host));
        expect(sent.map((c) => c.name), host).not.toContain('portal_session');
      }
      await page.goto(`${origin('acme')}${BASE}/my-account`);
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/login?continue=%2Faccounts%2Fmy-account`);
      await waitForHydration(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.tenantHeading(ACME));
      await expect(page.getByLabel(t.email)).toHaveValue('');
    });

    test('Switch Organization takes a signed-in member from Acme to the same page on Globex', async ({ page, account, checkA11y }) => {
      const t = TEXT[lang];
      const email = account('multi@example.test');

      await signInOnTenantHost(page, t, 'acme', email, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await expect(page.getByTestId('stand-in-tenant')).toHaveText(t.standInTenant(ACME));

      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      await expect(page.getByText(t.organization(ACME), { exact: true })).toBeVisible();
      await page.getByRole('button', { name: t.userMenu }).click();
      await page.getByRole('button', { name: t.switchOrganization }).click();

      const dialog = page.getByRole('dialog', { name: t.switchOrganization });
      await expect(dialog).toBeVisible();
      const current = dialog.getByRole('button', { name: new RegExp(`^${ACME}`) });
      await expect(current).toBeDisabled();
      await expect(current).toContainText(t.currentOrganization);
      const globex = dialog.getByRole('button', { name: new RegExp(`^${GLOBEX}`) });
      await expect(globex).toBeEnabled();
      await expect(globex).toContainText('globex-jp');
      // The focus moves into the dialog, onto the first organisation one can switch to.
      await expect(globex).toBeFocused();
      await checkA11y(page, 'switch organisation dialog');

      // A modal dialog: Escape closes it and the focus returns to the user menu (its menu item is
      // gone with the menu); opened again, the focus is back on the first choice.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('button', { name: t.userMenu })).toBeFocused();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: t.switchOrganization }).click();
      await expect(globex).toBeFocused();

      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(`${origin('globex-jp')}${BASE}/my-account`);
      await waitForHydration(page);
      await expect(page.getByText(t.organization(GLOBEX), { exact: true })).toBeVisible();
      await expect(page.getByTestId('signed-in-as')).toHaveText(t.signedInAs('Multi Tenant', email));
      // Multi is Globex's admin: the drawer shows the admin entries there.
      await expect(page.getByRole('navigation', { name: t.mainMenu }).getByRole('link', { name: t.adminEntries[0], exact: true })).toBeVisible();
      await checkA11y(page, 'my account on Globex');
    });
  });
}
