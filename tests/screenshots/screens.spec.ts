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
