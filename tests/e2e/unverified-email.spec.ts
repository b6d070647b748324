// The unverified-email banner on my account (spec 01 "My account"): resend the verification mail
// (at most once a minute), dismiss for the browser session. A dedicated account whose address is
// not verified (support/dedicated-users.ts), so no other journey sees the banner.
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, type Lang } from './fixtures';
import { ensureDedicatedUsers } from './support/dedicated-users';
import { signInOnTenantHost } from './support/flows';
import { linkIn, waitForMail } from './support/mail';
import { TEXT } from './support/text';

const BANNER = {
  ja: {
    label: 'メールアドレスの確認',
    message: (email: string) => `メールアドレス ${email} はまだ確認されていません。確認メールのリンクを開いてください。`,
    resend: '確認メールを再送信',
    dismiss: '閉じる',
    sent: (email: string) => `確認メールを ${email} に送信しました。`,
    wait: /^確認メールは送信済みです。(\d+) 秒後にもう一度お試しください。$/,
    subject: '【Nexta Meishi】メールアドレスの確認',
  },
  en: {
    label: 'Email verification',
    message: (email: string) => `Your email address ${email} has not been verified yet. Please open the link in the verification email.`,
    resend: 'Resend verification email',
    dismiss: 'Dismiss',
    sent: (email: string) => `A verification email was sent to ${email}.`,
    wait: /^A verification email was already sent\. Please try again in (\d+) seconds\.$/,
    subject: '[Nexta Meishi] Confirm your email address',
  },
} satisfies Record<Lang, unknown>;

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const email = `unverified+${lang}@acme.test`;
    let userId = 0;

    test.beforeAll(async () => {
      userId = (await ensureDedicatedUsers([{ from: 'user@acme.test', email, language: lang, verified: false }]))[email]!;
    });

    test('an unverified address shows the banner: resend sends the mail once a minute, dismiss hides it for this tab', async ({
      page,
      context,
      consoleGuard,
      checkA11y,
    }) => {
      const t = TEXT[lang];
      const b = BANNER[lang];
      // The second resend within the minute is refused on purpose.
      consoleGuard.allowResourceError({ path: `${BASE}/api/verification-mail/${userId}`, status: 429 });

      await signInOnTenantHost(page, t, 'acme', email, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      const banner = page.getByRole('region', { name: b.label });
      await expect(banner).toBeVisible();
      await expect(banner.getByText(b.message(email))).toBeVisible();
      await checkA11y(page, 'my account with the unverified-email banner');

      const since = Date.now();
      const sent = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/verification-mail/${userId}`);
      await banner.getByRole('button', { name: b.resend }).click();
      expect((await sent).status()).toBe(200);
      await expect(banner.getByRole('status')).toHaveText(b.sent(email));
      // The mail arrives, in the user's language, with a verification link for this address.
      const mail = await waitForMail(email, since);
      expect(mail.subject).toBe(b.subject);
      const link = linkIn(mail);
      expect(link.origin).toBe(origin('acme'));
      expect(link.pathname).toBe(`${BASE}/verify/${encodeURIComponent(email)}`);
      await checkA11y(page, 'banner after resend');

      // A second request within the minute: the user is asked to wait, and the button waits too.
      const again = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/verification-mail/${userId}`);
      await banner.getByRole('button', { name: b.resend }).click();
      expect((await again).status()).toBe(429);
      await expect(banner.getByRole('alert')).toHaveText(b.wait);
      await expect(banner.getByRole('button', { name: b.resend })).toBeDisabled();
      await checkA11y(page, 'banner asking to wait');

      // Dismissed: gone, and still gone after a reload in this tab.
      await banner.getByRole('button', { name: b.dismiss }).click();
      await expect(banner).toHaveCount(0);
      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      await expect(page.getByRole('region', { name: b.label })).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.myAccount);

      // sessionStorage belongs to the tab: a new tab (a new browsing session) shows it again.
      const tab = await context.newPage();
      await gotoHydrated(tab, `${origin('acme')}${BASE}/my-account`);
      await expect(tab.getByRole('region', { name: b.label })).toBeVisible();
      await tab.close();
    });

    test('a verified address shows no banner', async ({ page, account }) => {
      const t = TEXT[lang];
      await signInOnTenantHost(page, t, 'acme', account('user@acme.test'), DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await gotoHydrated(page, `${origin('acme')}${BASE}/my-account`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.myAccount);
      await expect(page.getByRole('region', { name: BANNER[lang].label })).toHaveCount(0);
    });
  });
}
