// Two-factor setup in the account (spec 01 "Two-factor setup (account)", sections 4, 5, 8, 9):
// the password again (/verify-password), the three-step stepper (method, backup codes, set up),
// the result on my-account (the success toast stays until dismissed), and turning it off.
// Authenticator codes are computed from the key the page shows; SMS codes are read from the dev
// outbox (the e2e server has no SMS provider). Each journey has an account of its own.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { signInOnTenantHost } from './support/flows';
import { TEXT } from './support/text';
import { ageLoginSms, Authenticator, ensureTwofaUsers, secretFromManualCode, seedTwofa, smsCount, waitForSmsCode } from './support/twofa';
import { TWOFA, type TwofaText } from './support/twofa-text';

const ACME = origin('acme');
const TEXT_GENERIC = { ja: 'エラーが発生しました。ページを再読み込みしてもう一度お試しください。', en: 'Something Went Wrong! Please Refresh and Try Again!' };
const api = (path: string) => `${BASE}/api/${path}`;
const apiCall = (page: Page, path: string, method = 'POST') =>
  page.waitForResponse((r) => new URL(r.url()).pathname === api(path) && r.request().method() === method);

/** The two-factor entry of my-account, with its enabled/disabled badge. */
const twofaEntry = (page: Page, x: TwofaText) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name: x.myAccountEntry, exact: true }) });

/** From my-account: the 2FA entry, the password again, then the setup screen. */
async function openTwofaFromMyAccount(page: Page, x: TwofaText): Promise<void> {
  await twofaEntry(page, x).getByRole('link').click();
  await expect(page).toHaveURL(`${ACME}${BASE}/verify-password?redirect=twofa`);
  await waitForHydration(page);
  await expect(page).toHaveTitle(x.verifyTitle);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.verifyHeading);
  const password = page.getByLabel(x.password, { exact: true });
  await expect(password).toBeFocused();
  await password.fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: x.confirm, exact: true }).click();
  await expect(page).toHaveURL(`${ACME}${BASE}/twofa`);
  await waitForHydration(page);
  await expect(page).toHaveTitle(x.twofaTitle);
}

/** Straight to the password check (as the 2FA entry of my-account links to it), then the setup screen. */
async function openTwofaDirectly(page: Page, x: TwofaText): Promise<void> {
  await gotoHydrated(page, `${ACME}${BASE}/verify-password?redirect=twofa`);
  await page.getByLabel(x.password, { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: x.confirm, exact: true }).click();
  await expect(page).toHaveURL(`${ACME}${BASE}/twofa`);
  await waitForHydration(page);
}

async function expectStep(page: Page, x: TwofaText, step: 1 | 2 | 3): Promise<void> {
  await expect(page.getByTestId('twofa-step-heading')).toHaveText(x.steps[step - 1]!);
  const steps = page.getByRole('list', { name: x.stepsLabel }).getByRole('listitem');
  await expect(steps).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    if (i === step - 1) await expect(steps.nth(i)).toHaveAttribute('aria-current', 'step');
    else await expect(steps.nth(i)).not.toHaveAttribute('aria-current');
  }
}

/** Step 2: five codes shown as "12345 67890"; Continue waits for download, print or copy. */
async function backupCodesShown(page: Page, x: TwofaText): Promise<string[]> {
  await expectStep(page, x, 2);
  const items = page.getByTestId('backup-codes').getByRole('listitem');
  await expect(items).toHaveCount(5);
  const codes = await items.allTextContents();
  for (const c of codes) expect(c).toMatch(/^\d{5} \d{5}$/);
  await expect(page.getByRole('button', { name: x.continue, exact: true })).toBeDisabled();
  return codes;
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const verifyEmail = `twofa-verify+${lang}@acme.test`;
    const appEmail = `twofa-app+${lang}@acme.test`;
    const noticeEmail = `twofa-notice+${lang}@acme.test`;
    const offEmail = `twofa-off+${lang}@acme.test`;
    const smsEmail = `twofa-sms+${lang}@acme.test`;
    const smsLoginEmail = `twofa-sms-login+${lang}@acme.test`;
    // Numbers of each journey's own: the portal limits SMS per number.
    const national = lang === 'ja' ? '090-1234-5601' : '090-1234-5602';
    const e164 = lang === 'ja' ? '+819012345601' : '+819012345602';
    const loginE164 = lang === 'ja' ? '+819012345611' : '+819012345612';

    test.beforeAll(async () => {
      await ensureTwofaUsers(
        [verifyEmail, appEmail, noticeEmail, offEmail, smsEmail, smsLoginEmail].map((email) => ({ from: 'user@acme.test', email, language: lang })),
      );
    });

    test('the 2FA entry of my account asks for the password again: a wrong one is refused', async ({ page, consoleGuard, checkA11y }) => {
      const t = TEXT[lang];
      const x = TWOFA[lang];
      await signInOnTenantHost(page, t, 'acme', verifyEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await gotoHydrated(page, `${ACME}${BASE}/my-account`);
      await expect(twofaEntry(page, x)).toContainText(x.off);
      await expect(twofaEntry(page, x).getByRole('link')).toHaveAttribute('href', `${BASE}/verify-password?redirect=twofa`);
      // The setup screen itself, without a recent check, sends the browser to the check first.
      await gotoHydrated(page, `${ACME}${BASE}/twofa`);
      await expect(page).toHaveURL(`${ACME}${BASE}/verify-password?redirect=twofa`);
      await expect(page).toHaveTitle(x.verifyTitle);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.verifyHeading);
      const password = page.getByLabel(x.password, { exact: true });
      await expect(password).toBeFocused();
      await checkA11y(page, 'verify password');
      consoleGuard.allowResourceError({ path: api('password/verify'), status: 422 });
      await password.fill('not-my-password');
      const refused = apiCall(page, 'password/verify');
      await page.getByRole('button', { name: x.confirm, exact: true }).click();
      expect((await refused).status()).toBe(422);
      await expect(page.getByRole('alert')).toHaveText(x.wrongPassword);
      await checkA11y(page, 'verify password, wrong password');
      await password.fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: x.confirm, exact: true }).click();
      await expect(page).toHaveURL(`${ACME}${BASE}/twofa`);
      await waitForHydration(page);
      await expect(page).toHaveTitle(x.twofaTitle);
      await expectStep(page, x, 1);
      await expect(page.getByRole('radio', { name: x.app, exact: true })).toBeChecked();
      await checkA11y(page, '2FA setup, step 1');
    });

    test('sets up an authenticator app in three steps and sees the result on my account', async ({ page, consoleGuard, checkA11y }) => {
      const t = TEXT[lang];
      const x = TWOFA[lang];
      await signInOnTenantHost(page, t, 'acme', appEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await gotoHydrated(page, `${ACME}${BASE}/my-account`);
      await openTwofaFromMyAccount(page, x);

      // Step 1: the method (the app by default).
      await expectStep(page, x, 1);
      await page.getByRole('button', { name: x.continue, exact: true }).click();

      // Step 2: the backup codes, downloaded as a text file.
      const codes = await backupCodesShown(page, x);
      await expect(page.getByTestId('twofa-step-heading')).toBeFocused();
      await checkA11y(page, '2FA setup, step 2');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: x.download, exact: true }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('backup-codes.txt');
      const text = readFileSync((await file.path())!, 'utf8');
      expect(text).toContain(x.fileHeading);
      expect(text).toContain(appEmail);
      for (const c of codes) expect(text).toContain(c);
      await expect(page.getByRole('status').filter({ hasText: x.downloaded })).toBeVisible();
      await page.getByRole('button', { name: x.continue, exact: true }).click();

      // Step 3: the QR code and the key to type instead; Enable at six digits.
      await expectStep(page, x, 3);
      await expect(page.getByRole('img', { name: x.qrAlt })).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
      const manual = (await page.getByTestId('twofa-manual-code').textContent()) ?? '';
      expect(manual).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/);
      const authenticator = new Authenticator(secretFromManualCode(manual));
      const code = page.getByLabel(x.code, { exact: true });
      const enable = page.getByRole('button', { name: x.enable, exact: true });
      await expect(enable).toBeDisabled();
      await checkA11y(page, '2FA setup, step 3 (app)');
      await code.fill('12345');
      await expect(enable).toBeDisabled();

      // A wrong code: 'incorrect code', and the user stays on the step.
      consoleGuard.allowResourceError({ path: api('twofa/app'), status: 422 });
      await code.fill(await authenticator.wrong());
      const wrong = apiCall(page, 'twofa/app');
      await enable.click();
      expect((await wrong).status()).toBe(422);
      await expect(page.getByRole('alert')).toHaveText(x.incorrect);

      // The right code: my-account says so (the toast: see the next test).
      await code.fill(await authenticator.next());
      await enable.click();
      await expect(page).toHaveURL(`${ACME}${BASE}/my-account`);
      await expect(page.getByTestId('account-notice')).toHaveText(new RegExp(`^${x.enabledNotice}`));
      await expect(twofaEntry(page, x)).toContainText(x.on);
    });

    test('the two-factor results on my account: success stays until dismissed, shown once; errors are alerts', async ({ page, checkA11y }) => {
      const x = TWOFA[lang];
      // Fake timers that run like real ones, so the toasts' timeouts can be skipped over.
      await page.clock.install();
      await signInOnTenantHost(page, TEXT[lang], 'acme', noticeEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await gotoHydrated(page, `${ACME}${BASE}/my-account?notice=twofa-enabled`);
      const toast = page.getByTestId('account-notice');
      await expect(toast).toHaveText(new RegExp(`^${x.enabledNotice}`));
      await expect(toast).toHaveAttribute('role', 'status');
      // Shown once: the address drops it (a reload shows no toast).
      await expect(page).toHaveURL(`${ACME}${BASE}/my-account`);
      await checkA11y(page, 'my account, 2FA enabled notice');
      await page.clock.fastForward(60_000);
      await expect(toast).toBeVisible();
      await toast.getByRole('button', { name: x.close }).click();
      await expect(toast).toBeHidden();

      await gotoHydrated(page, `${ACME}${BASE}/my-account?notice=twofa-error`);
      await expect(toast).toHaveAttribute('role', 'alert');
      await expect(toast).toHaveText(new RegExp(`^${TEXT_GENERIC[lang]}`));
      await page.clock.fastForward(11_000);
      await expect(toast).toHaveCount(0);
      // Only the portal's own notices: anything else shows nothing.
      await gotoHydrated(page, `${ACME}${BASE}/my-account?notice=%3Cb%3Ehello`);
      await expect(toast).toHaveCount(0);
    });

    test('with 2FA on, the screen shows its status and turns it off after a confirmation', async ({ page, checkA11y }) => {
      const t = TEXT[lang];
      const x = TWOFA[lang];
      await page.clock.install();
      await signInOnTenantHost(page, t, 'acme', offEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      // Turned on meanwhile (as a finished setup leaves it), so this session needs no code.
      await seedTwofa(offEmail, { method: 'app' });
      await openTwofaDirectly(page, x);

      const status = page.getByTestId('twofa-status');
      await expect(status.getByRole('heading', { level: 2 })).toHaveText(x.statusOn);
      await expect(status).toContainText(x.statusApp);
      await checkA11y(page, '2FA status');
      const turnOff = page.getByRole('button', { name: x.turnOff });
      await turnOff.click();
      const dialog = page.getByRole('dialog', { name: x.confirmTitle });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: x.cancel })).toBeFocused();
      await checkA11y(page, '2FA turn-off confirmation');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(turnOff).toBeFocused();
      await turnOff.click();
      const removed = apiCall(page, 'twofa', 'DELETE');
      await dialog.getByRole('button', { name: x.confirmTurnOff, exact: true }).click();
      expect((await removed).status()).toBe(200);
      await expect(page).toHaveURL(`${ACME}${BASE}/my-account`);
      await waitForHydration(page);
      await expect(page.getByTestId('account-notice')).toHaveText(new RegExp(`^${x.disabledNotice}`));
      await expect(twofaEntry(page, x)).toContainText(x.off);
      // An ordinary snackbar: gone after 3 seconds.
      await page.clock.fastForward(3_500);
      await expect(page.getByTestId('account-notice')).toHaveCount(0);
    });

    test('sets up SMS: a mobile number checked in the browser, the code sent to it, resend after a minute', async ({ page, context, checkA11y }) => {
      const t = TEXT[lang];
      const x = TWOFA[lang];
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ACME });
      await signInOnTenantHost(page, t, 'acme', smsEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await openTwofaDirectly(page, x);

      await page.getByRole('radio', { name: x.sms, exact: true }).check();
      await page.getByRole('button', { name: x.continue, exact: true }).click();
      // Step 2: copied to the clipboard this time.
      const codes = await backupCodesShown(page, x);
      await page.getByRole('button', { name: x.copy, exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: x.copied })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'));
      await page.getByRole('button', { name: x.continue, exact: true }).click();

      // Step 3: country code (default +81) and a number checked as a mobile number in the browser.
      await expectStep(page, x, 3);
      const country = page.getByLabel(x.countryCode);
      await expect(country).toHaveValue('JP');
      await expect(country.locator('option:checked')).toHaveText(x.japan);
      const mobile = page.getByLabel(x.mobile, { exact: true });
      const send = page.getByRole('button', { name: x.send, exact: true });
      let sends = 0;
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === api('twofa/sms/otp')) sends++;
      });
      await mobile.fill('03-1234-5678'); // a landline
      await send.click();
      await expect(page.getByText(x.invalidMobile, { exact: true })).toBeVisible();
      await expect(mobile).toHaveAttribute('aria-invalid', 'true');
      expect(sends).toBe(0);

      const sentAt = Date.now() - 1000;
      await mobile.fill(national);
      const sent = apiCall(page, 'twofa/sms/otp');
      await send.click();
      expect(JSON.parse((await sent).request().postData() ?? '{}')).toEqual({ contact: e164 });
      await expect(page.getByTestId('twofa-sms-notice')).toHaveText(x.sentTo(`+81 ${national.slice(1).replace(/-/g, ' ')}`));
      await expect(send).toBeDisabled();
      const resend = page.getByRole('button', { name: x.resend, exact: true });
      await expect(resend).toBeDisabled();
      await expect(page.getByTestId('resend-countdown')).toHaveText(x.resendJustStarted);
      await checkA11y(page, '2FA setup, step 3 (SMS), code sent');

      // The code from the SMS.
      await page.getByLabel(x.code, { exact: true }).fill(await waitForSmsCode(e164, sentAt));
      await page.getByRole('button', { name: x.enable, exact: true }).click();
      await expect(page).toHaveURL(`${ACME}${BASE}/my-account`);
      await expect(page.getByTestId('account-notice')).toHaveText(new RegExp(`^${x.enabledNotice}`));
      await expect(twofaEntry(page, x)).toContainText(x.on);
    });

    test('an SMS user gets the code at the password step and may ask for another one a minute later', async ({ page, checkA11y }) => {
      const t = TEXT[lang];
      const x = TWOFA[lang];
      await seedTwofa(smsLoginEmail, { method: 'sms', phone: loginE164 });
      const loginAt = Date.now() - 1000;
      expect((await signInOnTenantHost(page, t, 'acme', smsLoginEmail, DEMO_PASSWORD)).status()).toBe(200);
      await expect(page).toHaveURL(`${ACME}${BASE}/otp`);
      await waitForHydration(page);
      await expect(page.getByLabel(x.otpCode)).toBeFocused();
      await expect(page.getByText(x.otpSmsHint)).toBeVisible();
      const resendSms = page.getByRole('button', { name: x.resendSms });
      await expect(resendSms).toBeDisabled();
      await expect(page.getByTestId('resend-countdown')).toHaveText(x.resendJustStarted);
      await checkA11y(page, 'enter code (SMS)');
      await waitForSmsCode(loginE164, loginAt);

      // A minute later (moved in the database, not waited for) another code can be asked for.
      await ageLoginSms(smsLoginEmail);
      await gotoHydrated(page, `${ACME}${BASE}/otp`);
      await expect(resendSms).toBeEnabled();
      const resent = apiCall(page, 'otp/resend');
      await resendSms.click();
      expect((await resent).status()).toBe(200);
      await expect(page.getByRole('status')).toHaveText(x.resent);
      await expect(resendSms).toBeDisabled();
      await expect(page.getByTestId('resend-countdown')).toHaveText(x.resendJustStarted);
      await expect.poll(() => smsCount(loginE164, loginAt)).toBe(2);
      await page.getByLabel(x.otpCode).fill(await waitForSmsCode(loginE164, loginAt));
      await page.getByRole('button', { name: x.verify, exact: true }).click();
      await expect(page).toHaveURL(`${ACME}/meishi/`);
    });
  });
}
