// The island kit in the browser (src/islands/kit, decision 0033), in both languages with axe:
// the six code boxes with a keyboard and a clipboard (auto-advance, Backspace back, paste,
// full-width digits), the password toggle that reads Hide while shown, the authenticator key's
// copy button and otpauth:// link, backup codes regenerated with the password in a dialog that
// Escape closes and gives the focus back, stacked dialogs where Escape closes the top one only,
// and a subscriptions page during a trial. The rules behind the boxes and the stack are unit
// tested (tests/unit/island-kit.test.ts).
import type { Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { ensureSettingsTenant } from './support/admin-tenants';
import { signInToPage } from './support/admin-text';
import { enterEmailOnTenantHost, signInOnTenantHost, submitPassword } from './support/flows';
import { ensurePeopleTenant, PEOPLE_TEXT } from './support/people';
import { TEXT } from './support/text';
import { ensureTwofaUsers, seedTwofa } from './support/twofa';
import { TWOFA } from './support/twofa-text';

const ACME = origin('acme');
const DAY = 86_400_000;

const KIT = {
  ja: {
    digit: (n: number) => `6桁中${n}桁目`,
    show: 'パスワードを表示',
    hide: 'パスワードを非表示',
    copyKey: 'キーをコピー',
    copied: 'コピーしました',
    openInApp: 'このスマートフォンの認証アプリで開く',
    regenerate: 'バックアップコードを再発行',
    regenerateTitle: 'バックアップコードの再発行',
    regenerateSubmit: '再発行する',
    regenerated: /^新しいバックアップコードを発行しました/,
    daysLeft: 'トライアル終了まで残り 14 日',
    trialAvailable: 'トライアル中は利用可能',
  },
  en: {
    digit: (n: number) => `Digit ${n} of 6`,
    show: 'Show Password',
    hide: 'Hide Password',
    copyKey: 'Copy the key',
    copied: 'Copied',
    openInApp: 'Open in the authenticator app on this phone',
    regenerate: 'Regenerate backup codes',
    regenerateTitle: 'Regenerate backup codes',
    regenerateSubmit: 'Regenerate',
    regenerated: /^New backup codes were issued/,
    daysLeft: '14 days left in the trial',
    trialAvailable: 'Available during the trial',
  },
};

/** The code the six boxes hold, as the island keeps it. */
const boxes = (page: Page) => page.getByTestId('code-boxes');

/** Pastes `text` into the focused element the way a browser does (a paste event with its data). */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const k = KIT[lang];
    const x = TWOFA[lang];
    const boxesEmail = `kit-boxes+${lang}@acme.test`;
    const keyEmail = `kit-key+${lang}@acme.test`;
    const regenEmail = `kit-regen+${lang}@acme.test`;
    const people = { label: `kit-${lang}`, admin: `kit-admin+${lang}@acme.test` };
    const trial = { label: `kit-trial-${lang}`, admin: `kit-trial-admin+${lang}@acme.test` };
    const ended = { label: `kit-ended-${lang}`, admin: `kit-ended-admin+${lang}@acme.test` };

    test.beforeAll(async () => {
      await ensureTwofaUsers([boxesEmail, keyEmail, regenEmail].map((email) => ({ from: 'user@acme.test', email, language: lang })));
      await ensurePeopleTenant({ label: people.label, lang, admin: people.admin, meishiSeats: null });
      await ensureSettingsTenant(
        { label: trial.label, name: `Kit Trial ${lang}`, status: 'trial', contract: { trial_ends_at: Date.now() + 14 * DAY - 60_000, contract_starts_at: null, contract_ends_at: null, contract_renews_at: null } },
        [{ email: trial.admin, language: lang, admin: true }],
      );
      await ensureSettingsTenant(
        { label: ended.label, name: `Kit Ended ${lang}`, status: 'trial_expired_not_yet_contracted', contract: { trial_ends_at: Date.now() - 3 * DAY, contract_starts_at: null, contract_ends_at: null, contract_renews_at: null } },
        [{ email: ended.admin, language: lang, admin: true }],
      );
    });

    test('code boxes: typing moves on, Backspace goes back, a pasted or full-width code fills them', async ({ page, checkA11y }) => {
      const { authenticator } = await seedTwofa(boxesEmail, { method: 'app' });
      const t = TEXT[lang];
      await gotoHydrated(page, `${ACME}${BASE}/login`);
      await enterEmailOnTenantHost(page, t, boxesEmail);
      expect((await submitPassword(page, t, DEMO_PASSWORD)).status()).toBe(200);
      await expect(page).toHaveURL(`${ACME}${BASE}/otp`);
      await waitForHydration(page);

      const first = page.getByLabel(x.otpCode);
      await expect(first).toBeFocused();
      await page.keyboard.type('123');
      await expect(boxes(page)).toHaveAttribute('data-code', '123');
      await expect(page.getByLabel(k.digit(4))).toBeFocused();
      await checkA11y(page, 'code boxes, three digits typed');
      // Verify waits for the whole code and says so (decision 0047).
      const verify = page.getByRole('button', { name: x.verify, exact: true });
      await expect(verify).toBeDisabled();
      await expect(verify).toHaveAccessibleDescription(lang === 'ja' ? 'コードの数字をすべて入力すると送信できます。' : 'Enter every digit of the code to continue.');

      // Backspace in the empty fourth box clears the third and moves there; again, the second.
      await page.keyboard.press('Backspace');
      await expect(boxes(page)).toHaveAttribute('data-code', '12');
      await expect(page.getByLabel(k.digit(3))).toBeFocused();
      await page.keyboard.press('Backspace');
      await expect(boxes(page)).toHaveAttribute('data-code', '1');
      await expect(page.getByLabel(k.digit(2))).toBeFocused();
      // A click past the end lands on the first empty box (no gaps).
      await page.getByLabel(k.digit(6)).click();
      await expect(page.getByLabel(k.digit(2))).toBeFocused();
      // Letters are not digits.
      await page.keyboard.type('a');
      await expect(boxes(page)).toHaveAttribute('data-code', '1');

      // A pasted code, full-width and spaced as a person may copy it, fills every box.
      await first.focus();
      await paste(page, '９８７ ６５４');
      await expect(boxes(page)).toHaveAttribute('data-code', '987654');
      await expect(page.getByLabel(k.digit(6))).toBeFocused();
      for (const [i, d] of [...'987654'].entries()) await expect(i === 0 ? first : page.getByLabel(k.digit(i + 1))).toHaveValue(d);

      // The right code, pasted, signs in.
      await first.focus();
      await paste(page, await authenticator.next());
      await expect(verify).toHaveAccessibleDescription('');
      await verify.click();
      await expect(page).toHaveURL(new RegExp(`${ACME}(/meishi/|${BASE}/)`));
    });

    test('the password toggle reads Show, then Hide while the password is shown', async ({ page, checkA11y }) => {
      await signInOnTenantHost(page, TEXT[lang], 'acme', keyEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await gotoHydrated(page, `${ACME}${BASE}/verify-password?redirect=twofa`);
      const password = page.getByLabel(x.password, { exact: true });
      await password.fill(DEMO_PASSWORD);
      const toggle = page.getByRole('button', { name: k.show, exact: true });
      await expect(toggle).toHaveAttribute('aria-pressed', 'false');
      await expect(password).toHaveAttribute('type', 'password');
      await toggle.click();
      await expect(password).toHaveAttribute('type', 'text');
      const hide = page.getByRole('button', { name: k.hide, exact: true });
      await expect(hide).toHaveAttribute('aria-pressed', 'true');
      await checkA11y(page, 'password shown');
      await hide.click();
      await expect(page.getByRole('button', { name: k.show, exact: true })).toHaveAttribute('aria-pressed', 'false');
      await expect(password).toHaveAttribute('type', 'password');
    });

    test('the authenticator key has a copy button and an otpauth:// link for phones', async ({ page, context, checkA11y }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ACME });
      await signInOnTenantHost(page, TEXT[lang], 'acme', keyEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await gotoHydrated(page, `${ACME}${BASE}/verify-password?redirect=twofa`);
      await page.getByLabel(x.password, { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: x.confirm, exact: true }).click();
      await expect(page).toHaveURL(`${ACME}${BASE}/twofa`);
      await waitForHydration(page);
      await page.getByRole('button', { name: x.continue, exact: true }).click();
      await page.getByTestId('backup-codes').waitFor();
      await page.getByRole('button', { name: x.copy, exact: true }).click();
      await page.getByRole('button', { name: x.continue, exact: true }).click();

      const key = ((await page.getByTestId('twofa-manual-code').textContent()) ?? '').replace(/\s+/g, '');
      expect(key).toMatch(/^[A-Z2-7]{32}$/);
      await page.getByRole('button', { name: k.copyKey }).click();
      await expect(page.getByText(k.copied, { exact: true })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      const link = page.getByRole('link', { name: k.openInApp });
      const href = new URL((await link.getAttribute('href'))!);
      expect(href.protocol).toBe('otpauth:');
      expect(href.searchParams.get('secret')).toBe(key);
      await checkA11y(page, '2FA setup, key copied');
    });

    test('backup codes regenerated with the password; Escape closes the dialog and gives the focus back', async ({ page, checkA11y, consoleGuard }) => {
      const { authenticator } = await seedTwofa(regenEmail, { method: 'app' });
      const t = TEXT[lang];
      await gotoHydrated(page, `${ACME}${BASE}/login`);
      await enterEmailOnTenantHost(page, t, regenEmail);
      expect((await submitPassword(page, t, DEMO_PASSWORD)).status()).toBe(200);
      await waitForHydration(page);
      await page.getByLabel(x.otpCode).fill(await authenticator.next());
      await page.getByRole('button', { name: x.verify, exact: true }).click();
      await expect(page).not.toHaveURL(/\/otp/);
      await gotoHydrated(page, `${ACME}${BASE}/verify-password?redirect=twofa`);
      await page.getByLabel(x.password, { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: x.confirm, exact: true }).click();
      await expect(page).toHaveURL(`${ACME}${BASE}/twofa`);
      await waitForHydration(page);

      const open = page.getByRole('button', { name: k.regenerate, exact: true });
      await open.click();
      const dialog = page.getByRole('dialog', { name: k.regenerateTitle });
      await expect(dialog).toBeVisible();
      await checkA11y(page, 'regenerate dialog');
      // Escape closes it, and the focus returns to the button that opened it.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(open).toBeFocused();

      await open.click();
      consoleGuard.allowResourceError({ path: `${BASE}/api/twofa/backup-codes/regenerate`, status: 422 });
      await dialog.getByLabel(x.password, { exact: true }).fill('not-my-password');
      await dialog.getByRole('button', { name: k.regenerateSubmit, exact: true }).click();
      await expect(dialog.getByRole('alert')).toHaveText(x.wrongPassword);
      await dialog.getByLabel(x.password, { exact: true }).fill(DEMO_PASSWORD);
      await dialog.getByRole('button', { name: k.regenerateSubmit, exact: true }).click();
      await expect(dialog.getByRole('status').first()).toHaveText(k.regenerated);
      const codes = dialog.getByTestId('backup-codes').getByRole('listitem');
      await expect(codes).toHaveCount(5);
      await checkA11y(page, 'regenerated backup codes');
    });

    test('stacked dialogs: Escape closes the top one only', async ({ page, consoleGuard }) => {
      const p = PEOPLE_TEXT[lang];
      await signInToPage(page, lang, people.label, people.admin, '/admin/users');
      const opener = page.getByRole('button', { name: p.editByImport });
      await opener.click();
      const importDialog = page.getByRole('dialog', { name: p.importDialog });
      consoleGuard.allowResourceError({ path: `${BASE}/api/admin/users/import/update`, status: 422 });
      await importDialog.getByLabel(p.chooseFile).setInputFiles({ name: 'wrong.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,Mail,Department\r\nA,a@b.test,\r\n', 'utf8') });
      await importDialog.getByRole('button', { name: p.upload }).click();
      const mismatch = page.getByRole('dialog', { name: p.mismatchTitle });
      await expect(mismatch).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(mismatch).toBeHidden();
      await expect(importDialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(importDialog).toBeHidden();
      await expect(opener).toBeFocused();
    });

    test('subscriptions during a trial: the days left, and every feature available', async ({ page, checkA11y }) => {
      await signInToPage(page, lang, trial.label, trial.admin, '/admin/subscriptions');
      await expect(page.getByTestId('trial-days-left')).toHaveText(k.daysLeft);
      await expect(page.locator('tr[data-feature="kintone"]')).toContainText(k.trialAvailable);
      await checkA11y(page, 'subscriptions during a trial');
    });

    test('a toast that comes while a dialog is open shows inside it, readable and closable', async ({ page }) => {
      // An expired trial opens its dialog on every admin page; the page's notice comes as a toast.
      await signInToPage(page, lang, ended.label, ended.admin, '/admin/subscriptions');
      await gotoHydrated(page, `${origin(ended.label)}${BASE}/admin/subscriptions?notice=twofa-error`);
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      const toast = dialog.getByTestId('account-notice');
      await expect(toast).toBeVisible();
      await expect(toast).toHaveAttribute('role', 'alert');
      // Not inert behind the modal: its button takes the click.
      await toast.getByRole('button').click();
      await expect(toast).toHaveCount(0);
      await expect(dialog).toBeVisible();
    });
  });
}
