// Logout from the toolbar's user menu (spec 01 "Toolbar").
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { signInOnTenantHost } from './support/flows';
import { TEXT } from './support/text';

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('logout from the user menu returns to the login page and ends the session', async ({ page, account, checkA11y }) => {
      const t = TEXT[lang];
      const email = account('user@acme.test');
      await signInOnTenantHost(page, t, 'acme', email, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);

      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      await page.getByRole('button', { name: t.userMenu }).click();
      const logout = page.waitForResponse((r) => r.url().endsWith(`${BASE}/api/logout`));
      await page.getByRole('banner').getByRole('button', { name: t.logout }).click();
      expect((await logout).status()).toBe(200);
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/login`);
      await waitForHydration(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.tenantHeading('Acme Corporation'));
      await expect(page.getByLabel(t.email)).toBeVisible();

      // The app asks who is signed in: nobody (401).
      const userCall = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/user`);
      await page.goto(`${origin('acme')}/meishi/`);
      expect((await userCall).status()).toBe(401);
      await expect(page.getByTestId('stand-in-user')).toHaveText(t.standInSignedOut);
      await checkA11y(page, 'app stand-in, signed out');

      await page.goto(`${origin('acme')}${BASE}/my-account`);
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/login?continue=%2Faccounts%2Fmy-account`);
    });
  });
}
