// Invitation mail -> registration, and the email verification link, both through the real SMTP
// receiver (spec 01 "Registration and verification pages", sections 4, 5, 8 "Register" and
// "Email verification"). The mail is sent by the global setup (support/seed-password-accounts.ts).
import { BASE, expect, gotoHydrated, LANGUAGES, origin, test } from './fixtures';
import { linkIn, waitForMail } from './support/mail';
import { NEW_PASSWORD, passwordAccount } from './support/password-accounts';
import { checklist, PW_TEXT } from './support/password-text';
import { TEXT } from './support/text';

/** The link with one hex digit of its signature changed. */
function tampered(link: URL): string {
  const u = new URL(link.href);
  const sig = u.searchParams.get('signature')!;
  u.searchParams.set('signature', `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`);
  return u.href;
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('an invited user opens the invitation link, sets a password with the checklist, joins and is signed in', async ({
      page,
      context,
      consoleGuard,
      checkA11y,
    }) => {
      // Five screens, three of them checked with axe: more than 30 s on a busy machine (about 8 s idle).
      test.slow();
      const t = TEXT[lang];
      const pw = PW_TEXT[lang];
      const email = passwordAccount('invitee', lang);

      // Not registered yet: a reset link is not what this user needs (spec 01 "Forgot" outcomes).
      await gotoHydrated(page, `${origin('acme')}${BASE}/forgot`);
      await page.getByLabel(pw.forgotEmail).fill(email);
      await page.getByRole('button', { name: pw.getLink }).click();
      await expect(page.getByRole('alert')).toHaveText(pw.notRegistered);
      await checkA11y(page, 'forgot, not registered');

      const mail = await waitForMail(email);
      expect(mail.subject).toBe(pw.invitationSubject);
      const link = linkIn(mail);
      expect(link.origin).toBe(origin('acme'));
      expect(decodeURIComponent(link.pathname)).toBe(`${BASE}/register/${email}`);

      // An expired link says so before anything is posted.
      const expired = new URL(link.href);
      expired.searchParams.set('expires', '1000');
      consoleGuard.allowResourceError({ path: link.pathname, status: 410 });
      await gotoHydrated(page, expired.href);
      await expect(page.getByRole('alert')).toHaveText(pw.registerExpired);
      await expect(page.getByRole('button', { name: pw.join })).toHaveCount(0);

      // A link altered on the way: the page checks it when it loads and says so at once, with no
      // password to type (decision 0033).
      const id = link.searchParams.get('id');
      consoleGuard.allowResourceError({ path: link.pathname, status: 403 });
      await gotoHydrated(page, tampered(link));
      await expect(page.getByRole('alert')).toHaveText(pw.invalidSignature);
      await expect(page.getByRole('button', { name: pw.join })).toHaveCount(0);
      await checkA11y(page, 'register, invalid signature');

      await gotoHydrated(page, link.href);
      await expect(page).toHaveTitle(pw.registerTitle);
      const join = page.getByRole('button', { name: pw.join });
      await expect(join).toBeDisabled();
      const password = page.getByLabel(pw.registerPassword, { exact: true });
      await expect(password).toBeFocused();
      await password.fill('Short');
      const list = page.getByTestId('password-requirements');
      await expect(list.getByRole('listitem')).toHaveText(checklist(pw, [false, true, false, false, false]));
      await checkA11y(page, 'register form');
      await fillPasswords(page, pw);
      await expect(list.getByRole('listitem')).toHaveText(checklist(pw, [true, true, true, true, true]));
      await expect(join).toBeEnabled();
      await join.click();

      // Acme gives this member one app: signed in, straight to it.
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toHaveText(t.standInSignedIn(lang === 'ja' ? '新人 花子' : 'New Hire', email));

      // The invitation worked once: opened again, the page says so at once.
      consoleGuard.allowResourceError({ path: link.pathname, status: 409 });
      await context.clearCookies();
      await gotoHydrated(page, link.href);
      await expect(page.getByRole('alert')).toHaveText(pw.alreadyRegistered);
      await expect(page.getByRole('button', { name: pw.join })).toHaveCount(0);
      expect(id).not.toBeNull();
      await checkA11y(page, 'register, already registered');
    });

    test('an invitation link whose query a mail client HTML-escaped ("&amp;id=…&amp;signature=…") still registers', async ({ page }) => {
      const t = TEXT[lang];
      const pw = PW_TEXT[lang];
      const email = passwordAccount('invitee-escaped', lang);
      const link = linkIn(await waitForMail(email));
      // What a browser opens when the mail's HTML kept "&amp;" in the address: it sends the
      // parameters expires, amp;id and amp;signature.
      const escaped = `${link.origin}${link.pathname}${link.search.replaceAll('&', '&amp;')}`;
      await gotoHydrated(page, escaped);
      expect(page.url()).toContain('&amp;signature=');
      await expect(page).toHaveTitle(pw.registerTitle);
      await expect(page.getByRole('alert')).toHaveCount(0);
      await fillPasswords(page, pw);
      await page.getByRole('button', { name: pw.join }).click();
      await expect(page).toHaveURL(`${origin('acme')}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toHaveText(t.standInSignedIn(lang === 'ja' ? '転記 七海' : 'Escaped Joiner', email));
    });

    test('the verification link confirms the address once; an altered one says "Invalid signature."', async ({ page, consoleGuard, checkA11y }) => {
      const t = TEXT[lang];
      const pw = PW_TEXT[lang];
      const email = passwordAccount('verify', lang);

      const mail = await waitForMail(email);
      expect(mail.subject).toBe(pw.verificationSubject);
      const link = linkIn(mail);
      expect(link.origin).toBe(origin('acme'));
      const verifyCall = `${BASE}/api/users/verify/${link.searchParams.get('id')}`;

      consoleGuard.allowResourceError({ path: verifyCall, status: 403 });
      await gotoHydrated(page, tampered(link));
      await expect(page).toHaveTitle(pw.verifyTitle);
      await expect(page.getByRole('alert')).toHaveText(pw.invalidSignature);
      await checkA11y(page, 'verify, invalid signature');

      await gotoHydrated(page, link.href);
      await expect(page.getByRole('status')).toHaveText(pw.verified);
      await expect(page.getByRole('status')).toBeFocused();
      await expect(page.getByRole('link', { name: pw.continueToLogin })).toHaveAttribute('href', `${BASE}/login`);
      await checkA11y(page, 'verify, verified');

      // Already verified: on to login, which says so.
      consoleGuard.allowResourceError({ path: verifyCall, status: 409 });
      await page.goto(link.href);
      await expect(page).toHaveURL(`${origin('acme')}${BASE}/login?notice=already-verified`);
      await expect(page.getByTestId('login-notice')).toHaveText(pw.alreadyVerifiedNotice);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.tenantHeading('Acme Corporation'));
    });
  });
}

async function fillPasswords(page: import('@playwright/test').Page, pw: (typeof PW_TEXT)['ja']) {
  await page.getByLabel(pw.registerPassword, { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel(pw.registerConfirmation, { exact: true }).fill(NEW_PASSWORD);
}
