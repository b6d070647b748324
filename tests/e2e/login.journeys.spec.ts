// Signing in on a tenant host (spec 01 "Login screen", section 4 "Login" and "Redirection", guards).
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { enterEmailOnTenantHost, signInOnTenantHost, submitPassword } from './support/flows';
import { TEXT } from './support/text';

const ACME = 'Acme Corporation';

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('an Acme admin signs in with email then password, chooses an app, and sees the admin entries in the drawer', async ({
      page,
      account,
      checkA11y,
    }) => {
      const t = TEXT[lang];
      const email = account('admin@acme.test');

      await gotoHydrated(page, `${origin('acme')}${BASE}/login`);
      await expect(page).toHaveTitle(t.loginTitle);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.tenantHeading(ACME));
      // A tenant host asks for the email first; the password comes with Next.
      await expect(page.getByLabel(t.password, { exact: true })).toHaveCount(0);
      await checkA11y(page, 'login, email step');

      await enterEmailOnTenantHost(page, t, email);
      await checkA11y(page, 'login, password step');
      const response = await submitPassword(page, t, DEMO_PASSWORD);
      expect(response.status()).toBe(200);

      // Two apps: the chooser (step 2 of the redirection) offers both.
      const chooser = page.getByRole('dialog', { name: t.chooseApp });
      await expect(chooser).toBeVisible();
      await expect(chooser.getByTestId('redirection-apps').getByRole('link')).toHaveText([t.meishi, t.scheduler]);
      // Besides the apps, the account and (an admin) the administration (issue 27 part 4).
      const elsewhere = chooser.getByRole('navigation', { name: lang === 'ja' ? 'ほかの行き先' : 'Or go to' });
      await expect(elsewhere.getByRole('link')).toHaveText(lang === 'ja' ? ['マイアカウント', '管理画面'] : ['My account', 'Administration']);
      await expect(elsewhere.getByRole('link').nth(0)).toHaveAttribute('href', `${BASE}/my-account`);
      await expect(elsewhere.getByRole('link').nth(1)).toHaveAttribute('href', `${BASE}/admin/users`);
      await checkA11y(page, 'app chooser');
      await chooser.getByRole('link', { name: t.meishi }).click();
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toHaveText(t.standInSignedIn('Acme 管理者', email));
      await expect(page.getByTestId('stand-in-tenant')).toHaveText(t.standInTenant(ACME));
      await checkA11y(page, 'app stand-in, signed in');

      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.myAccount);
      await expect(page.getByTestId('signed-in-as')).toHaveText(t.signedInAs('Acme 管理者', email));
      const drawer = page.getByRole('navigation', { name: t.mainMenu });
      await expect(drawer.getByRole('link', { name: t.myAccount, exact: true })).toHaveAttribute('aria-current', 'page');
      for (const entry of t.adminEntries) await expect(drawer.getByText(entry, { exact: true })).toBeVisible();
      await expect(drawer.getByRole('link', { name: t.adminEntries[0], exact: true })).toHaveAttribute('href', `${BASE}/admin/users`);
      await expect(drawer.getByRole('link', { name: t.scheduler, exact: true })).toHaveAttribute('href', '/scheduler/');
      await expect(drawer.getByText('v2.53.2')).toBeVisible();
      await checkA11y(page, 'my account (admin)');

      // The toolbar's menus, open.
      await page.getByRole('button', { name: t.support }).click();
      await expect(page.getByRole('link', { name: new RegExp(t.manual) })).toHaveAttribute('target', '_blank');
      await expect(page.getByRole('link', { name: new RegExp(t.faq) })).toBeVisible();
      await checkA11y(page, 'support menu open');
      await page.getByRole('button', { name: t.userMenu }).click();
      await expect(page.getByRole('banner').getByRole('button', { name: t.logout })).toBeVisible();
      // One organisation only: no Switch Organization.
      await expect(page.getByRole('button', { name: t.switchOrganization })).toHaveCount(0);
      await checkA11y(page, 'user menu open');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('banner').getByRole('button', { name: t.logout })).toHaveCount(0);
    });

    test('an ordinary member goes straight to their one app, sees no admin entries, and is sent back from an admin page', async ({
      page,
      account,
      checkA11y,
    }) => {
      const t = TEXT[lang];
      const email = account('user@acme.test');

      await signInOnTenantHost(page, t, 'acme', email, DEMO_PASSWORD);
      // One app: no chooser, straight to it.
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toHaveText(t.standInSignedIn('山田 太郎', email));

      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      await expect(page.getByTestId('signed-in-as')).toHaveText(t.signedInAs('山田 太郎', email));
      const drawer = page.getByRole('navigation', { name: t.mainMenu });
      await expect(drawer.getByRole('link', { name: t.myAccount, exact: true })).toBeVisible();
      await expect(drawer.getByRole('link', { name: t.meishi, exact: true })).toHaveAttribute('href', '/meishi/');
      await expect(drawer.getByRole('link', { name: t.scheduler, exact: true })).toHaveCount(0);
      for (const entry of t.adminEntries) await expect(drawer.getByText(entry, { exact: true })).toHaveCount(0);
      await checkA11y(page, 'my account (member)');

      await page.goto(`${origin('acme')}${BASE}/admin/users`);
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/my-account`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.myAccount);
    });

    test('a signed-out visit to an admin page asks for login and then returns to the page with its query', async ({
      page,
      account,
      checkA11y,
    }) => {
      const t = TEXT[lang];
      const email = account('admin@acme.test');

      await page.goto(`${origin('acme')}${BASE}/admin/users?x=1`);
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/login?continue=%2Faccounts%2Fadmin%2Fusers%3Fx%3D1`);
      await waitForHydration(page);
      await checkA11y(page, 'login with a continue path');

      await enterEmailOnTenantHost(page, t, email);
      await submitPassword(page, t, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/admin/users?x=1`);
      // The user management screen (an unknown query parameter changes nothing).
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(lang === 'ja' ? 'ユーザー管理' : 'Manage Users');
      await waitForHydration(page);
      await checkA11y(page, 'user management after login');
    });
  });
}

test('the login form can be completed with the keyboard alone', async ({ page }) => {
  const t = TEXT.ja;
  await gotoHydrated(page, `${origin('acme')}${BASE}/login`);

  // The email field has the focus from the start on a tenant host.
  await expect(page.getByLabel(t.email)).toBeFocused();
  await page.keyboard.type('admin@acme.test');
  // Enter in the email field moves on to the password.
  await page.keyboard.press('Enter');
  await expect(page.getByLabel(t.password, { exact: true })).toBeFocused();
  await page.keyboard.type(DEMO_PASSWORD);
  // Tab reaches the rest of the form in reading order, ending on the Log in button: first the
  // password's Show toggle (decision 0033).
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'パスワードを表示', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: 'ログインしたままにする' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'パスワードをお忘れですか？' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: t.logIn, exact: true })).toBeFocused();
  await page.keyboard.press('Enter');

  const chooser = page.getByRole('dialog', { name: t.chooseApp });
  await expect(chooser).toBeVisible();
  await expect(chooser.getByRole('heading', { name: t.chooseApp })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(chooser.getByRole('link', { name: t.meishi })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(chooser.getByRole('link', { name: t.scheduler })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${origin('acme')}/scheduler/`);
  await expect(page.getByTestId('stand-in-user')).toHaveText(t.standInSignedIn('Acme 管理者', 'admin@acme.test'));
});

// The page carries the texts of its islands in its own language; no script carries texts (no
// locale file and no i18next in the browser: src/island-texts.ts, decision 0029).
for (const { lang, locale } of LANGUAGES) {
  test.describe(`a page in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test("carries that language's texts in the page, and no script carries any", async ({ page }) => {
      const scripts: Promise<string>[] = [];
      page.on('response', (r) => {
        if (r.request().resourceType() === 'script') scripts.push(r.text());
      });
      const response = await page.goto(`${origin('acme')}${BASE}/login`);
      await waitForHydration(page);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      const html = await response!.text();
      const own = lang === 'ja' ? 'パスワードをお忘れですか？' : 'Forgot your password?';
      const other = lang === 'ja' ? 'Forgot your password?' : 'パスワードをお忘れですか？';
      const texts = JSON.parse(/<script type="application\/json" id="page-texts">(.*?)<\/script>/.exec(html)![1]!);
      expect(texts['login.forgot']).toBe(own);
      expect(html).not.toContain(other);
      const bodies = await Promise.all(scripts);
      expect(bodies.length).toBeGreaterThan(1);
      expect(bodies.filter((b) => b.includes(own) || b.includes(other))).toEqual([]);
    });
  });
}

// The redirection dialog leads an admin to the administration and anyone to the account (issue 27
// part 4, decision 0044): the links work, in both languages.
for (const { lang, locale } of LANGUAGES) {
  test.describe(`the redirection dialog's other ways in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    test('an admin goes from the app chooser to the administration', async ({ page, account, checkA11y }) => {
      const t = TEXT[lang];
      await gotoHydrated(page, `${origin('acme')}${BASE}/login`);
      await enterEmailOnTenantHost(page, t, account('admin@acme.test'));
      expect((await submitPassword(page, t, DEMO_PASSWORD)).status()).toBe(200);
      const chooser = page.getByRole('dialog', { name: t.chooseApp });
      await expect(chooser).toBeVisible();
      await checkA11y(page, 'app chooser with the other ways');
      await chooser.getByRole('link', { name: lang === 'ja' ? '管理画面' : 'Administration' }).click();
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/admin/users`);
      await waitForHydration(page);
      await expect(page.getByTestId('user-row').first()).toBeVisible();
    });
  });
}
