// Nothing typed before the page's script arrives is lost (issue 27 part 1, decision 0044): every
// script of the page is held back (a slow mobile connection, made deterministic: the scripts wait
// until the test has typed), the person types into the server's form, then the islands hydrate,
// and the text, the caret and the focus are still there and the form submits what was typed.
// Login, forgot, reset, the one-time-code entry, an admin filter and the add-user dialog (opened by
// the server-rendered link, decision 0047), in both languages, axe clean.
import type { Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { signInToPage } from './support/admin-text';
import { ensureDedicatedUsers } from './support/dedicated-users';
import { linkIn, waitForMail } from './support/mail';
import { NEW_PASSWORD } from './support/password-accounts';
import { PW_TEXT } from './support/password-text';
import { ensurePeopleTenant, personEmail, PEOPLE_TEXT } from './support/people';
import { TEXT } from './support/text';
import { seedTwofa } from './support/twofa';
import { TWOFA } from './support/twofa-text';

const ACME = origin('acme');

/** Holds every script of the page until `release()`; each navigation holds them again. */
async function slowScripts(page: Page) {
  let open: () => void = () => {};
  let gate = Promise.resolve();
  const hold = () => {
    gate = new Promise<void>((r) => (open = r));
  };
  hold();
  await page.route(/\/assets\/.*\.js(\?.*)?$/, async (route) => {
    await gate;
    await route.continue();
  });
  return {
    /** Lets the scripts through and waits for every island to hydrate. */
    async release() {
      open();
      await waitForHydration(page);
    },
    /** The next page's scripts wait again. */
    hold,
  };
}

/** Opens `url` without waiting for its scripts (a module script holds back DOMContentLoaded and load). */
async function openHeld(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'commit' });
  await notHydrated(page);
}

async function notHydrated(page: Page) {
  await page.locator('[data-island]').first().waitFor({ state: 'attached' });
  await page.locator('body > :last-child').waitFor({ state: 'attached' });
  expect(await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-island]')].some((el) => el.dataset.hydrated !== 'true'))).toBe(true);
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const resetEmail = `typed-early-reset+${lang}@acme.test`;
    const codeEmail = `typed-early-code+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureDedicatedUsers([resetEmail, codeEmail].map((email) => ({ from: 'user@acme.test', email, language: lang })));
    });

    test('login, forgot and reset keep what was typed before the scripts arrived, and submit it', async ({ page, checkA11y }) => {
      test.slow();
      const t = TEXT[lang];
      const pw = PW_TEXT[lang];
      const scripts = await slowScripts(page);

      // Login: the email typed into the server's form survives hydration, with the focus and caret.
      await openHeld(page, `${ACME}${BASE}/login`);
      const email = page.getByLabel(t.email);
      await email.click();
      await page.keyboard.type(resetEmail);
      await scripts.release();
      await expect(email).toHaveValue(resetEmail);
      await expect(email).toBeFocused();
      // The caret is where the person left it: typing goes on at the end.
      await page.keyboard.type('x');
      await expect(email).toHaveValue(`${resetEmail}x`);
      await page.keyboard.press('Backspace');
      await checkA11y(page, 'login, typed before hydration');
      await page.getByRole('button', { name: t.next, exact: true }).click();
      await expect(page.getByLabel(t.password, { exact: true })).toBeFocused();
      await expect(email).toHaveValue(resetEmail);

      // Forgot: typed early, sent after hydration.
      scripts.hold();
      await openHeld(page, `${ACME}${BASE}/forgot`);
      await page.getByLabel(pw.forgotEmail).fill(resetEmail);
      await scripts.release();
      await expect(page.getByLabel(pw.forgotEmail)).toHaveValue(resetEmail);
      const since = Date.now();
      const submit = page.getByRole('button', { name: pw.getLink });
      await expect(submit).toBeEnabled();
      await submit.click();
      await expect(page.getByRole('status')).toHaveText(pw.emailSent);

      // Reset: both password fields typed early; the checklist and the button follow them.
      const link = linkIn(await waitForMail(resetEmail, since));
      scripts.hold();
      await openHeld(page, link.href);
      await page.getByLabel(pw.resetPassword, { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel(pw.resetConfirmation, { exact: true }).fill(NEW_PASSWORD);
      await scripts.release();
      await expect(page.getByLabel(pw.resetPassword, { exact: true })).toHaveValue(NEW_PASSWORD);
      await expect(page.getByLabel(pw.resetConfirmation, { exact: true })).toHaveValue(NEW_PASSWORD);
      const setIt = page.getByRole('button', { name: pw.resetSubmit });
      await expect(setIt).toBeEnabled();
      await checkA11y(page, 'reset, typed before hydration');
      const reset = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/password/reset` && r.request().method() === 'POST');
      await setIt.click();
      expect((await reset).status()).toBe(200);
    });

    test('the one-time code typed before the script arrived signs the person in', async ({ page, checkA11y }) => {
      const t = TEXT[lang];
      const x = TWOFA[lang];
      const { authenticator } = await seedTwofa(codeEmail, { method: 'app' });
      const scripts = await slowScripts(page);
      await openHeld(page, `${ACME}${BASE}/login`);
      await scripts.release();
      await page.getByLabel(t.email).fill(codeEmail);
      await page.getByRole('button', { name: t.next, exact: true }).click();
      await page.getByLabel(t.password, { exact: true }).fill(DEMO_PASSWORD);
      scripts.hold();
      await page.getByRole('button', { name: t.logIn, exact: true }).click();
      await expect(page).toHaveURL(`${ACME}${BASE}/otp`);
      await notHydrated(page);
      const code = await authenticator.next();
      // One digit a box, as a person types them without the script that moves between boxes.
      const boxes = page.getByTestId('code-boxes').locator('input');
      for (let i = 0; i < code.length; i++) await boxes.nth(i).fill(code[i]!);
      await scripts.release();
      await expect(page.getByTestId('code-boxes')).toHaveAttribute('data-code', code);
      for (let i = 0; i < code.length; i++) await expect(boxes.nth(i)).toHaveValue(code[i]!);
      await checkA11y(page, 'code typed before hydration');
      await page.getByRole('button', { name: x.verify, exact: true }).click();
      await expect(page).not.toHaveURL(/\/otp/);
    });

    test("an admin's search typed before the script arrived stays and filters the list", async ({ page, checkA11y }) => {
      const label = `typed-early-${lang}`;
      const admin = `typed-early-admin+${lang}@acme.test`;
      await ensurePeopleTenant({ label, lang, admin, meishiSeats: 10 });
      await signInToPage(page, lang, label, admin, '/my-account');
      const scripts = await slowScripts(page);
      await openHeld(page, `${origin(label)}${BASE}/admin/users`);
      const search = page.getByRole('searchbox');
      await search.click();
      await page.keyboard.type('typed-early-admin');
      await scripts.release();
      await expect(search).toHaveValue('typed-early-admin');
      await expect(search).toBeFocused();
      await checkA11y(page, 'users search typed before hydration');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/search=typed-early-admin/);
      await expect(page.getByTestId('user-row')).toHaveCount(1);
    });

    test('the add-user dialog opened and typed into before the script arrived adds the user', async ({ page, checkA11y }) => {
      test.slow();
      const x = PEOPLE_TEXT[lang];
      const label = `typed-dialog-${lang}`;
      const admin = `typed-dialog-admin+${lang}@acme.test`;
      const newEmail = personEmail('early', label);
      const newName = lang === 'ja' ? '早打 花子' : 'Hana Early';
      await ensurePeopleTenant({ label, lang, admin, meishiSeats: 10 });
      await signInToPage(page, lang, label, admin, '/my-account');
      const scripts = await slowScripts(page);
      await openHeld(page, `${origin(label)}${BASE}/admin/users`);
      // Before the script the add control is a link the server answers with the dialog open.
      await page.getByRole('link', { name: x.add, exact: true }).click();
      await expect(page).toHaveURL(/[?&]dialog=add-user/);
      await notHydrated(page);
      const dialog = page.getByRole('dialog', { name: x.addDialog });
      await expect(dialog).toBeVisible();
      // Add says why it waits (decision 0047) and, with the fields empty, cannot send yet.
      await expect(dialog.getByRole('button', { name: x.addSubmit, exact: true })).toBeDisabled();
      await dialog.getByRole('textbox', { name: x.name, exact: true }).fill(newName);
      const email = dialog.getByRole('textbox', { name: x.email, exact: true });
      await email.click();
      await page.keyboard.type(newEmail);
      await scripts.release();
      await expect(dialog.getByRole('textbox', { name: x.name, exact: true })).toHaveValue(newName);
      await expect(email).toHaveValue(newEmail);
      await expect(email).toBeFocused();
      await checkA11y(page, 'add-user dialog typed before hydration');
      const added = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/admin/users` && r.request().method() === 'POST');
      await dialog.getByRole('button', { name: x.addSubmit, exact: true }).click();
      expect((await added).status()).toBeLessThan(300);
      await expect(dialog).toBeHidden();
      await expect(page).not.toHaveURL(/dialog=/);
      const row = page.locator(`[data-testid="user-row"][data-email="${newEmail}"]`);
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(newName);
    });

    test('the add-user dialog from the address closes back to the list with Escape and Cancel', async ({ page, checkA11y }) => {
      const x = PEOPLE_TEXT[lang];
      const label = `typed-dialog-${lang}`;
      const admin = `typed-dialog-admin+${lang}@acme.test`;
      await ensurePeopleTenant({ label, lang, admin, meishiSeats: 10 });
      await signInToPage(page, lang, label, admin, '/my-account');
      await page.goto(`${origin(label)}${BASE}/admin/users?search=typed&dialog=add-user`);
      await waitForHydration(page);
      const dialog = page.getByRole('dialog', { name: x.addDialog });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('textbox', { name: x.name, exact: true })).toBeFocused();
      // The empty form's Add is disabled and described by why.
      const submit = dialog.getByRole('button', { name: x.addSubmit, exact: true });
      await expect(submit).toBeDisabled();
      await expect(submit).toHaveAccessibleDescription(lang === 'ja' ? '名前を入力してください' : 'Enter a name');
      await checkA11y(page, 'add-user dialog from the address');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(/\/admin\/users\?search=typed$/);
      const add = page.getByRole('button', { name: x.add, exact: true });
      await expect(add).toBeFocused();
      // After hydration the same control opens the dialog in place (no navigation).
      await add.click();
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: x.cancel, exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(add).toBeFocused();
      await expect(page).toHaveURL(/\/admin\/users\?search=typed$/);
    });
  });
}
