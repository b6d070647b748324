// Two-factor setup forced at login (spec 01 "Two-factor setup at login", sections 4 and 8): a
// tenant that enforces 2FA sends a member without it to the setup screen: the backup-codes tab
// (Continue once the user confirms they saved them), then the QR tab (Enable at six digits), then
// the sign-in goes on like any other. The second tab also offers SMS, as the account's setup does
// (decision 0046): the code is read from the dev outbox. "Skip for now" only where the tenant
// allows it.
//
// Enforcement is per tenant: the journeys use tenants of their own (support/twofa.ts), never Acme,
// whose members every other journey signs in as.
import type { Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { signInOnTenantHost } from './support/flows';
import { TEXT } from './support/text';
import { ageLoginSms, Authenticator, ensureEnforcingTenant, ensureTwofaUsers, secretFromManualCode, smsCount, waitForSmsCode } from './support/twofa';
import { TWOFA } from './support/twofa-text';

const ENFORCING = { label: 'twofa-enforced', name: 'Enforced 2FA Inc.', skipAllowed: false };
// Its password policy (20 characters) is stricter than the demo password (17).
const SKIPPABLE = { label: 'twofa-optional', name: 'Optional 2FA Inc.', skipAllowed: true, minimumPasswordLength: 20 };
const CHANGE_PASSWORD = {
  ja: { title: 'パスワードの変更', reason: '現在のパスワードは組織のパスワードポリシーを満たしていません。新しいパスワードに変更してください。', maybeLater: '後で変更する' },
  en: { title: 'Change Password', reason: "Your password does not meet your organization's current password policy. Please change it.", maybeLater: 'Maybe Later' },
};
const api = (path: string) => `${BASE}/api/${path}`;
const apiCall = (page: Page, path: string) => page.waitForResponse((r) => new URL(r.url()).pathname === api(path) && r.request().method() === 'POST');

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const enforced = `twofa-enforced+${lang}@acme.test`;
    const skipper = `twofa-skip+${lang}@acme.test`;
    const smsUser = `twofa-enforced-sms+${lang}@acme.test`;
    const national = lang === 'ja' ? '090-1234-5621' : '090-1234-5622';
    const e164 = lang === 'ja' ? '+819012345621' : '+819012345622';

    test.beforeAll(async () => {
      await ensureTwofaUsers([
        { from: 'user@acme.test', email: enforced, language: lang },
        { from: 'user@acme.test', email: skipper, language: lang },
        { from: 'user@acme.test', email: smsUser, language: lang },
      ]);
      await ensureEnforcingTenant(ENFORCING, [enforced, smsUser]);
      await ensureEnforcingTenant(SKIPPABLE, [skipper]);
    });

    test('a member of an enforcing tenant saves backup codes, scans the QR code and signs in', async ({ page, consoleGuard, checkA11y }) => {
      const x = TWOFA[lang];
      const host = origin(ENFORCING.label);
      expect((await signInOnTenantHost(page, TEXT[lang], ENFORCING.label, enforced, DEMO_PASSWORD)).status()).toBe(200);
      await expect(page).toHaveURL(`${host}${BASE}/setup-twofa-at-login`);
      await waitForHydration(page);
      await expect(page).toHaveTitle(x.setupTitle);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.setupHeading);

      // Tab 1: the codes; Continue (and the QR tab) wait for the confirmation. No skipping here.
      const backupTab = page.getByRole('tab', { name: x.tabBackup });
      const qrTab = page.getByRole('tab', { name: x.tabQr });
      await expect(backupTab).toHaveAttribute('aria-selected', 'true');
      await expect(qrTab).toHaveAttribute('aria-disabled', 'true');
      const codes = page.getByTestId('backup-codes').getByRole('listitem');
      await expect(codes).toHaveCount(5);
      for (const c of await codes.allTextContents()) expect(c).toMatch(/^\d{5} \d{5}$/);
      const next = page.getByRole('button', { name: x.continue, exact: true });
      await expect(next).toBeDisabled();
      await expect(page.getByRole('button', { name: x.skip })).toHaveCount(0);
      await checkA11y(page, 'setup at login, backup codes');

      // Printing prints the codes alone (the print style sheet keys on this mark).
      await page.evaluate(() => {
        (window as unknown as { printedWith: string | undefined }).printedWith = undefined;
        window.print = () => {
          (window as unknown as { printedWith: string | undefined }).printedWith = document.documentElement.dataset.printBackupCodes;
        };
      });
      await page.getByRole('button', { name: x.print, exact: true }).click();
      expect(await page.evaluate(() => (window as unknown as { printedWith?: string }).printedWith)).toBe('true');
      await expect(page.getByRole('status').filter({ hasText: x.printed })).toBeVisible();
      await page.getByLabel(x.confirmSaved).check();
      await expect(next).toBeEnabled();
      await next.click();

      // Tab 2: QR code and key; the tabs follow the arrow keys.
      await expect(qrTab).toHaveAttribute('aria-selected', 'true');
      await expect(qrTab).toBeFocused();
      await expect(page.getByRole('img', { name: x.qrAlt })).toBeVisible();
      await checkA11y(page, 'setup at login, QR code');
      await page.keyboard.press('ArrowLeft');
      await expect(backupTab).toBeFocused();
      await expect(backupTab).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('ArrowRight');
      await expect(qrTab).toHaveAttribute('aria-selected', 'true');

      const authenticator = new Authenticator(secretFromManualCode((await page.getByTestId('twofa-manual-code').textContent()) ?? ''));
      const code = page.getByLabel(x.code, { exact: true });
      const enable = page.getByRole('button', { name: x.enable, exact: true });
      await expect(enable).toBeDisabled();
      consoleGuard.allowResourceError({ path: api('setup-twofa-at-login/app'), status: 422 });
      await code.fill(await authenticator.wrong());
      const wrong = apiCall(page, 'setup-twofa-at-login/app');
      await enable.click();
      expect((await wrong).status()).toBe(422);
      await expect(page.getByRole('alert')).toHaveText(x.incorrect);

      await code.fill(await authenticator.next());
      const enabled = apiCall(page, 'setup-twofa-at-login/app');
      await enable.click();
      expect((await enabled).status()).toBe(200);
      // The organisation of this host, its one app: straight there.
      await expect(page).toHaveURL(`${host}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toContainText(enforced);
    });

    test('a member of an enforcing tenant saves backup codes, chooses SMS, enters the texted code and signs in', async ({ page, consoleGuard, checkA11y }) => {
      const x = TWOFA[lang];
      const host = origin(ENFORCING.label);
      await page.clock.install();
      expect((await signInOnTenantHost(page, TEXT[lang], ENFORCING.label, smsUser, DEMO_PASSWORD)).status()).toBe(200);
      await expect(page).toHaveURL(`${host}${BASE}/setup-twofa-at-login`);
      await waitForHydration(page);
      await expect(page.getByRole('tab', { name: x.tabBackup })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('backup-codes').getByRole('listitem')).toHaveCount(5);
      await page.getByLabel(x.confirmSaved).check();
      await page.getByRole('button', { name: x.continue, exact: true }).click();

      // Tab 2: the authenticator app is the default, as before; SMS is the other choice.
      const qrTab = page.getByRole('tab', { name: x.tabQr });
      await expect(qrTab).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('radio', { name: x.app, exact: true })).toBeChecked();
      await expect(page.getByRole('img', { name: x.qrAlt })).toBeVisible();
      const smsRadio = page.getByRole('radio', { name: x.sms, exact: true });
      await smsRadio.check();
      await expect(page.getByRole('img', { name: x.qrAlt })).toHaveCount(0);
      // The choice stays where the keyboard is: the arrow keys go on between the two methods.
      await expect(smsRadio).toBeFocused();
      await page.keyboard.press('ArrowUp');
      await expect(page.getByRole('radio', { name: x.app, exact: true })).toBeChecked();
      await expect(page.getByRole('img', { name: x.qrAlt })).toBeVisible();
      await page.keyboard.press('ArrowDown');
      await expect(smsRadio).toBeChecked();
      await expect(smsRadio).toBeFocused();
      // The code entry waits for a code to be sent.
      await expect(page.getByLabel(x.code, { exact: true })).toHaveCount(0);
      const country = page.getByLabel(x.countryCode);
      await expect(country).toHaveValue('JP');
      await expect(country.locator('option:checked')).toHaveText(x.japan);
      await checkA11y(page, 'setup at login, SMS chosen');

      const mobile = page.getByLabel(x.mobile, { exact: true });
      const send = page.getByRole('button', { name: x.send, exact: true });
      await mobile.fill('03-1234-5678'); // a landline
      await send.click();
      await expect(page.getByText(x.invalidMobile, { exact: true })).toBeVisible();
      await expect(mobile).toHaveAttribute('aria-invalid', 'true');

      const sentAt = Date.now() - 1000;
      await mobile.fill(national);
      const sent = apiCall(page, 'setup-twofa-at-login/sms/otp');
      await send.click();
      const sendAnswer = await sent;
      expect(sendAnswer.status()).toBe(200);
      expect(JSON.parse(sendAnswer.request().postData() ?? '{}')).toEqual({ contact: e164 });
      await expect(page.getByTestId('twofa-sms-notice')).toHaveText(x.sentTo(`+81 ${national.slice(1).replace(/-/g, ' ')}`));
      await expect(send).toBeDisabled();
      const resend = page.getByRole('button', { name: x.resend, exact: true });
      await expect(resend).toBeDisabled();
      await expect(page.getByTestId('resend-countdown')).toHaveText(x.resendJustStarted);
      const code = page.getByLabel(x.code, { exact: true });
      const enable = page.getByRole('button', { name: x.enable, exact: true });
      await expect(enable).toBeDisabled();
      await checkA11y(page, 'setup at login, SMS code sent');

      // A minute later (the server's minute moved in the database, the page's fast-forwarded): resend.
      await ageLoginSms(smsUser, 'enable_twofa');
      // The countdown ticks a second at a time, each tick set after the last render.
      await expect
        .poll(async () => {
          await page.clock.fastForward(1000);
          return resend.isEnabled();
        }, { timeout: 30_000, intervals: [50] })
        .toBe(true);
      const resent = apiCall(page, 'setup-twofa-at-login/sms/otp/resend');
      await resend.click();
      expect((await resent).status()).toBe(200);
      await expect(resend).toBeDisabled();
      await expect.poll(() => smsCount(e164, sentAt)).toBe(2);

      consoleGuard.allowResourceError({ path: api('setup-twofa-at-login/sms'), status: 422 });
      const right = await waitForSmsCode(e164, sentAt);
      await code.fill(right === '000000' ? '111111' : '000000');
      const wrong = apiCall(page, 'setup-twofa-at-login/sms');
      await enable.click();
      expect((await wrong).status()).toBe(422);
      await expect(page.getByRole('alert')).toHaveText(x.incorrect);

      await code.fill(right);
      const enabled = apiCall(page, 'setup-twofa-at-login/sms');
      await enable.click();
      expect((await enabled).status()).toBe(200);
      await expect(page).toHaveURL(`${host}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toContainText(smsUser);
    });

    test('where the tenant allows it, the setup can be skipped; a password below its policy is then to be changed', async ({ page, checkA11y }) => {
      const x = TWOFA[lang];
      const c = CHANGE_PASSWORD[lang];
      const host = origin(SKIPPABLE.label);
      await signInOnTenantHost(page, TEXT[lang], SKIPPABLE.label, skipper, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${host}${BASE}/setup-twofa-at-login`);
      await waitForHydration(page);
      const skip = page.getByRole('button', { name: x.skip });
      await expect(skip).toBeVisible();
      await checkA11y(page, 'setup at login, skip allowed');
      const skipped = apiCall(page, 'setup-twofa-at-login/skip');
      await skip.click();
      expect((await skipped).status()).toBe(200);
      // Signed in like after the password step: the forced change-password dialog comes first.
      const dialog = page.getByRole('dialog', { name: c.title });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(c.reason);
      await dialog.getByRole('button', { name: c.maybeLater }).click();
      await expect(page).toHaveURL(`${host}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toContainText(skipper);
    });
  });
}
