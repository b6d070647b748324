// The additional challenge (spec 01 "Additional challenge", sections 4 and 8; rule in
// docs/decisions/0005-additional-challenge.md): a password login from a new browser on a new
// network is asked for the code mailed to the user.
//
// A new network: the e2e server trusts X-Forwarded-For (TRUST_PROXY in playwright.config.ts), so a
// browser context sending "X-Forwarded-For: 198.51.100.23" comes from 198.51.100.0/24, a network
// the user never signed in from; every other context comes from 127.0.0.1. The code is read from
// the mail the portal sent (through the e2e SMTP receiver, support/mail.ts); minutes the journey does not wait (resend cooldown, code lifetime) are
// moved in the database.
import type { Browser, Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration, type Lang } from './fixtures';
import { ageAdditionalChallenge, codeIn, ensureDedicatedUsers } from './support/dedicated-users';
import { enterEmailOnTenantHost, signInOnTenantHost, submitPassword } from './support/flows';
import { mailsTo, waitForMail } from './support/mail';
import { TEXT } from './support/text';

const NEW_NETWORK = { 'X-Forwarded-For': '198.51.100.23' };

const CHALLENGE = {
  ja: {
    title: '追加認証 | Nexta Meishi',
    heading: '追加認証',
    sentTo: (email: string) => `新しいデバイスまたはネットワークからのログインを確認するため、${email} に確認コードを送信しました。`,
    code: '確認コード',
    submit: '確認',
    resend: 'コードを再送信',
    resent: '確認コードを再送信しました。',
    resendJustStarted: /^再送信まで (01:00|00:5\d)$/,
    resendInPattern: /^再送信まで 00:[0-5]\d$/,
    incorrect: 'コードが一致しません。',
    expired: 'コードの有効期限が切れています。コードを再送信してください。',
    lockedOut: /^誤ったコードの入力が多すぎます。(\d+) 秒後にもう一度お試しください。$/,
    digitsOnly: '半角数字6桁で入力してください',
    tooMany: '試行回数が多すぎます。',
    noPendingLogin: 'このブラウザーでコードを待っているログインはありません（期限切れ、完了済み、または別のブラウザーで開始されました）。もう一度ログインしてください。',
    generic: 'エラーが発生しました。ページを再読み込みしてもう一度お試しください。',
    subject: '【Nexta Meishi】ログイン確認コード',
  },
  en: {
    title: 'Additional verification | Nexta Meishi',
    heading: 'Additional verification',
    sentTo: (email: string) => `To confirm a login from a new device or network, we sent a verification code to ${email}.`,
    code: 'Verification code',
    submit: 'Verify',
    resend: 'Resend code',
    resent: 'The code was resent.',
    resendJustStarted: /^Resend available in (01:00|00:5\d)$/,
    resendInPattern: /^Resend available in 00:[0-5]\d$/,
    incorrect: 'The code does not match.',
    expired: 'The code has expired. Please resend the code.',
    lockedOut: /^Too many incorrect codes\. Please try again in (\d+) seconds\.$/,
    digitsOnly: 'Enter the six half-width digits',
    tooMany: 'Too Many Attempts.',
    noPendingLogin: 'There is no login waiting for a code in this browser (it expired, was finished, or was started in another browser). Please log in again.',
    generic: 'Something Went Wrong! Please Refresh and Try Again!',
    subject: '[Nexta Meishi] Your sign-in verification code',
  },
} satisfies Record<Lang, unknown>;

const verifyCall = (page: Page) => page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/additional-challenge/verify`);
const resendCall = (page: Page) => page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/additional-challenge/resend`);

/** A browser the user never used, on a network they never used, at the login page of Acme. */
async function newBrowserOnNewNetwork(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, timezoneId: 'Asia/Tokyo', extraHTTPHeaders: NEW_NETWORK });
  return context.newPage();
}

/** Signs in with email and password on Acme and lands on the challenge, which keeps the query. */
async function passwordStepIsChallenged(page: Page, lang: Lang, email: string, query: string): Promise<void> {
  const t = TEXT[lang];
  await gotoHydrated(page, `${origin('acme')}${BASE}/login${query}`);
  await enterEmailOnTenantHost(page, t, email);
  const response = await submitPassword(page, t, DEMO_PASSWORD);
  expect(response.status()).toBe(200);
  await expect(page).toHaveURL((url) => url.pathname === `${BASE}/additional-challenge`);
  const params = new URL(page.url()).searchParams;
  expect(params.get('email')).toBe(email);
  for (const [k, v] of new URLSearchParams(query)) expect(params.get(k)).toBe(v);
  await waitForHydration(page);
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const email = `challenge+${lang}@acme.test`;
    const lockEmail = `challenge-lock+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureDedicatedUsers([
        { from: 'user@acme.test', email, language: lang },
        { from: 'user@acme.test', email: lockEmail, language: lang },
      ]);
    });

    test('a new browser on a new network enters the mailed code: wrong, expired, resent, then signed in', async ({ page, browser, checkA11y }) => {
      // Several browsers signing in, one after the other: more than the default 30 s on a busy machine.
      test.slow();
      const t = TEXT[lang];
      const c = CHALLENGE[lang];
      // The usual browser: the first sign-in ever is trusted, and its device and network remembered.
      await signInOnTenantHost(page, t, 'acme', email, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      expect(await mailsTo(email)).toEqual([]);

      const fresh = await newBrowserOnNewNetwork(browser, locale);
      const loginAt = Date.now();
      await passwordStepIsChallenged(fresh, lang, email, '?continue=%2Faccounts%2Fmy-account');
      await expect(fresh).toHaveTitle(c.title);
      await expect(fresh.getByRole('heading', { level: 1 })).toHaveText(c.heading);
      await expect(fresh.getByText(c.sentTo(email))).toBeVisible();
      const mail = await waitForMail(email, loginAt);
      expect(mail.subject).toBe(c.subject);
      const firstCode = codeIn(mail.text);
      const code = fresh.getByLabel(c.code);
      const submit = fresh.getByRole('button', { name: c.submit, exact: true });
      await expect(code).toBeFocused();
      await expect(submit).toBeDisabled();
      await checkA11y(fresh, 'additional challenge');

      // Full-width digits typed with a Japanese IME become the code's half-width digits (decision 0033).
      await code.fill('１２３４５６');
      await expect(fresh.getByTestId('code-boxes')).toHaveAttribute('data-code', '123456');
      await expect(submit).toBeEnabled();
      await checkA11y(fresh, 'additional challenge, six digits typed');

      // A wrong code.
      await code.fill(firstCode === '000000' ? '111111' : '000000');
      let verified = verifyCall(fresh);
      await submit.click();
      expect((await verified).status()).toBe(422);
      await expect(fresh.getByRole('alert')).toHaveText(c.incorrect);
      await checkA11y(fresh, 'additional challenge, wrong code');

      // Resend is counted down from the code the password step just sent (decision 0033): the
      // server's minute, shown on arrival rather than learnt from a refused resend.
      await expect(fresh.getByTestId('resend-countdown')).toHaveText(c.resendInPattern);
      await expect(fresh.getByRole('button', { name: c.resend })).toBeDisabled();

      // Ten minutes later (moved in the database) the first code has expired.
      await ageAdditionalChallenge(email, 'expired');
      await code.fill(firstCode);
      verified = verifyCall(fresh);
      await submit.click();
      expect((await verified).status()).toBe(422);
      await expect(fresh.getByRole('alert')).toHaveText(c.expired);

      // Resend, once the minute has passed (the page, opened again, counts nothing down): a new
      // code, and a 60-second countdown shown as 00:SS.
      await ageAdditionalChallenge(email, 'resendable');
      await gotoHydrated(fresh, fresh.url());
      await expect(fresh.getByTestId('resend-countdown')).toHaveCount(0);
      const resentAt = Date.now();
      const resent = resendCall(fresh);
      await fresh.getByRole('button', { name: c.resend }).click();
      expect((await resent).status()).toBe(200);
      await expect(fresh.getByRole('status')).toHaveText(c.resent);
      const countdown = fresh.getByTestId('resend-countdown');
      await expect(countdown).toHaveText(c.resendJustStarted);
      await expect(fresh.getByRole('button', { name: c.resend })).toBeDisabled();
      // It ticks once a second.
      const shown = (await countdown.textContent()) ?? '';
      await expect(countdown).not.toHaveText(shown, { timeout: 3_000 });
      await expect(countdown).toHaveText(c.resendJustStarted);
      await checkA11y(fresh, 'additional challenge, code resent');
      const newMail = await waitForMail(email, resentAt);
      expect(newMail.subject).toBe(c.subject);
      const newCode = codeIn(newMail.text);

      // The new code signs in; the login's continue path is where the user arrives.
      await code.fill(newCode);
      verified = verifyCall(fresh);
      await submit.click();
      expect((await verified).status()).toBe(200);
      await expect(fresh).toHaveURL(`${origin('acme')}${BASE}/my-account`);
      await expect(fresh.getByTestId('signed-in-as')).toHaveText(t.signedInAs('山田 太郎', email));
      await fresh.context().close();
    });

    test('five wrong codes lock the form with a countdown; without a pending login the user goes back to login', async ({
      page,
      browser,
      checkA11y,
    }) => {
      // Three browsers and six code attempts: more than the default 30 s on a busy machine.
      test.slow();
      const t = TEXT[lang];
      const c = CHALLENGE[lang];
      await signInOnTenantHost(page, t, 'acme', lockEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);

      const fresh = await newBrowserOnNewNetwork(browser, locale);
      const loginAt = Date.now();
      await passwordStepIsChallenged(fresh, lang, lockEmail, '');
      const realCode = codeIn((await waitForMail(lockEmail, loginAt)).text);
      const wrong = realCode === '000000' ? '111111' : '000000';
      const code = fresh.getByLabel(c.code);
      const submit = fresh.getByRole('button', { name: c.submit, exact: true });
      for (let attempt = 1; attempt <= 5; attempt++) {
        await code.fill(wrong);
        const verified = verifyCall(fresh);
        await submit.click();
        expect((await verified).status(), `attempt ${attempt}`).toBe(422);
        await expect(fresh.getByRole('alert')).toHaveText(c.incorrect);
      }
      // Locked, even for the right code: submit disabled, the seconds counting down.
      await code.fill(realCode);
      const locked = verifyCall(fresh);
      await submit.click();
      expect((await locked).status()).toBe(429);
      const alert = fresh.getByTestId('challenge-locked');
      await expect(alert).toHaveText(c.lockedOut);
      await expect(submit).toBeDisabled();
      const seconds = async () => Number(c.lockedOut.exec(((await alert.textContent()) ?? '').trim())?.[1] ?? NaN);
      const first = await seconds();
      expect(first).toBeGreaterThan(1);
      await expect.poll(seconds, { timeout: 4_000, intervals: [250] }).toBeLessThan(first);
      await expect(submit).toBeDisabled();
      await checkA11y(fresh, 'additional challenge, locked out');
      await fresh.context().close();

      // A browser with no pending login (here: none ever started) was sent no code: it goes back to
      // login, query kept, and the login page says why (decision 0033).
      const stranger = await newBrowserOnNewNetwork(browser, locale);
      const query = `?email=${encodeURIComponent(lockEmail)}&continue=%2Faccounts%2Fmy-account`;
      await gotoHydrated(stranger, `${origin('acme')}${BASE}/additional-challenge${query}`);
      await expect(stranger).toHaveURL(`${origin('acme')}${BASE}/login${query}&notice=no-pending-login`);
      await expect(stranger.getByTestId('login-notice')).toHaveText(c.noPendingLogin);
      await expect(stranger.getByText(c.sentTo(lockEmail))).toHaveCount(0);
      await checkA11y(stranger, 'login after an additional challenge without a pending login');
      await stranger.context().close();
    });
  });
}
