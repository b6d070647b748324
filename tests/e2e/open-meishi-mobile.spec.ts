// The mobile hand-off page (spec 01 routes: open-meishi-mobile; docs/decisions/0007): a link that
// opens the Meishi mobile app, and a way back (login, or my account when signed in).
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, type Lang } from './fixtures';
import { signInOnTenantHost } from './support/flows';
import { TEXT } from './support/text';

const MOBILE = {
  ja: {
    title: 'モバイルアプリを開く | Nexta Meishi',
    heading: 'Nexta Meishi モバイルアプリを開く',
    open: 'モバイルアプリを開く',
    backToLogin: 'ログインに戻る',
    backToMyAccount: 'マイアカウントに戻る',
  },
  en: {
    title: 'Open the mobile app | Nexta Meishi',
    heading: 'Open the Nexta Meishi mobile app',
    open: 'Open the mobile app',
    backToLogin: 'Back to login',
    backToMyAccount: 'Back to My Account',
  },
} satisfies Record<Lang, unknown>;

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('the page opens the app through its deep link and leads back to login, or to my account when signed in', async ({
      page,
      account,
      checkA11y,
    }) => {
      const t = TEXT[lang];
      const m = MOBILE[lang];
      await gotoHydrated(page, `${origin('acme')}${BASE}/open-meishi-mobile`);
      await expect(page).toHaveTitle(m.title);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.heading);
      await expect(page.getByRole('link', { name: m.open })).toHaveAttribute('href', 'nextameishi://open');
      await expect(page.getByRole('link', { name: m.backToLogin })).toHaveAttribute('href', `${BASE}/login`);
      await checkA11y(page, 'open-meishi-mobile, signed out');

      await signInOnTenantHost(page, t, 'acme', account('user@acme.test'), DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      // Signed in, the page stays (it is one of the public pages open to signed-in users).
      await gotoHydrated(page, `${origin('acme')}${BASE}/open-meishi-mobile`);
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/open-meishi-mobile`);
      await expect(page.getByRole('link', { name: m.open })).toHaveAttribute('href', 'nextameishi://open');
      await page.getByRole('link', { name: m.backToMyAccount }).click();
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/my-account`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.myAccount);
      await gotoHydrated(page, `${origin('acme')}${BASE}/open-meishi-mobile`);
      await checkA11y(page, 'open-meishi-mobile, signed in');
    });
  });
}
