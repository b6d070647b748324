// Every screen, as a reviewer would open it (issue 14): public pages signed out, then each page of
// the route table (src/shared/routes.ts) signed in as the demo admin, plus the states a screen
// shows only after a click (the drawer and user menu on a phone, a row's actions, the
// organisation chooser). One file per screen in .tmp/screenshots/<lang>-<width>x<height>/.
// Nothing is asserted beyond reaching the page: the journeys in tests/e2e do that.
import { test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTES } from '../../src/shared/routes';
import { BASE, LANGUAGES, origin, waitForHydration } from '../e2e/fixtures';
import { accountFor } from '../e2e/support/accounts';
import { signInToPage } from '../e2e/support/admin-text';
import { IMPORT_HEADERS } from '../../src/shared/people/schemas';

const OUT = join(process.cwd(), '.tmp', 'screenshots');
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Public pages worth a picture besides the route table's (which has parameters, or redirects when signed out). */
const PUBLIC_EXTRA = ['/register/nobody%40acme.test?expires=1&signature=x', '/verify/nobody%40acme.test?expires=1&signature=x', '/reset?token=x&email=nobody%40acme.test', '/no-such-page'];

for (const { lang, locale } of LANGUAGES) {
  for (const size of SIZES) {
    test.describe(`${lang} ${size.width}x${size.height}`, () => {
      test.use({ locale, viewport: size });
      test.describe.configure({ timeout: 180_000 });
      const dir = join(OUT, `${lang}-${size.width}x${size.height}`);
      // "<group letter><number>-<screen>": the same name for the same screen on every run.
      const counters = new Map<string, number>();
      const shot = async (page: Page, name: string) => {
        const group = test.info().title.startsWith('public') ? 'a' : test.info().title.startsWith('signed') ? 'b' : 'c';
        const n = (counters.get(group) ?? 0) + 1;
        counters.set(group, n);
        mkdirSync(dir, { recursive: true });
        await page.waitForLoadState('load');
        // Let hydration settle where there are islands (pages without any have nothing to wait for).
        await waitForHydration(page).catch(() => undefined);
        await page.screenshot({ path: join(dir, `${group}${String(n).padStart(2, '0')}-${name}.png`), fullPage: true });
      };

      test('public screens', async ({ page }) => {
        await page.goto(`${origin(null)}${BASE}/login`);
        await shot(page, 'login-main-domain');
        for (const route of ROUTES.filter((r) => r.access === 'public')) {
          const path = route.paths[0]!;
          if (path.includes(':')) continue;
          await page.goto(`${origin('acme')}${BASE}${path}`);
          await shot(page, `public-${route.name}`);
        }
        for (const path of PUBLIC_EXTRA) {
          await page.goto(`${origin('acme')}${BASE}${path}`);
          await shot(page, `public-${path.slice(1).split(/[/?]/)[0]}`);
        }
        await page.goto(`${origin('acme')}${BASE}/saml-login-error`);
        await shot(page, 'public-saml-login-error');
      });

      test('signed-in and admin screens', async ({ page }) => {
        await signInToPage(page, lang, 'acme', accountFor('admin@acme.test', lang), '/my-account');
        for (const route of ROUTES.filter((r) => r.access !== 'public')) {
          for (const path of route.paths.slice(0, 1)) {
            await page.goto(`${origin('acme')}${BASE}${path}`);
            await shot(page, route.name);
          }
        }
        await page.goto(`${origin('acme')}${BASE}/dev/outbox`);
        await shot(page, 'dev-outbox');
        await page.goto(`${origin('acme')}${BASE}/no-such-page`);
        await shot(page, 'not-found-signed-in');
        // States after a click.
        await page.goto(`${origin('acme')}${BASE}/admin/users`);
        await waitForHydration(page);
        await page.getByTestId('user-row').first().getByTestId('row-menu-button').click();
        await shot(page, 'users-row-actions');
        await page.goto(`${origin('acme')}${BASE}/my-account`);
        await waitForHydration(page);
        await page.getByTestId('drawer-toggle').click();
        await shot(page, 'drawer-toggled');
        await page.keyboard.press('Escape');
        await page.getByTestId('drawer-toggle').click();
        if (size.width < 960) await page.getByTestId('drawer-toggle').click();
        await page.locator('header button[aria-controls="toolbar-user-menu"]').click();
        await shot(page, 'user-menu');
      });

      test('states behind a click (issue 27)', async ({ page }) => {
        // The app chooser after login with its new ways: my account and the administration.
        await page.goto(`${origin('acme')}${BASE}/login`);
        await waitForHydration(page);
        await page.locator('input[type=email]').fill(accountFor('admin@acme.test', lang));
        await page.locator('form button[type=submit]').first().click();
        await page.locator('input[type=password]').fill('Portal-Demo-2026!');
        await page.locator('input[type=password]').press('Enter');
        await page.getByTestId('redirection-dialog').waitFor({ timeout: 20_000 });
        await shot(page, 'app-chooser-with-account-and-admin');

        // The users list: a card per person on a phone, one opened.
        await page.goto(`${origin('acme')}${BASE}/admin/users`);
        await waitForHydration(page);
        const toggle = page.getByTestId('row-details-toggle').first();
        if (await toggle.isVisible()) {
          await toggle.click();
          await shot(page, 'users-compact-details-open');
        }
        // The IP allowlist with an office's IPv6 network (issue 27 part 5), added as the dialog does.
        await page.goto(`${origin('acme')}${BASE}/admin/ip-restriction`);
        await waitForHydration(page);
        const description = lang === 'ja' ? '本社 (IPv6, NTT IPoE)' : 'Head office (IPv6, NTT IPoE)';
        // A second size or language finds it there already (the answer then says so): either way it is listed.
        await page.evaluate(
          async ([base, text]) => {
            await fetch(`${base}/api/admin/whitelisted-ips`, {
              method: 'POST',
              headers: { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' },
              body: JSON.stringify({ ipAddress: '2400:4050:1::', prefixLength: 48, description: text }),
            });
          },
          [BASE, description] as const,
        );
        await page.reload();
        await page.getByText('2400:4050:1::/48').first().waitFor();
        await shot(page, 'ip-restriction-ipv6');

        // The add-user dialog, on Globex (Acme's demo data has no free seat: its add button is disabled).
        await page.context().clearCookies();
        await signInToPage(page, lang, 'globex-jp', accountFor('multi@example.test', lang), '/admin/users');
        await page.getByTestId('users-toolbar').getByRole('button').first().click();
        await page.getByRole('dialog').first().waitFor();
        await shot(page, 'users-add-dialog');
        await page.keyboard.press('Escape');

        // The CSV import with errors: a file whose rows the import refuses.
        await page.getByTestId('users-toolbar').getByRole('button').nth(1).click();
        const dialog = page.getByRole('dialog').first();
        await dialog.waitFor();
        // The sample's headers, rows the import refuses: no name, a bad address, an unknown department.
        const csv = [IMPORT_HEADERS[lang].join(','), ',not-an-address,,,1,0,0', `${lang === 'ja' ? '山田 花子' : 'Hanako Yamada'},hanako@globex.test,${lang === 'ja' ? '総務部' : 'General Affairs'},,1,0,0`].join('\r\n');
        const picker = dialog.getByLabel(lang === 'ja' ? 'CSVファイルを選択' : 'Choose a CSV file');
        await picker.setInputFiles({ name: 'errors.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`, 'utf8') });
        await dialog.getByRole('button', { name: lang === 'ja' ? 'アップロード' : 'Upload' }).click();
        await dialog.getByTestId('import-outcome').waitFor({ timeout: 15_000 }).catch(() => undefined);
        await shot(page, 'users-import-with-errors');
      });

      test('sign-in steps: a real code entry and the 2FA QR step', async ({ page }) => {
        // The code entry with a login waiting for it (the demo user with app 2FA).
        await page.goto(`${origin('acme')}${BASE}/login`);
        await waitForHydration(page);
        await page.locator('input[type=email]').fill('totp@acme.test');
        await page.locator('form button[type=submit]').first().click();
        await page.locator('input[type=password]').fill('Portal-Demo-2026!');
        await page.locator('input[type=password]').press('Enter');
        await page.waitForURL(/\/otp/);
        await shot(page, 'enter-otp-with-a-login-waiting');

        // The 2FA setup's QR step, for a person without 2FA (the stepper's third step).
        await page.context().clearCookies();
        await signInToPage(page, lang, 'acme', accountFor('user@acme.test', lang), '/my-account');
        await page.goto(`${origin('acme')}${BASE}/verify-password?redirect=twofa`);
        await waitForHydration(page);
        await page.locator('input[type=password]').fill('Portal-Demo-2026!');
        await page.locator('input[type=password]').press('Enter');
        await page.waitForURL(/\/twofa$/);
        await waitForHydration(page);
        await page.getByTestId('twofa-step-heading').waitFor();
        await page.locator('main button').filter({ hasText: lang === 'ja' ? '次へ' : 'Continue' }).first().click();
        const download = page.waitForEvent('download');
        await page.locator('main button').filter({ hasText: lang === 'ja' ? 'ダウンロード' : 'Download' }).first().click();
        await download;
        await page.locator('main button').filter({ hasText: lang === 'ja' ? '次へ' : 'Continue' }).first().click();
        await page.getByTestId('twofa-qr').waitFor();
        await shot(page, 'twofa-setup-qr-step');
      });

      test('the organisation chooser', async ({ page }) => {
        // On the main domain a member of two organisations chooses one after signing in.
        await page.goto(`${origin(null)}${BASE}/login`);
        await waitForHydration(page);
        await page.locator('input[type=email]').fill(accountFor('multi@example.test', lang));
        if (!(await page.locator('input[type=password]').isVisible())) await page.locator('form button[type=submit]').first().click();
        await page.locator('input[type=password]').fill('Portal-Demo-2026!');
        await page.locator('input[type=password]').press('Enter');
        await page.getByTestId('redirection-dialog').waitFor({ timeout: 20_000 });
        await shot(page, 'organisation-chooser');
      });
    });
  }
}
