// The layout on any screen (issue 14, decision 0032), at 1280x800 and 390x844 in both languages:
// - the drawer: a column from 960px up (the toggle closes it for the page), below that closed on
//   every page and an overlay the ☰ button opens (aria-expanded, focus into it, Escape and a click
//   beside it close it, focus back on the button); the skip link; arrow keys in the user menu;
// - the users table: fits its column at 1280 (the actions in view, names on one line, long values
//   cut with their whole text in a tooltip), a card per user at 390 with every field on screen;
//   the row menu; "never active" for a registered person and the resend button for an invited one,
//   as the counts say;
// - RelativeTime: "… ago" with the full Tokyo time and its zone in a tooltip (hover and focus);
// - the audit log: filters by actor, action and dates in the URL, the detail panel, headers whole.
// axe on every screen visited. On a tenant of its own per language (support/people.ts).
import { createClient } from '@libsql/client';
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { BASE, DEMO_PASSWORD, expect, LANGUAGES, origin, test, waitForHydration, type Lang } from './fixtures';
import { ensureDedicatedUsers } from './support/dedicated-users';
import { TWOFA } from './support/twofa-text';
import { signInToPage } from './support/admin-text';
import { ensurePeopleTenant, personEmail } from './support/people';
import { writeReturning } from './support/db-write';
import { accountFor } from './support/accounts';
import { ROUTES } from '../../src/shared/routes';

const TEXT = {
  ja: {
    menu: 'メニュー',
    skip: '本文へ移動',
    myAccount: 'マイアカウント',
    manageUsers: 'ユーザー管理',
    userMenu: 'ユーザーメニュー',
    logout: 'ログアウト',
    longName: '長谷川 さくら子 アレクサンドラ 百合香',
    neverActive: '未利用',
    resend: 'さんに招待を再送',
    actionsFor: (name: string) => `${name} さんの操作`,
    edit: (name: string) => `${name} さんを編集`,
    zone: '日本時間',
    email: 'メールアドレス',
    next: '次へ',
    remember: 'ログインしたままにする',
    signedIn: 'ログイン',
    detailTitle: '記録の詳細',
    emptyFiltered: '条件に合う記録はありません。',
    apply: '絞り込む',
    clear: '条件をクリア',
  },
  en: {
    menu: 'Menu',
    skip: 'Skip to content',
    myAccount: 'My Account',
    manageUsers: 'Manage Users',
    userMenu: 'User menu',
    logout: 'Logout',
    longName: 'Alexandria Montgomery-Fitzgerald Wellington',
    neverActive: 'Never active',
    email: 'Email',
    next: 'Next',
    remember: 'Keep me logged in',
    resend: 'Resend the invitation to',
    actionsFor: (name: string) => `Actions for ${name}`,
    edit: (name: string) => `Edit ${name}`,
    zone: 'JST',
    signedIn: 'Signed in',
    detailTitle: 'Entry details',
    emptyFiltered: 'No entry matches these filters.',
    apply: 'Apply',
    clear: 'Clear filters',
  },
} satisfies Record<Lang, unknown>;

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** The full timestamp a RelativeTime shows in its tooltip: "2026/11/25 (水) 16:42:59 日本時間". */
const FULL_TIME = (zone: string) => new RegExp(`^\\d{4}/\\d{1,2}/\\d{1,2} \\(.+\\) \\d{2}:\\d{2}:\\d{2} ${zone}$`);

/** Two people besides the admin: one registered who never signed in (a long name), one invited. */
async function addPeople(label: string, lang: Lang): Promise<{ long: string; invited: string }> {
  const dir = process.env.E2E_DB_DIR!;
  const db = createClient({ url: `file:${join(dir, 'portal.db')}`, timeout: 5000 });
  const long = personEmail('alexandria-montgomery-fitzgerald-wellington-sakurako', label);
  const invited = personEmail('invited', label);
  try {
    const cols = async (table: string) => (await db.execute(`PRAGMA table_info(${table})`)).rows.map((r) => String(r.name)).filter((c) => c !== 'id');
    const userCols = await cols('users');
    const memberCols = await cols('tenant_users');
    const pick = (list: string[], over: Record<string, string>) => list.map((c) => over[c] ?? c).join(', ');
    for (const [email, name, registered] of [
      [long, TEXT[lang].longName, true],
      [invited, 'Invited Person', false],
    ] as const) {
      const user = await writeReturning(db, {
        sql: `INSERT INTO users (${userCols.join(', ')}) SELECT ${pick(userCols, { email: '?1', name: '?2', password_hash: registered ? 'password_hash' : 'NULL', twofa_method: 'NULL' })} FROM users WHERE email = 'user@acme.test' RETURNING id`,
        args: [email, name],
      });
      await db.execute({
        sql: `INSERT INTO tenant_users (${memberCols.join(', ')}) SELECT ${pick(memberCols, { user_id: '?1', is_admin: '0', last_active_at: 'NULL' })}
              FROM tenant_users WHERE tenant_id = (SELECT id FROM tenants WHERE initial_subdomain = ?2) AND is_admin = 1 LIMIT 1`,
        args: [Number(user.rows[0]!.id), label],
      });
    }
  } finally {
    db.close();
  }
  return { long, invited };
}

async function noSidewaysScroll(page: Page, width: number) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const { lang, locale } of LANGUAGES) {
  for (const size of SIZES) {
    const narrow = size.width < 960;
    test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'} at ${size.width}x${size.height}`, () => {
      test.use({ locale, viewport: size });
      const label = `layout-${lang}`;
      const admin = `layout-admin+${lang}@acme.test`;
      let people: { long: string; invited: string };

      test.beforeAll(async () => {
        await ensurePeopleTenant({ label, lang, admin, meishiSeats: 10 });
        people = await addPeople(label, lang);
      });

      test('the "keep me logged in" label stays whole; Japanese text breaks between phrases', async ({ page }) => {
        const x = TEXT[lang];
        await page.goto(`${origin(label)}${BASE}/login`);
        await waitForHydration(page);
        // Japanese has no spaces: the page breaks it by phrase (「ログインしたままにする」 was cut as ままに/する).
        if (lang === 'ja') expect(await page.evaluate(() => getComputedStyle(document.body).wordBreak)).toBe('auto-phrase');
        await page.getByLabel(x.email).fill(admin);
        await page.getByRole('button', { name: x.next, exact: true }).click();
        const remember = page.getByText(x.remember, { exact: true });
        await expect(remember).toBeVisible();
        // One line: the phrase is not cut.
        const lineHeight = await remember.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 24);
        expect((await remember.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
      });

      test('the drawer, the skip link and the toolbar menus', async ({ page, checkA11y }) => {
        const x = TEXT[lang];
        await signInToPage(page, lang, label, admin, '/my-account');
        const toggle = page.getByRole('button', { name: x.menu, exact: true });
        const drawer = page.locator('#side-drawer');
        await expect(toggle).toHaveAttribute('aria-controls', 'side-drawer');

        if (narrow) {
          // Closed, and the page has the whole width.
          await expect(toggle).toHaveAttribute('aria-expanded', 'false');
          await expect(drawer).toBeHidden();
          await noSidewaysScroll(page, size.width);
          expect((await page.locator('main').boundingBox())!.width).toBeGreaterThan(size.width - 40);
          // ☰ opens the overlay and takes the focus into it; Escape closes it and gives it back.
          await toggle.click();
          await expect(toggle).toHaveAttribute('aria-expanded', 'true');
          await expect(drawer).toBeVisible();
          await expect(drawer.getByRole('link', { name: x.myAccount })).toBeFocused();
          await checkA11y(page, 'drawer open over the page');
          await page.keyboard.press('Escape');
          await expect(drawer).toBeHidden();
          await expect(toggle).toHaveAttribute('aria-expanded', 'false');
          await expect(toggle).toBeFocused();
          // A click beside it closes it too.
          await toggle.click();
          await expect(drawer).toBeVisible();
          await page.mouse.click(size.width - 20, size.height / 2);
          await expect(drawer).toBeHidden();
          // It stays closed on the next page.
          await toggle.click();
          await drawer.getByRole('link', { name: x.manageUsers }).click();
          await expect(page).toHaveURL(`${origin(label)}${BASE}/admin/users`);
          await waitForHydration(page);
          await expect(drawer).toBeHidden();
          await expect(toggle).toHaveAttribute('aria-expanded', 'false');
        } else {
          // A column beside the content; the toggle closes it for this page only.
          await expect(drawer).toBeVisible();
          await expect(toggle).toHaveAttribute('aria-expanded', 'true');
          expect(Math.round((await drawer.boundingBox())!.width)).toBe(250);
          await toggle.click();
          await expect(drawer).toBeHidden();
          await expect(toggle).toHaveAttribute('aria-expanded', 'false');
          await toggle.click();
          await expect(drawer).toBeVisible();
          await toggle.click();
          await page.reload();
          await waitForHydration(page);
          await expect(drawer).toBeVisible();
          await expect(toggle).toHaveAttribute('aria-expanded', 'true');
        }

        // The skip link is the first stop of the keyboard and leads to the content.
        await page.goto(`${origin(label)}${BASE}/my-account`);
        await waitForHydration(page);
        await page.keyboard.press('Tab');
        const skip = page.getByRole('link', { name: x.skip });
        await expect(skip).toBeFocused();
        await expect(skip).toBeInViewport();
        await page.keyboard.press('Enter');
        await expect(page.locator('main#main')).toBeFocused();

        // The user menu: arrow keys move between its items, Escape returns to its button.
        const userButton = page.getByRole('button', { name: x.userMenu });
        await userButton.focus();
        await page.keyboard.press('ArrowDown');
        await expect(page.getByRole('banner').getByRole('button', { name: x.logout })).toBeFocused();
        await checkA11y(page, 'user menu open');
        await page.keyboard.press('Escape');
        await expect(userButton).toBeFocused();
        await expect(userButton).toHaveAttribute('aria-expanded', 'false');
      });

      test('the users table fits, becomes cards on a phone, and times say "ago" with the full time in a tooltip', async ({ page, checkA11y }) => {
        const x = TEXT[lang];
        await signInToPage(page, lang, label, admin, '/admin/users');
        const table = page.getByTestId('users-table');
        const rows = page.getByTestId('user-row');
        await expect(rows).toHaveCount(3);
        const longRow = rows.filter({ hasText: people.long });
        const invitedRow = rows.filter({ hasText: people.invited });
        const adminRow = rows.filter({ hasText: admin });

        // Registered but never signed in: "never active"; invited and not registered: the resend
        // button, as many as the "not registered" count says.
        if (narrow) {
          // A compact card: name, email, role and the actions; the rest behind "show details".
          for (const row of [longRow, invitedRow, adminRow]) await row.getByTestId('row-details-toggle').click();
        }
        await expect(longRow.getByTestId('never-active')).toHaveText(x.neverActive);
        await expect(longRow.getByRole('button', { name: new RegExp(x.resend) })).toHaveCount(0);
        await expect(invitedRow.getByRole('button', { name: new RegExp(x.resend) })).toBeVisible();
        await expect(page.getByTestId('users-counts').locator('dd').nth(1)).toHaveText('1');
        await noSidewaysScroll(page, size.width);

        const wrap = page.getByTestId('users-table-wrap');
        if (!narrow) {
          // The whole table in its column: nothing to scroll sideways, every row's actions in view.
          const fits = await wrap.evaluate((el) => el.scrollWidth <= el.clientWidth);
          expect(fits).toBe(true);
          const box = (await wrap.boundingBox())!;
          for (const button of await rows.getByTestId('row-menu-button').all()) {
            const b = (await button.boundingBox())!;
            expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width);
          }
          // A long name stays on one line, cut, with the whole name in its tooltip.
          const nameCell = longRow.getByRole('cell').nth(0).locator('.dt-truncate');
          await expect(nameCell).toHaveAttribute('title', x.longName);
          const lineHeight = await nameCell.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
          expect((await nameCell.boundingBox())!.height).toBeLessThanOrEqual(lineHeight + 1);
          // Headers on one line each.
          for (const th of await table.getByRole('columnheader').all()) expect((await th.boundingBox())!.height).toBeLessThan(48);
          // Name and email first (admins find people by them); the email never cut (issue 27 part 3).
          await expect(table.getByRole('columnheader').nth(0)).toContainText(lang === 'ja' ? '名前' : 'Name');
          await expect(table.getByRole('columnheader').nth(1)).toContainText(x.email);
          // The email takes what the fixed columns leave, and they leave it room (it had 54px once).
          expect((await table.getByRole('columnheader').nth(1).boundingBox())!.width).toBeGreaterThanOrEqual(96);
          for (const email of await rows.getByTestId('person-email').all()) {
            expect(await email.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && getComputedStyle(el).textOverflow !== 'ellipsis')).toBe(true);
            await expect(email).toBeVisible();
          }
          await expect(longRow.getByTestId('person-email')).toHaveText(people.long);
        } else {
          // A card per person: the header row is out of sight, each value beside its label on screen.
          expect((await table.locator('thead').boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
          for (const cell of await longRow.getByRole('cell').filter({ visible: true }).all()) {
            await cell.scrollIntoViewIfNeeded();
            const b = (await cell.boundingBox())!;
            expect(b.x).toBeGreaterThanOrEqual(0);
            expect(b.x + b.width).toBeLessThanOrEqual(size.width);
          }
          await expect(longRow.getByRole('cell').nth(0)).toContainText(x.longName);
        }

        // The admin's last activity: time from now, the full Tokyo time with its zone in a tooltip.
        const last = adminRow.getByTestId('last-active');
        const tooltip = adminRow.getByTestId('last-active-tooltip');
        await expect(tooltip).toBeHidden();
        if (narrow) await last.focus();
        else await last.hover();
        await expect(tooltip).toBeVisible();
        await expect(tooltip).toHaveText(FULL_TIME(x.zone));
        await expect(last).toHaveAccessibleDescription(FULL_TIME(x.zone));
        await checkA11y(page, 'users table with a time tooltip');

        // The row's actions: a menu whose items take the arrow keys.
        await longRow.getByRole('button', { name: x.actionsFor(x.longName) }).click();
        const edit = longRow.getByRole('button', { name: x.edit(x.longName) });
        await expect(edit).toBeFocused();
        await expect(edit).toBeInViewport();
        await page.keyboard.press('ArrowDown');
        await expect(edit).not.toBeFocused();
        await checkA11y(page, 'users table, row menu open');
        await page.keyboard.press('Escape');
        await expect(edit).toBeHidden();
      });

      test('the audit log filters by actor, action and dates, and shows one entry in detail', async ({ page, checkA11y }) => {
        const x = TEXT[lang];
        await signInToPage(page, lang, label, admin, '/admin/activity-logs');
        const rows = page.getByTestId('activity-row');
        await expect(rows.first()).toBeVisible();
        await noSidewaysScroll(page, size.width);
        if (!narrow) {
          for (const th of await page.getByTestId('activity-table').getByRole('columnheader').all()) expect((await th.boundingBox())!.height).toBeLessThan(48);
        }

        // Actor and action: the URL carries them (a link can be shared), every row matches.
        const filters = page.getByTestId('activity-filters');
        await filters.getByRole('searchbox').fill(admin);
        await filters.getByRole('combobox').selectOption('login.succeeded');
        await filters.getByRole('button', { name: x.apply }).click();
        await expect(page).toHaveURL(new RegExp(`actor=${encodeURIComponent(admin).replace(/[+]/g, '\\+')}.*action=login\\.succeeded`));
        await expect(rows.first()).toBeVisible();
        for (const row of await rows.all()) {
          await expect(row).toHaveAttribute('data-action', 'login.succeeded');
          await expect(row.getByTestId('activity-event')).toHaveText(x.signedIn);
        }
        await expect(filters.getByRole('searchbox')).toHaveValue(admin);
        await checkA11y(page, 'audit log filtered');

        // One entry in detail, the filters kept.
        await rows.first().getByTestId('activity-details-link').click();
        const detail = page.getByTestId('activity-detail');
        await expect(detail.getByRole('heading', { name: x.detailTitle })).toBeVisible();
        await expect(detail.locator('code')).toHaveText('login.succeeded');
        await expect(detail).toContainText(admin);
        await expect(page).toHaveURL(/entry=\d+/);
        await checkA11y(page, 'audit log entry in detail');
        await detail.getByTestId('activity-detail-close').click();
        await expect(detail).toHaveCount(0);
        await expect(page).toHaveURL(/action=login\.succeeded/);

        // A range that has nothing yet: the empty state offers to clear the filters.
        const tomorrow = new Date(Date.now() + 9 * 3_600_000 + 86_400_000).toISOString().slice(0, 10);
        await filters.locator('input[name="from"]').fill(tomorrow);
        await filters.getByRole('button', { name: x.apply }).click();
        await expect(page).toHaveURL(new RegExp(`from=${tomorrow}`));
        await expect(page.getByTestId('activity-table-empty')).toContainText(x.emptyFiltered);
        await checkA11y(page, 'audit log, nothing matches');
        await page.getByTestId('activity-clear').click();
        await expect(page).toHaveURL(`${origin(label)}${BASE}/admin/activity-logs`);
        await expect(rows.first()).toBeVisible();
      });
    });
  }
}

// Every screen of the route table reflows at 320 CSS px (WCAG 2.2 SC 1.4.10, issue 27 part 2):
// the document is never wider than the window, signed out and as an admin, in both languages.
const PUBLIC_WITH_PARAMS: Record<string, string> = {
  register: '/register/nobody%40acme.test?expires=1&signature=x',
  verify: '/verify/nobody%40acme.test?expires=1&signature=x',
};

async function documentWidth(page: Page): Promise<{ doc: number; win: number; widest: string }> {
  return page.evaluate(() => {
    const win = window.innerWidth;
    // The element that sticks out furthest, to say what to fix when this fails.
    let widest = '';
    let right = win;
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const r = el.getBoundingClientRect();
      if (r.right > right + 0.5 && getComputedStyle(el).position !== 'fixed') {
        right = r.right;
        widest = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].slice(0, 4).join('.')} (${Math.round(r.right)} px)`;
      }
    }
    return { doc: document.documentElement.scrollWidth, win, widest };
  });
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`every screen at 320 px in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale, viewport: { width: 320, height: 640 } });

    test('no screen of the route table scrolls sideways', async ({ page, checkA11y, consoleGuard }) => {
      test.slow();
      // The links with parameters are refused on purpose (an expired or altered link): the page says so.
      for (const path of Object.values(PUBLIC_WITH_PARAMS)) {
        for (const status of [403, 410]) consoleGuard.allowResourceError({ path: `${BASE}${path.split('?')[0]}`, status });
      }
      const acme = origin('acme');
      const wide: string[] = [];
      const measure = async (what: string) => {
        await page.waitForLoadState('load');
        await waitForHydration(page).catch(() => undefined);
        const w = await documentWidth(page);
        if (w.doc > w.win) wide.push(`${what} (${page.url()}): ${w.doc} > ${w.win}, widest ${w.widest}`);
      };
      for (const route of ROUTES.filter((r) => r.access === 'public')) {
        await page.goto(`${acme}${BASE}${PUBLIC_WITH_PARAMS[route.name] ?? route.paths[0]}`);
        await measure(route.name);
      }
      await signInToPage(page, lang, 'acme', accountFor('admin@acme.test', lang), '/my-account');
      for (const route of ROUTES.filter((r) => r.access !== 'public')) {
        await page.goto(`${acme}${BASE}${route.paths[0]}`);
        await measure(route.name);
      }
      // The screens the issue named, checked with axe at this width too.
      for (const path of ['/my-account', '/admin/users', '/admin/deactivated', '/admin/departments', '/admin/contact-details', '/admin/get-more-services']) {
        await page.goto(`${acme}${BASE}${path}`);
        await waitForHydration(page);
        await checkA11y(page, `${path} at 320 px`);
      }
      expect(wide).toEqual([]);
    });
  });
}

// Compact lists on a phone (issue 27 part 3): each person is one short card (name, email, role,
// actions) with the rest a tap away, on the users, deactivated users and devices lists, and the
// audit log shows when, who and what with a link to the rest.
for (const { lang, locale } of LANGUAGES) {
  test.describe(`compact lists at 390 px in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });
    const label = `compact-${lang}`;
    const admin = `compact-admin+${lang}@acme.test`;
    let people: { long: string; invited: string };
    test.beforeAll(async () => {
      await ensurePeopleTenant({ label, lang, admin, meishiSeats: 10 });
      people = await addPeople(label, lang);
    });

    test('a user is a compact card; details open and close; devices and the audit log too', async ({ page, checkA11y }) => {
      const x = TEXT[lang];
      await signInToPage(page, lang, label, admin, '/admin/users');
      const rows = page.getByTestId('user-row');
      await expect(rows).toHaveCount(3);
      const row = rows.filter({ hasText: people.long });
      // Name, email (whole), the role and the actions menu are on the card; the department is not.
      await expect(row.getByTestId('person-name')).toHaveText(x.longName);
      await expect(row.getByTestId('person-email')).toBeVisible();
      await expect(row.getByTestId('person-email')).toHaveText(people.long);
      await expect(row.getByRole('button', { name: x.actionsFor(x.longName) })).toBeVisible();
      await expect(row.getByTestId('never-active')).toBeHidden();
      // 21 people were 7,600 px at nine label rows each; a card is now a few lines.
      const closed = (await row.boundingBox())!.height;
      expect(closed).toBeLessThan(170);
      const toggle = row.getByTestId('row-details-toggle');
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(toggle).toHaveAccessibleName(new RegExp(`${lang === 'ja' ? '詳細を表示' : 'Show details'}.*${x.longName}`));
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await expect(row.getByTestId('never-active')).toBeVisible();
      await checkA11y(page, 'users as compact cards, one open');
      await toggle.click();
      await expect(row.getByTestId('never-active')).toBeHidden();
      await noSidewaysScroll(page, 390);

      // Devices: the device and its last activity on the card, the rest behind the disclosure.
      await page.goto(`${origin(label)}${BASE}/my-account`);
      await waitForHydration(page);
      const device = page.getByTestId('current-device');
      await expect(device.getByTestId('device-name')).toBeVisible();
      await expect(device.getByTestId('device-last-activity')).toBeVisible();
      await expect(device.getByRole('cell').filter({ visible: true })).toHaveCount(2);
      await device.getByTestId('row-details-toggle').click();
      expect(await device.getByRole('cell').filter({ visible: true }).count()).toBeGreaterThan(3);
      await checkA11y(page, 'devices as compact cards');

      // The audit log: when, who and what, and the link to the entry (no script needed).
      await page.goto(`${origin(label)}${BASE}/admin/activity-logs`);
      const entry = page.getByTestId('activity-row').first();
      await expect(entry.getByTestId('activity-event')).toBeVisible();
      await expect(entry.getByTestId('activity-details-link')).toBeVisible();
      await expect(entry.getByRole('cell').filter({ visible: true })).toHaveCount(4);
      await noSidewaysScroll(page, 390);
      await checkA11y(page, 'audit log as compact cards');
    });
  });
}

// At 390 px (issue 27 part 2): the tenant URLs are cards whose copy buttons are in view and whose
// URLs read as lines, not a character a line; the 2FA setup puts the otpauth link first, as the
// main action on a phone, the QR code under it, the key across the card.
for (const { lang, locale } of LANGUAGES) {
  test.describe(`phone layouts at 390 px in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale, viewport: { width: 390, height: 844 } });
    const qrUser = `qr-phone+${lang}@acme.test`;
    test.beforeAll(async () => {
      await ensureDedicatedUsers([{ from: 'user@acme.test', email: qrUser, language: lang }]);
    });

    test('tenant URL rows and their copy buttons fit', async ({ page, checkA11y }) => {
      await signInToPage(page, lang, 'acme', accountFor('admin@acme.test', lang), '/admin/tenant-settings');
      const row = page.getByTestId('tenant-url-initial');
      const copy = row.getByRole('button');
      await expect(copy).toBeInViewport({ ratio: 1 });
      const url = row.getByRole('cell').nth(1);
      // A URL of about 40 characters in two lines at most (it broke one character a line).
      const lineHeight = await url.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 24);
      expect((await url.boundingBox())!.height).toBeLessThan(lineHeight * 2 + 16 + 20);
      expect((await url.boundingBox())!.width).toBeGreaterThan(300);
      await noSidewaysScroll(page, 390);
      await checkA11y(page, 'tenant URLs at 390 px');
    });

    test('the 2FA setup leads with "open in the authenticator app" on a phone', async ({ page, checkA11y }) => {
      const x = TWOFA[lang];
      await signInToPage(page, lang, 'acme', qrUser, '/my-account');
      await page.goto(`${origin('acme')}${BASE}/verify-password?redirect=twofa`);
      await waitForHydration(page);
      await page.getByLabel(x.password, { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: x.confirm, exact: true }).click();
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/twofa`);
      await waitForHydration(page);
      await page.getByRole('button', { name: x.continue, exact: true }).click();
      await expect(page.getByTestId('backup-codes').getByRole('listitem')).toHaveCount(5);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: x.download, exact: true }).click();
      await download;
      await page.getByRole('button', { name: x.continue, exact: true }).click();
      const link = page.getByTestId('twofa-otpauth-link');
      const qr = page.getByTestId('twofa-qr');
      const key = page.getByTestId('twofa-manual-code');
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute('href', /^otpauth:\/\/totp\//);
      const [l, q, k] = [(await link.boundingBox())!, (await qr.boundingBox())!, (await key.boundingBox())!];
      // The link first, large enough to tap; the QR code under it; the key readable across the card.
      expect(l.y).toBeLessThan(q.y);
      expect(l.height).toBeGreaterThanOrEqual(44);
      expect(q.y + q.height).toBeLessThanOrEqual(k.y + 1);
      expect(k.width).toBeGreaterThan(250);
      await noSidewaysScroll(page, 390);
      await checkA11y(page, '2FA setup QR step at 390 px');
    });
  });
}
