// With JavaScript off (issue 13, decision 0029): login (email, Next, password, signed in), forgot
// password, the reset link from the real SMTP receiver, and registration from the invitation mail
// all work as plain forms that post to their page. axe checks every screen, in both languages.
import { BASE, DEMO_PASSWORD, expect, LANGUAGES, origin, test } from './fixtures';
import { linkIn, waitForMail } from './support/mail';
import { NEW_PASSWORD, passwordAccount, WEAK_PASSWORD } from './support/password-accounts';
import { PW_TEXT } from './support/password-text';
import { TEXT } from './support/text';

test.use({ javaScriptEnabled: false });

const NAMES = {
  user: { ja: '山田 太郎', en: '山田 太郎' },
  reset: { ja: '静か 五郎', en: 'Plain Resetter' },
  invitee: { ja: '素朴 六子', en: 'Plain Joiner' },
};

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('login: the email, Next, the password step rendered by the server, a wrong password, then signed in', async ({ page, account, consoleGuard, checkA11y }) => {
      const t = TEXT[lang];
      // The refused password comes back as the login page with status 401 (the browser logs it).
      consoleGuard.allowResourceError({ path: `${BASE}/login`, status: 401 });
      const email = account('user@acme.test');
      await page.goto(`${origin('acme')}${BASE}/login?continue=${encodeURIComponent(`${BASE}/my-account`)}`);
      await expect(page).toHaveTitle(t.loginTitle);
      await expect(page.getByLabel(t.password, { exact: true })).toHaveCount(0);
      await checkA11y(page, 'login, email step, no JavaScript');

      await page.getByLabel(t.email).fill(email);
      await page.getByRole('button', { name: t.next, exact: true }).click();
      // The server answered the password step: the email locked, the password asked for.
      await expect(page.getByLabel(t.password, { exact: true })).toBeVisible();
      await expect(page.getByLabel(t.email)).toHaveValue(email);
      await expect(page.getByLabel(t.email)).toHaveAttribute('readonly', '');
      await checkA11y(page, 'login, password step, no JavaScript');

      await page.getByLabel(t.password, { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: t.logIn, exact: true }).click();
      await expect(page.getByTestId('login-error')).toHaveText(t.invalidCredentials);
      await expect(page.getByLabel(t.email)).toHaveValue(email);
      await checkA11y(page, 'login, wrong password, no JavaScript');

      await page.getByLabel(t.password, { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: t.logIn, exact: true }).click();
      // Signed in: where the continue path leads, a server-rendered page.
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/my-account`);
      await expect(page.getByTestId('signed-in-as')).toHaveText(t.signedInAs(NAMES.user[lang], email));
      // Nothing ran in the browser: no island ever hydrated.
      await expect(page.locator('[data-island]').first()).toBeAttached();
      await expect(page.locator('[data-hydrated]')).toHaveCount(0);
      await checkA11y(page, 'my account after a login without JavaScript');
    });

    test('forgot password, then the mailed reset link: a new password, signed in', async ({ page, consoleGuard, checkA11y }) => {
      test.slow();
      // Refused fields come back as the page with status 422 (the browser logs it).
      consoleGuard.allowResourceError({ path: `${BASE}/forgot`, status: 422 });
      consoleGuard.allowResourceError({ path: `${BASE}/reset`, status: 422 });
      const t = TEXT[lang];
      const pw = PW_TEXT[lang];
      const email = passwordAccount('reset-nojs', lang);

      await page.goto(`${origin('acme')}${BASE}/forgot`);
      await expect(page).toHaveTitle(pw.forgotTitle);
      const field = page.getByLabel(pw.forgotEmail);
      const submit = page.getByRole('button', { name: pw.getLink });
      // Without JavaScript nothing is checked before the post: the server answers the problem.
      await expect(submit).toBeEnabled();
      await field.fill('not-an-address');
      await submit.click();
      await expect(page.getByText(lang === 'ja' ? '有効なメールアドレスを入力してください' : 'E-mail must be valid')).toBeVisible();
      await expect(field).toHaveValue('not-an-address');
      await checkA11y(page, 'forgot, invalid address, no JavaScript');

      const since = Date.now();
      await field.fill(email);
      await submit.click();
      await expect(page.getByRole('status')).toHaveText(pw.emailSent);
      await expect(submit).toBeDisabled();
      await checkA11y(page, 'forgot, link sent, no JavaScript');

      const link = linkIn(await waitForMail(email, since));
      expect(link.pathname).toBe(`${BASE}/reset`);
      await page.goto(link.href);
      await expect(page).toHaveTitle(pw.resetTitle);
      await expect(page.getByRole('textbox', { name: pw.forgotEmail })).toHaveValue(email);
      await expect(page.getByTestId('password-requirements').getByRole('listitem')).toHaveCount(5);
      await checkA11y(page, 'reset form, no JavaScript');

      // The policy is met but the password is easy to guess: the server says so.
      await page.getByLabel(pw.resetPassword, { exact: true }).fill(WEAK_PASSWORD);
      await page.getByLabel(pw.resetConfirmation, { exact: true }).fill(WEAK_PASSWORD);
      await page.getByRole('button', { name: pw.resetSubmit }).click();
      await expect(page.getByTestId('reset-error')).toBeVisible();
      await checkA11y(page, 'reset refused, no JavaScript');

      await page.getByLabel(pw.resetPassword, { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel(pw.resetConfirmation, { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: pw.resetSubmit }).click();
      // One app: signed in and straight to it.
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await checkA11y(page, 'app stand-in after the reset, no JavaScript');
      await page.goto(`${origin('acme')}${BASE}/my-account`);
      await expect(page.getByTestId('signed-in-as')).toHaveText(t.signedInAs(NAMES.reset[lang], email));

      // The link worked once.
      await page.goto(link.href);
      await expect(page.getByRole('alert')).toHaveText(pw.resetInvalid);
      await checkA11y(page, 'reset link used, no JavaScript');
    });

    test('registration from the invitation mail: a refused password, then joined and signed in', async ({ page, consoleGuard, checkA11y }) => {
      test.slow();
      const t = TEXT[lang];
      const pw = PW_TEXT[lang];
      const email = passwordAccount('invitee-nojs', lang);
      const mail = await waitForMail(email);
      expect(mail.subject).toBe(pw.invitationSubject);
      const link = linkIn(mail);
      consoleGuard.allowResourceError({ path: link.pathname, status: 422 });

      await page.goto(link.href);
      await expect(page).toHaveTitle(pw.registerTitle);
      await expect(page.getByRole('button', { name: pw.join })).toBeEnabled();
      await checkA11y(page, 'register form, no JavaScript');

      await page.getByLabel(pw.registerPassword, { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel(pw.registerConfirmation, { exact: true }).fill(`${NEW_PASSWORD}x`);
      await page.getByRole('button', { name: pw.join }).click();
      await expect(page.getByText(pw.mismatch)).toBeVisible();
      await checkA11y(page, 'register refused, no JavaScript');

      await page.getByLabel(pw.registerPassword, { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel(pw.registerConfirmation, { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: pw.join }).click();
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await page.goto(`${origin('acme')}${BASE}/my-account`);
      await expect(page.getByTestId('signed-in-as')).toHaveText(t.signedInAs(NAMES.invitee[lang], email));
      await checkA11y(page, 'my account after registering, no JavaScript');
    });
  });
}
