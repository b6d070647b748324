// What a user reads when signing in fails (spec 01 section 8 "Login", section 4 "Login throttle").
import type { Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { enterEmailOnTenantHost, signInOnTenantHost, submitPassword } from './support/flows';
import { TEXT, type Text } from './support/text';

/** The footer language switch: stores the choice in a cookie and reloads the page. */
async function switchLanguageTo(page: Page, label: '日本語' | 'English') {
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: label }).click()]);
  await waitForHydration(page);
}

test('a wrong password is refused with a message in the chosen language', async ({ page, context, consoleGuard, checkA11y }) => {
  consoleGuard.allowResourceError({ path: `${BASE}/api/v2/login`, status: 401 });

  let t: Text = TEXT.ja;
  let response = await signInOnTenantHost(page, t, 'acme', 'user@acme.test', 'not-the-password');
  expect(response.status()).toBe(401);
  await expect(page.getByRole('alert')).toHaveText(t.invalidCredentials);
  // Still on the login page's password step, ready for another try.
  await expect(page).toHaveURL(`${origin('acme')}${BASE}/login`);
  await expect(page.getByLabel(t.password, { exact: true })).toBeEditable();
  await checkA11y(page, 'login error');

  await expect(page.getByRole('button', { name: '日本語' })).toHaveAttribute('aria-pressed', 'true');
  await switchLanguageTo(page, 'English');
  t = TEXT.en;
  expect((await context.cookies(origin('acme'))).find((c) => c.name === 'portal_locale')?.value).toBe('en');
  await expect(page).toHaveTitle(t.loginTitle);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.tenantHeading('Acme Corporation'));
  await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');

  await enterEmailOnTenantHost(page, t, 'user@acme.test');
  response = await submitPassword(page, t, 'not-the-password');
  expect(response.status()).toBe(401);
  await expect(page.getByRole('alert')).toHaveText(t.invalidCredentials);
  await checkA11y(page, 'login error');
});

test('repeated failures lock the form with a countdown in the chosen language', async ({ page, consoleGuard, checkA11y }) => {
  consoleGuard.allowResourceError({ path: `${BASE}/api/v2/login`, status: 401 });
  consoleGuard.allowResourceError({ path: `${BASE}/api/v2/login`, status: 429 });
  // Throttling counts unknown emails as well; a dedicated one locks no account other tests use.
  const email = 'nobody@acme.test';

  /** Reads the seconds the throttle alert shows. */
  const secondsShown = async (t: Text) => {
    const text = (await page.getByRole('alert').textContent()) ?? '';
    const m = t.throttled.exec(text.trim());
    if (!m) throw new Error(`not the throttle message: ${text}`);
    return Number(m[1]);
  };
  const expectCountdown = async (t: Text) => {
    const alert = page.getByRole('alert');
    await expect(alert).toHaveText(t.throttled);
    const submit = page.getByRole('button', { name: t.logIn, exact: true });
    await expect(submit).toBeDisabled();
    const first = await secondsShown(t);
    expect(first).toBeGreaterThan(1);
    // It counts down once a second, and the button stays disabled meanwhile.
    await expect.poll(() => secondsShown(t), { timeout: 4_000, intervals: [250] }).toBeLessThan(first);
    await expect(submit).toBeDisabled();
    await checkA11y(page, 'login throttled');
  };

  let t: Text = TEXT.ja;
  await gotoHydrated(page, `${origin('acme')}${BASE}/login`);
  await enterEmailOnTenantHost(page, t, email);
  for (let attempt = 1; attempt <= 5; attempt++) {
    const response = await submitPassword(page, t, `wrong-${attempt}`);
    expect(response.status(), `attempt ${attempt}`).toBe(401);
    await expect(page.getByRole('alert')).toHaveText(t.invalidCredentials);
  }
  const sixth = await submitPassword(page, t, 'wrong-6');
  expect(sixth.status()).toBe(429);
  await expectCountdown(t);

  // The lock holds across a reload in the other language.
  await switchLanguageTo(page, 'English');
  t = TEXT.en;
  await enterEmailOnTenantHost(page, t, email);
  const again = await submitPassword(page, t, 'wrong-7');
  expect(again.status()).toBe(429);
  await expectCountdown(t);
});

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('a deactivated member is told the account is deactivated', async ({ page, consoleGuard, checkA11y }) => {
      const t = TEXT[lang];
      consoleGuard.allowResourceError({ path: `${BASE}/api/v2/login`, status: 403 });
      const response = await signInOnTenantHost(page, t, 'acme', 'gone@acme.test', DEMO_PASSWORD);
      expect(response.status()).toBe(403);
      await expect(page.getByRole('alert')).toHaveText(t.deactivated);
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/login`);
      await checkA11y(page, 'login, deactivated');
      // No session was made.
      const cookies = await page.context().cookies(origin('acme'));
      expect(cookies.map((c) => c.name)).not.toContain('portal_session');
    });
  });
}
