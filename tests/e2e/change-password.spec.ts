// The change-password dialog (spec 01 "Change password dialog", sections 4, 5 and 8): from My
// Account with the live checklist, and forced after login for a password that is too easy to
// guess, where Maybe Later leads on to the redirection step. Also the Outlook add-in sign-in,
// which maps the add-in's token instead of the redirection step.
import { createHash } from 'node:crypto';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test } from './fixtures';
import { signInOnTenantHost } from './support/flows';
import { waitForMail } from './support/mail';
import { NEW_PASSWORD, passwordAccount, WEAK_PASSWORD } from './support/password-accounts';
import { checklist, PW_TEXT } from './support/password-text';
import { TEXT } from './support/text';

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('a user changes their password from My Account, guided by the checklist', async ({ page, consoleGuard, checkA11y }) => {
      // Sign-in, three argon2 checks and a mail round trip: more than the default 30 s on a busy
      // machine (about 10 s when idle).
      test.slow();
      const pw = PW_TEXT[lang];
      const email = passwordAccount('change', lang);
      await signInOnTenantHost(page, TEXT[lang], 'acme', email, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);

      const launcher = page.getByTestId('change-password-open');
      await expect(launcher).toHaveText(pw.myAccountChangePassword);
      // Escape closes the dialog, and the focus goes back to what opened it.
      await launcher.click();
      const dialog = page.getByRole('dialog', { name: pw.changePassword });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel(pw.current, { exact: true })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(launcher).toBeFocused();

      await page.keyboard.press('Enter');
      await expect(dialog).toBeVisible();
      const current = dialog.getByLabel(pw.current, { exact: true });
      const next = dialog.getByLabel(pw.newPassword, { exact: true });
      const repeat = dialog.getByLabel(pw.repeat, { exact: true });
      const save = dialog.getByRole('button', { name: pw.save });
      const list = dialog.getByTestId('password-requirements');
      await expect(current).toHaveValue('');
      await expect(save).toBeDisabled();
      await expect(dialog.getByRole('button', { name: pw.cancel })).toBeVisible();
      await checkA11y(page, 'change password dialog');

      // The checklist follows the typing; an easy password meets the policy but not the strength line.
      await current.fill('Not-My-Password-1');
      await next.fill('abc');
      await expect(list.getByRole('listitem')).toHaveText(checklist(pw, [false, false, false, false, false]));
      await next.fill(WEAK_PASSWORD);
      await expect(list.getByRole('listitem')).toHaveText(checklist(pw, [true, true, true, true, false]));
      await repeat.fill(WEAK_PASSWORD);
      await expect(save).toBeDisabled();
      await next.fill(NEW_PASSWORD);
      await expect(list.getByRole('listitem')).toHaveText(checklist(pw, [true, true, true, true, true]));
      await expect(dialog.getByText(pw.mismatch)).toBeVisible();
      await expect(save).toBeDisabled();
      await repeat.fill(NEW_PASSWORD);
      await expect(save).toBeEnabled();
      await checkA11y(page, 'change password dialog, filled in');

      // A wrong current password: the server's verdict shows on that field until it is edited.
      consoleGuard.allowResourceError({ path: `${BASE}/api/password`, status: 422 });
      await save.click();
      await expect(dialog.getByText(pw.currentWrong)).toBeVisible();
      await expect(current).toHaveAttribute('aria-invalid', 'true');
      await expect(current).toBeFocused();
      await checkA11y(page, 'change password, current password wrong');
      await current.fill(DEMO_PASSWORD);
      await expect(dialog.getByText(pw.currentWrong)).toHaveCount(0);

      const since = Date.now();
      await save.click();
      await expect(dialog.getByRole('status')).toHaveText(pw.changed);
      await checkA11y(page, 'password changed');
      // The user is told by mail too.
      expect((await waitForMail(email, since)).subject).toBe(pw.changedSubject);
      await dialog.getByRole('button', { name: pw.close }).click();
      await expect(dialog).toBeHidden();
      await expect(launcher).toBeFocused();
    });

    test('a password that is easy to guess forces the dialog after login; Maybe Later goes on to the redirection step', async ({
      page,
      checkA11y,
    }) => {
      const t = TEXT[lang];
      const pw = PW_TEXT[lang];
      const response = await signInOnTenantHost(page, t, 'acme', passwordAccount('weak', lang), WEAK_PASSWORD);
      const body = await response.json();
      expect(body.password_compliance).toMatchObject({ meets_current_policy: true, score: 1 });

      const dialog = page.getByRole('dialog', { name: pw.changePassword });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAccessibleDescription(pw.forcedWeak);
      await expect(dialog.getByLabel(pw.current, { exact: true })).toBeFocused();
      await expect(dialog.getByRole('button', { name: pw.cancel })).toHaveCount(0);
      await checkA11y(page, 'forced change-password dialog');

      await dialog.getByRole('button', { name: pw.maybeLater }).click();
      await expect(dialog).toHaveCount(0);
      const chooser = page.getByRole('dialog', { name: t.chooseApp });
      await expect(chooser).toBeVisible();
      await expect(chooser.getByRole('heading', { name: t.chooseApp })).toBeFocused();
      await chooser.getByRole('link', { name: t.scheduler }).click();
      await expect(page).toHaveURL(`${origin('acme')}/scheduler/`);

      // Signed in, the login page is the redirection step itself: the server renders the chooser
      // as an open dialog (no blank first paint), which hydration turns into a modal one.
      // (Fetched by the page: Node's resolver does not know *.localhost, Chromium does.)
      const html = await page.evaluate((url) => fetch(url).then((r) => r.text()), `${BASE}/login`);
      expect(html).toMatch(/<dialog open=""[^>]*aria-labelledby="redirection-title"/);
      await gotoHydrated(page, `${origin('acme')}${BASE}/login`);
      await expect(chooser).toBeVisible();
      await expect(chooser.getByRole('heading', { name: t.chooseApp })).toBeFocused();
      expect(await chooser.evaluate((el) => el.matches(':modal'))).toBe(true);
      await checkA11y(page, 'login, signed in: app chooser');
    });

    test('signing in for the Outlook add-in asks to confirm, then maps its token and says to return to Outlook', async ({ page, account, checkA11y }) => {
      const t = TEXT[lang];
      const email = account('user@acme.test');
      // The add-in's token: base64url(SHA-256(its verifier)), 43 characters.
      const token = createHash('sha256').update(`e2e-verifier-${lang}-${Date.now()}`).digest('base64url');
      await gotoHydrated(page, `${origin('acme')}${BASE}/login?source=outlook&token=${token}`);
      await page.getByLabel(t.email).fill(email);
      await page.getByRole('button', { name: t.next, exact: true }).click();
      const mapped = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/outlook-sso/map-user`);
      await page.getByLabel(t.password, { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: t.logIn, exact: true }).click();
      // Nothing is mapped before the person says so: a planted link cannot bind them silently.
      const confirm = page.getByTestId('outlook-confirm');
      await expect(confirm).toContainText(email);
      await checkA11y(page, 'Outlook add-in sign-in: confirmation');
      await confirm.getByRole('button', { name: PW_TEXT[lang].outlookContinue, exact: true }).click();
      expect((await mapped).status()).toBe(200);
      // Not on to the app: the window belongs to the add-in.
      await expect(page.getByTestId('outlook-done')).toHaveText(PW_TEXT[lang].outlookDone);
      await expect(page).toHaveURL(new RegExp(`${BASE}/login\\?source=outlook`));
      await checkA11y(page, 'Outlook add-in sign-in done');
    });
  });
}
