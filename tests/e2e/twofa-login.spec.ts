// The second step of login (spec 01 "One-time-code page", "Backup-code page", sections 4, 5, 8):
// a code from the authenticator app, 'incorrect code' for a wrong one, a backup code instead,
// "remember this device" (the next sign-in asks for no code), and the demo user totp@acme.test.
// (SMS codes at login: twofa-account.spec.ts.)
//
// Authenticator codes are computed from the secret (support/twofa.ts): the server accepts each
// time step once per user, so totp@acme.test is used by exactly one test, and every other journey
// has an account of its own whose 2FA is turned on in the database.
import type { Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { enterEmailOnTenantHost, signInOnTenantHost, submitPassword } from './support/flows';
import { TEXT } from './support/text';
import { Authenticator, ensureTwofaUsers, seedTwofa, signOut } from './support/twofa';
import { TWOFA, type TwofaText } from './support/twofa-text';

const ACME = origin('acme');
const api = (path: string) => `${BASE}/api/${path}`;
const apiCall = (page: Page, path: string) => page.waitForResponse((r) => new URL(r.url()).pathname === api(path) && r.request().method() === 'POST');

/** Password step on Acme's login page with `query`; lands on the code page, which keeps the query. */
async function passwordStepAsksForCode(page: Page, email: string, lang: 'ja' | 'en', query = ''): Promise<void> {
  const t = TEXT[lang];
  await gotoHydrated(page, `${ACME}${BASE}/login${query}`);
  await enterEmailOnTenantHost(page, t, email);
  expect((await submitPassword(page, t, DEMO_PASSWORD)).status()).toBe(200);
  await expect(page).toHaveURL(`${ACME}${BASE}/otp${query}`);
  await waitForHydration(page);
}

async function submitCode(page: Page, x: TwofaText, code: string) {
  await page.getByLabel(x.otpCode).fill(code);
  const verified = apiCall(page, 'otp/verify');
  await page.getByRole('button', { name: x.verify, exact: true }).click();
  return verified;
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const codeEmail = `twofa-code+${lang}@acme.test`;
    const backupEmail = `twofa-backup+${lang}@acme.test`;
    const rememberEmail = `twofa-remember+${lang}@acme.test`;
    const lockEmail = `twofa-lock+${lang}@acme.test`;
    const goneEmail = `twofa-gone+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureTwofaUsers([codeEmail, backupEmail, rememberEmail, lockEmail, goneEmail].map((email) => ({ from: 'user@acme.test', email, language: lang })));
    });

    /** App 2FA turned on for `email` (a finished setup, written in the database). */
    const withAppTwofa = (email: string) => seedTwofa(email, { method: 'app' });

    test('signs in with a code from the app; a wrong code is incorrect; full-width digits are converted', async ({ page, consoleGuard, checkA11y }) => {
      const x = TWOFA[lang];
      const { authenticator } = await withAppTwofa(codeEmail);

      // The code page keeps the login page's query.
      const query = '?continue=%2Faccounts%2Fmy-account';
      await passwordStepAsksForCode(page, codeEmail, lang, query);
      await expect(page).toHaveTitle(x.otpTitle);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.otpHeading);
      const code = page.getByLabel(x.otpCode);
      const verify = page.getByRole('button', { name: x.verify, exact: true });
      await expect(code).toBeFocused();
      await expect(page.getByText(x.otpAppHint)).toBeVisible();
      await expect(page.getByRole('button', { name: x.resendSms })).toHaveCount(0);
      await expect(page.getByRole('link', { name: x.useBackupCode })).toHaveAttribute('href', `${BASE}/recovery${query}`);
      await expect(verify).toBeDisabled();
      await checkA11y(page, 'enter code');

      // Full-width digits typed with a Japanese IME become the code's half-width digits (decision 0033).
      await code.fill('１２３４５６');
      await expect(page.getByTestId('code-boxes')).toHaveAttribute('data-code', '123456');
      await expect(verify).toBeEnabled();

      // A wrong code: 'incorrect code'.
      consoleGuard.allowResourceError({ path: api('otp/verify'), status: 422 });
      expect((await submitCode(page, x, await authenticator.wrong())).status()).toBe(422);
      await expect(page.getByRole('alert')).toHaveText(x.incorrect);
      await checkA11y(page, 'enter code, incorrect');

      // The right one: signed in, on to the continue path.
      expect((await submitCode(page, x, await authenticator.next())).status()).toBe(200);
      await expect(page).toHaveURL(`${ACME}${BASE}/my-account`);
      await expect(page.getByTestId('signed-in-as')).toContainText(codeEmail);
    });

    test('signs in with a backup code instead; a wrong one offers another code, the app code or logging in again', async ({ page, consoleGuard, checkA11y }) => {
      const x = TWOFA[lang];
      const { backupCodes } = await withAppTwofa(backupEmail);
      const query = '?continue=%2Faccounts%2Fmy-account';
      await passwordStepAsksForCode(page, backupEmail, lang, query);
      await page.getByRole('link', { name: x.useBackupCode }).click();
      await expect(page).toHaveURL(`${ACME}${BASE}/recovery${query}`);
      await waitForHydration(page);
      await expect(page).toHaveTitle(x.backupTitle);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.backupHeading);
      const backup = page.getByLabel(x.backupCode);
      await expect(backup).toBeFocused();
      await checkA11y(page, 'backup code');

      consoleGuard.allowResourceError({ path: api('backup-code'), status: 422 });
      await backup.fill('00000 00000');
      const refused = apiCall(page, 'backup-code');
      await page.getByRole('button', { name: x.backupSubmit, exact: true }).click();
      expect((await refused).status()).toBe(422);
      const alert = page.getByRole('alert');
      await expect(alert).toContainText(x.backupInvalid);
      await expect(alert.getByRole('link', { name: x.logInAgain })).toHaveAttribute('href', `${BASE}/login${query}`);
      await expect(alert.getByRole('link', { name: x.useCode })).toHaveAttribute('href', `${BASE}/otp${query}`);
      // No dead end: the step stays usable.
      await expect(page.getByRole('button', { name: x.backupSubmit, exact: true })).toBeEnabled();
      await checkA11y(page, 'backup code, invalid');

      // The pending login is still there: a saved code (typed as shown) signs in, without a reload.
      await page.getByLabel(x.backupCode).fill(backupCodes[0]!);
      const accepted = apiCall(page, 'backup-code');
      await page.getByRole('button', { name: x.backupSubmit, exact: true }).click();
      expect((await accepted).status()).toBe(200);
      // How many are left is said first (issue 27 part 7), then the sign-in goes on.
      const left = page.getByTestId('backup-codes-left');
      await expect(left).toContainText(String(backupCodes.length - 1));
      await checkA11y(page, 'backup codes left');
      await left.getByRole('button').click();
      await expect(page).toHaveURL(`${ACME}${BASE}/my-account`);
      await expect(page.getByTestId('signed-in-as')).toContainText(backupEmail);
    });

    test('after five wrong codes the step is locked: submit disabled, counting down the seconds the server gives', async ({ page, consoleGuard, checkA11y }) => {
      const x = TWOFA[lang];
      const { authenticator } = await withAppTwofa(lockEmail);
      await passwordStepAsksForCode(page, lockEmail, lang);
      consoleGuard.allowResourceError({ path: api('otp/verify'), status: 422 });
      consoleGuard.allowResourceError({ path: api('otp/verify'), status: 429 });
      const wrong = await authenticator.wrong();
      for (let i = 0; i < 5; i++) {
        expect((await submitCode(page, x, wrong)).status()).toBe(422);
        await expect(page.getByRole('alert')).toHaveText(x.incorrect);
      }
      const locked = await submitCode(page, x, wrong);
      expect(locked.status()).toBe(429);
      const alert = page.getByTestId('otp-locked');
      await expect(alert).toHaveText(x.lockedOut);
      const first = Number(x.lockedOut.exec((await alert.textContent()) ?? '')![1]);
      expect(first).toBeGreaterThan(800);
      expect(first).toBeLessThanOrEqual(900);
      await expect(page.getByRole('button', { name: x.verify, exact: true })).toBeDisabled();
      await expect.poll(async () => Number(x.lockedOut.exec((await alert.textContent()) ?? '')![1])).toBeLessThan(first);
      await checkA11y(page, 'enter code, locked out');
    });

    test('a pending login that has gone sends the user back to login with an error', async ({ page, consoleGuard, checkA11y }) => {
      const x = TWOFA[lang];
      consoleGuard.allowResourceError({ path: api('otp/verify'), status: 401 });
      const { authenticator } = await withAppTwofa(goneEmail);
      const query = '?continue=%2Faccounts%2Fmy-account';
      await passwordStepAsksForCode(page, goneEmail, lang, query);
      // The login attempt ends (expired, or finished in another tab): its cookie is gone.
      await page.context().clearCookies();
      const verified = await submitCode(page, x, await authenticator.next());
      expect(verified.status()).toBe(401);
      await expect(page).toHaveURL(`${ACME}${BASE}/login?continue=%2Faccounts%2Fmy-account&notice=twofa-error`);
      await expect(page.getByRole('alert').filter({ hasText: x.loginAgain })).toBeVisible();
      await checkA11y(page, 'login with the two-factor error');
    });

    test('"remember this device": the next sign-in from this browser asks for no code; forgetting it asks again', async ({ page, checkA11y }) => {
      const x = TWOFA[lang];
      const { authenticator } = await withAppTwofa(rememberEmail);
      await passwordStepAsksForCode(page, rememberEmail, lang);
      await page.getByLabel(x.remember).check();
      const remembered = await submitCode(page, x, await authenticator.next());
      expect(JSON.parse(remembered.request().postData() ?? '{}')).toMatchObject({ rememberDevice: true });
      expect(remembered.status()).toBe(200);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await signOut(page);

      const visited: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
      });
      await signInOnTenantHost(page, TEXT[lang], 'acme', rememberEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      expect(visited).not.toContain(`${BASE}/otp`);

      // My account lists the remembered browser (marked as this one) and forgets it.
      await gotoHydrated(page, `${ACME}${BASE}/my-account`);
      await expect(page.getByRole('heading', { name: x.rememberedHeading })).toBeVisible();
      const entry = page.getByTestId('remembered-devices').getByRole('listitem');
      await expect(entry).toHaveCount(1);
      await expect(entry.getByTestId('this-browser-badge')).toHaveText(x.thisBrowser);
      await checkA11y(page, 'my-account with a remembered device');
      await entry.getByRole('button').click();
      const dialog = page.getByRole('dialog', { name: x.forgetTitle });
      await expect(dialog).toBeVisible();
      await checkA11y(page, 'forget-device confirmation');
      const forgotten = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith(api('session-devices/remembered/')) && r.request().method() === 'DELETE');
      await dialog.getByRole('button', { name: x.forget, exact: true }).click();
      expect((await forgotten).status()).toBe(200);
      await expect(page.getByTestId('devices-notice')).toHaveText(x.forgotten);
      await expect(page.getByTestId('no-remembered-devices')).toHaveText(x.noneRemembered);
      await signOut(page);

      await passwordStepAsksForCode(page, rememberEmail, lang);
    });
  });
}

// The only test that signs in as totp@acme.test (see above).
test.describe('demo user', () => {
  test.use({ locale: 'ja-JP' });

  test('totp@acme.test signs in with a code from the demo secret', async ({ page }) => {
    const x = TWOFA.ja;
    await passwordStepAsksForCode(page, 'totp@acme.test', 'ja');
    const verified = await submitCode(page, x, await new Authenticator('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP').next());
    expect(verified.status()).toBe(200);
    await expect(page).toHaveURL(`${ACME}/meishi/`);
    await expect(page.getByTestId('stand-in-user')).toHaveText(TEXT.ja.standInSignedIn('佐藤 花子', 'totp@acme.test'));
  });
});
