// Session devices on my account (spec 01 "Session devices"): the current session and the others
// with device, OS, browser, location and last activity; logging out one device, or all others,
// ends those sessions at once (their next navigation is the login page).
//
// Each journey signs in as an account of its own (support/dedicated-users.ts): logging out "all
// other devices" of a shared demo account would sign out the journeys running beside this one.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration, type Lang } from './fixtures';
import { ensureDedicatedUsers } from './support/dedicated-users';
import { signInOnTenantHost } from './support/flows';
import { TEXT } from './support/text';

/** The Nexta Meishi iPhone app's web view (the portal marks it with "NextaMeishi"). */
const MEISHI_APP_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 NextaMeishi/3.1.0';
const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

const DEVICES = {
  ja: {
    heading: 'ログイン中のデバイス',
    current: 'このデバイス',
    none: '他にログイン中のデバイスはありません。',
    logout: 'ログアウト',
    logoutDevice: (device: string) => `${device} をログアウト`,
    logoutOthers: '他のすべてのデバイスからログアウト',
    confirmOne: (device: string) => `${device} をログアウトしますか？`,
    confirmOthers: '他のすべてのデバイスからログアウトしますか？',
    cancel: 'キャンセル',
    loggedOut: 'デバイスをログアウトしました。',
    loggedOutOthers: '他のすべてのデバイスからログアウトしました。',
    unknown: '不明',
    app: 'Nexta Meishi アプリ',
    desktop: 'デスクトップ',
    weekdays: ['日', '月', '火', '水', '木', '金', '土'],
    labels: ['デバイス', 'OS', 'ブラウザ', '場所', '最終アクティビティ', '操作'],
    zone: '日本時間',
  },
  en: {
    heading: 'Logged-in Devices',
    current: 'This device',
    none: 'No other device is logged in.',
    logout: 'Log out',
    logoutDevice: (device: string) => `Log out ${device}`,
    logoutOthers: 'Log out all other devices',
    confirmOne: (device: string) => `Log out ${device}?`,
    confirmOthers: 'Log out all other devices?',
    cancel: 'Cancel',
    loggedOut: 'The device was logged out.',
    loggedOutOthers: 'All other devices were logged out.',
    unknown: 'Unknown',
    app: 'Nexta Meishi app',
    desktop: 'Desktop',
    weekdays: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
    labels: ['Device', 'OS', 'Browser', 'Location', 'Last activity', 'Actions'],
    zone: 'JST',
  },
} satisfies Record<Lang, unknown>;

/** "2026/4/27 (月) 09:05:03": the instant of `iso` in Tokyo (the tests' time zone), spelt out by hand. */
function shownAs(iso: string, lang: Lang): string {
  const tokyo = new Date(new Date(iso).getTime() + 9 * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${tokyo.getUTCFullYear()}/${tokyo.getUTCMonth() + 1}/${tokyo.getUTCDate()} (${DEVICES[lang].weekdays[tokyo.getUTCDay()]}) ` +
    `${two(tokyo.getUTCHours())}:${two(tokyo.getUTCMinutes())}:${two(tokyo.getUTCSeconds())}`
  );
}

/** Another browser (its own cookies), signed in as `email` on Acme. */
async function signInElsewhere(browser: Browser, locale: string, lang: Lang, email: string, userAgent?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale, timezoneId: 'Asia/Tokyo', ...(userAgent ? { userAgent } : {}) });
  const page = await context.newPage();
  await signInOnTenantHost(page, TEXT[lang], 'acme', email, DEMO_PASSWORD);
  await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
  return { context, page };
}

async function expectSignedOut(page: Page, lang: Lang): Promise<void> {
  await page.goto(`${origin('acme')}${BASE}/my-account`);
  await expect(page).toHaveURL(`${origin('acme')}${BASE}/login?continue=%2Faccounts%2Fmy-account`);
  await waitForHydration(page);
  await expect(page.getByLabel(TEXT[lang].email)).toBeVisible();
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const oneEmail = `devices-one+${lang}@acme.test`;
    const allEmail = `devices-all+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureDedicatedUsers([
        { from: 'user@acme.test', email: oneEmail, language: lang },
        { from: 'user@acme.test', email: allEmail, language: lang },
      ]);
    });

    test('my account lists this device and another one; logging the other out ends its session', async ({ page, browser, checkA11y }) => {
      // Several browsers signing in, one after the other: more than the default 30 s on a busy machine.
      test.slow();
      const t = TEXT[lang];
      const d = DEVICES[lang];
      const phone = await signInElsewhere(browser, locale, lang, oneEmail, MEISHI_APP_UA);

      await signInOnTenantHost(page, t, 'acme', oneEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);

      // The list entry leads to the section.
      await page.getByRole('link', { name: d.heading, exact: true }).click();
      const section = page.getByRole('region', { name: d.heading });
      await expect(section.getByRole('heading', { name: d.heading })).toBeFocused();

      // This browser first, marked as this device: (headless) Chromium on Linux, a desktop; no
      // location is known for a loopback address; no log-out of its own (the toolbar's is for it).
      const table = section.getByTestId('devices-table');
      await expect(table.getByRole('columnheader')).toHaveText(d.labels);
      const current = section.getByTestId('current-device');
      await expect(table.getByRole('row').nth(1)).toHaveAttribute('data-testid', 'current-device');
      await expect(current.getByTestId('current-device-badge')).toHaveText(d.current);
      await expect(current.getByTestId('device-name')).toHaveText(d.desktop);
      await expect(current.getByRole('cell')).toHaveText([new RegExp(`^${d.desktop}`), 'Linux', /^Chrome( Headless)? \d+$/, d.unknown, /./, '']);
      // Last activity from now, the full time in Tokyo with its zone in the tooltip.
      const currentTime = current.getByTestId('device-last-activity');
      await expect(current.getByTestId('device-last-activity-tooltip')).toHaveText(`${shownAs((await currentTime.getAttribute('datetime'))!, lang)} ${d.zone}`);

      // The other one: the Meishi app on an iPhone, marked as the app, with its last activity.
      const others = section.getByTestId('other-device');
      await expect(others).toHaveCount(1);
      const other = others.first();
      await expect(other.getByTestId('device-name')).toHaveText('Apple iPhone');
      await expect(other.getByRole('cell')).toHaveText([/^Apple iPhone/, 'iOS 17.2', 'WebKit 605', d.unknown, /./, d.logout]);
      await expect(other.getByText(d.app, { exact: true })).toBeVisible();
      await expect(other.getByTestId('current-device-badge')).toHaveCount(0);
      const otherTime = other.getByTestId('device-last-activity');
      const iso = (await otherTime.getAttribute('datetime'))!;
      expect(Math.abs(Date.now() - new Date(iso).getTime())).toBeLessThan(5 * 60_000);
      await expect(otherTime).toHaveText(lang === 'ja' ? /^(\d+ (秒|分)前|今)$/ : /^(\d+ (seconds?|minutes?) ago|now)$/);
      await expect(other.getByTestId('device-last-activity-tooltip')).toHaveText(`${shownAs(iso, lang)} ${d.zone}`);
      await checkA11y(page, 'my account with session devices');

      // Each device's button is named after it (and shows "log out"). Cancel first: nothing happens.
      const logoutPhone = other.getByRole('button', { name: d.logoutDevice('Apple iPhone WebKit 605 (iOS 17.2)'), exact: true });
      await expect(logoutPhone).toHaveText(d.logout);
      await logoutPhone.click();
      // The question names the other device, not "this" one.
      let dialog = page.getByRole('dialog', { name: d.confirmOne('Apple iPhone WebKit 605 (iOS 17.2)') });
      await expect(dialog).toBeVisible();
      await checkA11y(page, 'log out one device: confirmation');
      await dialog.getByRole('button', { name: d.cancel }).click();
      await expect(dialog).toBeHidden();
      await expect(logoutPhone).toBeFocused();
      await expect(others).toHaveCount(1);

      await logoutPhone.click();
      dialog = page.getByRole('dialog', { name: d.confirmOne('Apple iPhone WebKit 605 (iOS 17.2)') });
      const call = page.waitForResponse((r) => /\/api\/session-devices\/[^/]+\/logout$/.test(new URL(r.url()).pathname));
      await dialog.getByRole('button', { name: d.logout, exact: true }).click();
      expect((await call).status()).toBe(200);
      await expect(dialog).toBeHidden();
      await expect(section.getByRole('status')).toHaveText(d.loggedOut);
      // The list is fetched again: no other device is left.
      await expect(section.getByTestId('no-other-devices')).toHaveText(d.none);
      await expect(section.getByRole('button', { name: d.logoutOthers })).toHaveCount(0);
      await checkA11y(page, 'my account after logging a device out');

      // The phone's next navigation finds itself signed out.
      await expectSignedOut(phone.page, lang);
      await phone.context.close();

      // This session goes on; after a reload the list still has no other device.
      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      await expect(page.getByTestId('no-other-devices')).toHaveText(d.none);
    });

    test('"log out all other devices" ends every session but this one', async ({ page, browser, checkA11y }) => {
      // Several browsers signing in, one after the other: more than the default 30 s on a busy machine.
      test.slow();
      const t = TEXT[lang];
      const d = DEVICES[lang];
      const phone = await signInElsewhere(browser, locale, lang, allEmail, ANDROID_UA);
      const laptop = await signInElsewhere(browser, locale, lang, allEmail);

      await signInOnTenantHost(page, t, 'acme', allEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      const section = page.getByRole('region', { name: d.heading });
      const others = section.getByTestId('other-device');
      await expect(others).toHaveCount(2);
      // Newest activity first: the laptop signed in after the phone.
      await expect(others.nth(1).getByTestId('device-name')).toHaveText('Google Pixel 8');

      await section.getByRole('button', { name: d.logoutOthers }).click();
      const dialog = page.getByRole('dialog', { name: d.confirmOthers });
      await expect(dialog).toBeVisible();
      await checkA11y(page, 'log out all other devices: confirmation');
      const call = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/session-devices/logout-others`);
      await dialog.getByRole('button', { name: d.logoutOthers }).click();
      expect((await call).status()).toBe(200);
      await expect(section.getByRole('status')).toHaveText(d.loggedOutOthers);
      await expect(section.getByTestId('no-other-devices')).toHaveText(d.none);
      // The focus is not lost with the button that opened the dialog.
      await expect(section.getByRole('heading', { name: d.heading })).toBeFocused();
      await checkA11y(page, 'my account after logging all other devices out');

      await expectSignedOut(phone.page, lang);
      await expectSignedOut(laptop.page, lang);
      await phone.context.close();
      await laptop.context.close();

      // This browser is still signed in.
      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      await expect(page.getByTestId('signed-in-as')).toHaveText(t.signedInAs('山田 太郎', allEmail));
    });
  });
}
