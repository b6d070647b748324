// Issue 27 parts 5, 6 and 7 in the browser, in both languages with axe: an admin on an IPv6
// office network lists its /64 with "add my address", meets the IPv6 entry rules and switches the
// restriction on, and a member elsewhere is refused with the address named; an admin adds a
// person with a reading (フリガナ), shown above the name; the email typed at login comes along to
// forgot password; subscriptions warns about members over the plan's seats.
import { BASE, DEMO_PASSWORD, expect, LANGUAGES, origin, test, gotoHydrated } from './fixtures';
import { signInOnTenantHost, enterEmailOnTenantHost } from './support/flows';
import { ADMIN_TEXT, signInToPage, toast } from './support/admin-text';
import { ensureSettingsTenant, serverTrustsForwardedFor } from './support/admin-tenants';
import { TEXT } from './support/text';
import { openServerDb } from './support/db-write';

const api = (path: string) => `${BASE}/api/${path}`;
// NTT IPoE-style addresses: the admin's interface address, and a member on another network.
const ADMIN_V6 = '2400:4050:1:2:aaaa:bbbb:cccc:dddd';
const ADMIN_64 = '2400:4050:1:2::/64';
const ELSEWHERE_V6 = '2400:4051:9::1';

const WORDS = {
  ja: {
    mapped: 'IPv4アドレスは 1.2.3.4 の形式で入力してください',
    addMine: (ip: string) => `現在のアドレス（${ip}）を追加`,
    reading: 'フリガナ（任意・カタカナ）',
    readingKana: 'フリガナはカタカナで入力してください',
    name: '名前',
    email: 'メールアドレス',
    addUser: 'ユーザーを追加',
    overLimit: 'ご契約の上限を超えて利用しています',
    forgotLink: 'パスワードをお忘れの方',
  },
  en: {
    mapped: 'Enter an IPv4 address in the 1.2.3.4 form',
    addMine: (ip: string) => `Add my current address (${ip})`,
    reading: 'Reading (フリガナ, optional, katakana)',
    readingKana: 'Enter the reading in katakana',
    name: 'Name',
    email: 'Email',
    addUser: 'Add user',
    overLimit: 'Usage is over your plan',
    forgotLink: 'Forgot password',
  },
};

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const w = WORDS[lang];

    test.describe('an IPv6 office', () => {
      test.use({ extraHTTPHeaders: { 'X-Forwarded-For': ADMIN_V6 } });
      const label = `ipv6-${lang}`;
      const admin = `ipv6-admin+${lang}@acme.test`;
      const member = `ipv6-member+${lang}@acme.test`;
      test.beforeAll(async () => {
        await ensureSettingsTenant({ label, name: `IPv6 Tenant ${lang}`, ipRestrictionSubscribed: true }, [
          { email: admin, language: lang, admin: true },
          { email: member, language: lang, admin: false },
        ]);
      });

      test('lists its /64 with "add my address", enables the restriction, and a member elsewhere is told their address', async ({ page, browser, consoleGuard, checkA11y }) => {
        expect(serverTrustsForwardedFor(), 'the e2e server must trust X-Forwarded-For').toBe(true);
        const x = ADMIN_TEXT[lang];
        await signInToPage(page, lang, label, admin, '/admin/ip-restriction');
        await expect(page.getByTestId('current-ip')).toHaveText(x.currentIp(ADMIN_V6));
        const ip = page.getByRole('textbox', { name: x.ipField, exact: true });
        const add = page.getByRole('button', { name: x.add, exact: true });

        // The form's IPv6 rules: /32-/128, no documentation, link-local or unique-local ranges, no ::1.
        for (const [text, error] of [
          ['2400:4050::/31', x.ipInvalid],
          ['2001:db8::/32', x.ipNotPublic],
          ['fe80::1', x.ipNotPublic],
          ['fd00:1::/48', x.ipNotPublic],
          ['::1', x.ipLocal],
          ['::ffff:133.242.10.20', w.mapped],
        ] as const) {
          await ip.fill(text);
          await ip.blur();
          await expect(ip, text).toHaveAccessibleDescription(new RegExp(`^${error.replace(/[.()]/g, '\\$&')}`));
          await expect(add).toBeDisabled();
        }
        await checkA11y(page, 'IPv6 entry refused');

        const mine = page.getByTestId('add-current-ip');
        await expect(mine).toHaveText(w.addMine(ADMIN_64));
        await mine.click();
        const list = page.getByTestId('ip-list');
        await expect(list.getByRole('row').nth(1).getByRole('cell').first()).toHaveText(ADMIN_64);
        await expect(mine).toHaveCount(0);
        await ip.fill('2400:4050:0001:0002::9/64');
        consoleGuard.allowResourceError({ path: api('admin/whitelisted-ips'), status: 422 });
        await add.click();
        await expect(ip).toHaveAccessibleDescription(new RegExp(`^${x.ipDuplicate}`));

        const toggle = page.getByRole('switch', { name: x.ipSwitch });
        await toggle.click();
        await page.getByRole('dialog', { name: x.enableTitle }).getByRole('button', { name: x.enable }).click();
        await expect(toast(page)).toHaveText(new RegExp(`^${x.ipEnabled}`));
        await expect(toggle).toHaveAttribute('aria-checked', 'true');
        await checkA11y(page, 'IPv6 restriction on');

        const elsewhere = await browser.newContext({ locale, extraHTTPHeaders: { 'X-Forwarded-For': ELSEWHERE_V6 } });
        const away = await elsewhere.newPage();
        const refused = await signInOnTenantHost(away, TEXT[lang], label, member, DEMO_PASSWORD);
        expect(refused.status()).toBe(403);
        await expect(away.getByRole('alert')).toHaveText(x.restrictedIpAt(ELSEWHERE_V6));
        await checkA11y(away, 'sign-in refused by the allowlist');
        await elsewhere.close();

        await toggle.click();
        await expect(toggle).toHaveAttribute('aria-checked', 'false');
      });
    });

    test.describe('readings', () => {
      const label = `reading-${lang}`;
      const admin = `reading-admin+${lang}@acme.test`;
      test.beforeAll(async () => {
        await ensureSettingsTenant({ label, name: `Reading Tenant ${lang}` }, [{ email: admin, language: lang, admin: true }]);
      });

      test('an admin adds a person with a reading in hiragana; the list shows it in katakana above the name', async ({ page, checkA11y }) => {
        await signInToPage(page, lang, label, admin, '/admin/users');
        await page.getByRole('button', { name: w.addUser, exact: true }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('textbox', { name: w.name, exact: false }).first().fill('山田 太郎');
        const reading = dialog.getByRole('textbox', { name: w.reading });
        await reading.fill('山田');
        await reading.blur();
        await expect(reading).toHaveAccessibleDescription(new RegExp(`^${w.readingKana}`));
        await checkA11y(page, 'user dialog, reading refused');
        await reading.fill('やまだ たろう');
        await dialog.getByRole('textbox', { name: w.email }).fill(`taro.${Date.now()}@reading.test`);
        await dialog.locator('form[data-testid="user-form"] button[type="submit"]').click();
        await expect(dialog).toBeHidden();
        const row = page.getByRole('row').filter({ hasText: '山田 太郎' });
        await expect(row.getByTestId('name-reading').first()).toHaveText('ヤマダ タロウ');
        await checkA11y(page, 'users list with a reading');
      });
    });

    test('the email typed at login comes along to forgot password', async ({ page, checkA11y }) => {
      const t = TEXT[lang];
      await gotoHydrated(page, `${origin('acme')}${BASE}/login`);
      await enterEmailOnTenantHost(page, t, 'user@acme.test');
      await page.getByTestId('forgot-link').click();
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/forgot?email=user%40acme.test`);
      await expect(page.getByRole('textbox').first()).toHaveValue('user@acme.test');
      await checkA11y(page, 'forgot with the email carried');
    });

    test('subscriptions warns about members over the plan', async ({ page, checkA11y }) => {
      const label = `seats-${lang}`;
      const admin = `seats-admin+${lang}@acme.test`;
      // One seat of the card app for its admin and one more member: 2 of 1.
      await ensureSettingsTenant({ label, name: `Seats Tenant ${lang}` }, [
        { email: admin, language: lang, admin: true },
        { email: `seats-member+${lang}@acme.test`, language: lang, admin: false },
      ]);
      const db = openServerDb();
      await db.execute({ sql: "UPDATE tenant_apps SET seats = 1 WHERE app = 'meishi' AND tenant_id = (SELECT id FROM tenants WHERE initial_subdomain = ?)", args: [label] });
      db.close();
      await signInToPage(page, lang, label, admin, '/admin/subscriptions');
      const warning = page.getByTestId('over-limit');
      await expect(warning.getByRole('heading')).toHaveText(w.overLimit);
      await expect(warning.getByRole('listitem')).toContainText(lang === 'ja' ? '2 人が契約数 1 人を 1 人超えています' : '2 active members, 1 more than the 1 seats');
      await checkA11y(page, 'subscriptions over the plan');
    });
  });
}
