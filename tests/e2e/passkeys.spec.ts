// Passkeys in the browser (issue 24, decision 0039), with Chromium's virtual authenticator (the
// DevTools protocol's WebAuthn domain: a platform authenticator with resident keys and user
// verification that answers the page's navigator.credentials calls by itself): add a passkey in
// my-account on acme, sign in with it there through the button, remove it; add one on the main
// domain and sign in there through the email field's autofill, then on to Globex through the
// organization chooser; a passkey instead of the authenticator code after the password; an admin
// removes a member's passkeys from the users list; an admin requires passkeys on the 2FA settings
// screen and adds one at the next sign-in; a tenant whose policy requires passkeys leads a member to
// add one at sign-in. axe on every new screen, in both languages. The e2e server's PORTAL_DOMAIN is
// `localhost`, which a browser refuses as the RP ID of acme.localhost: each host is its own relying
// party there (the integration tests cover one RP ID for every host with PORTAL_DOMAIN portal.test).
import type { CDPSession } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { accountFor } from './support/accounts';
import { signInOnTenantHost } from './support/flows';
import { addPasskey, ensurePasskeyTenant, ensurePasskeyUsers, PASSKEYS, virtualAuthenticator } from './support/passkeys';
import { TEXT } from './support/text';
import { ensureTwofaUsers, seedTwofa } from './support/twofa';

const ACME = origin('acme');
const MAIN = origin(null);

async function credentialCount(v: { cdp: CDPSession; authenticatorId: string }): Promise<number> {
  return (await v.cdp.send('WebAuthn.getCredentials', { authenticatorId: v.authenticatorId })).credentials.length;
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    // A copy of multi@example.test: a normal member of Acme and Globex's admin.
    const email = `passkey+${lang}@example.test`;
    const mainEmail = `passkey-main+${lang}@example.test`;
    const enrolEmail = `passkey-enrol+${lang}@acme.test`;
    const otpEmail = `passkey-otp+${lang}@acme.test`;
    const lostEmail = `passkey-lost+${lang}@acme.test`;
    const policyAdmin = `passkey-policy-admin+${lang}@acme.test`;
    const policyLabel = `passkeys-policy-${lang}`;
    const label = `passkeys-${lang}`;

    test.beforeAll(async () => {
      await ensurePasskeyUsers([
        { from: 'multi@example.test', email, language: lang },
        { from: 'multi@example.test', email: mainEmail, language: lang },
        { from: 'user@acme.test', email: enrolEmail, language: lang },
        { from: 'user@acme.test', email: lostEmail, language: lang },
        { from: 'admin@acme.test', email: policyAdmin, language: lang },
      ]);
      await ensurePasskeyTenant(policyLabel, lang === 'ja' ? 'パスキー方針株式会社' : 'Passkey Policy Inc.', [policyAdmin], 'allowed');
      await ensureTwofaUsers([{ from: 'user@acme.test', email: otpEmail, language: lang }]);
      await ensurePasskeyUsers([{ from: 'user@acme.test', email: otpEmail, language: lang }]);
      await ensurePasskeyTenant(label, lang === 'ja' ? 'パスキー必須株式会社' : 'Passkeys Required Inc.', [enrolEmail]);
    });

    test('adds a passkey in my account on acme, signs in with it through the button, removes it', async ({ page, context, checkA11y }) => {
      const t = TEXT[lang];
      const x = PASSKEYS[lang];
      const authenticator = await virtualAuthenticator(page);

      // My account on acme: the passkeys entry, then the screen (nothing yet).
      await signInOnTenantHost(page, t, 'acme', email, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await gotoHydrated(page, `${ACME}${BASE}/my-account`);
      await page.getByRole('link', { name: x.entry, exact: true }).click();
      await expect(page).toHaveURL(`${ACME}${BASE}/passkeys`);
      await waitForHydration(page);
      await expect(page).toHaveTitle(x.title);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.heading);
      await expect(page.getByTestId('passkeys-empty')).toHaveText(x.empty);
      await checkA11y(page, 'passkeys, none yet');

      // Add: the password again, the browser's own ceremony, then a name, prefilled.
      await addPasskey(page, x, checkA11y);
      expect(await credentialCount(authenticator)).toBe(1);
      const item = page.getByTestId('passkey-item');
      await expect(item.getByTestId('passkey-storage')).toHaveText(x.synced);
      await checkA11y(page, 'passkeys, one added');

      // A browser with no session (the cookies gone, the authenticator kept) whose email field
      // offers no passkeys (no conditional mediation, as in older browsers): the button signs in.
      await context.clearCookies();
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
      });
      await gotoHydrated(page, `${ACME}${BASE}/login`);
      const button = page.getByRole('button', { name: x.signIn, exact: true });
      await expect(button).toBeVisible();
      await checkA11y(page, 'login with the passkey button');
      await button.click();
      await expect(page).toHaveURL(`${ACME}/meishi/`);

      // Remove it, with the password.
      await gotoHydrated(page, `${ACME}${BASE}/passkeys`);
      await expect(item.getByTestId('passkey-name')).toHaveText('My laptop');
      await page.getByRole('button', { name: x.removeLabel('My laptop'), exact: true }).click();
      const removing = page.getByRole('dialog', { name: x.removeTitle });
      await expect(removing).toBeVisible();
      await checkA11y(page, 'passkeys, remove');
      await removing.getByLabel(x.password, { exact: true }).fill(DEMO_PASSWORD);
      await removing.getByRole('button', { name: x.remove, exact: true }).click();
      await expect(page.getByTestId('passkeys-message')).toHaveText(x.removed('My laptop'));
      await expect(page.getByTestId('passkeys-empty')).toHaveText(x.empty);
    });

    test('a passkey made on the main domain signs in there through autofill and reaches Globex', async ({ page, context }) => {
      const t = TEXT[lang];
      const x = PASSKEYS[lang];
      await virtualAuthenticator(page);
      await gotoHydrated(page, `${MAIN}${BASE}/login`);
      await page.getByLabel(t.email).fill(mainEmail);
      await page.getByLabel(t.password, { exact: true }).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: t.logIn, exact: true }).click();
      await expect(page.getByRole('dialog', { name: t.chooseOrganization })).toBeVisible();
      await gotoHydrated(page, `${MAIN}${BASE}/passkeys`);
      await addPasskey(page, x);

      // No session: the email field's autofill (conditional mediation) offers the passkey, and the
      // virtual authenticator answers the pending request as a person picking it would.
      await context.clearCookies();
      await page.goto(`${MAIN}${BASE}/login`);
      const chooser = page.getByRole('dialog', { name: t.chooseOrganization });
      await expect(chooser).toBeVisible();
      await chooser.getByRole('button', { name: 'Globex 株式会社' }).click();
      await expect(page).toHaveURL(`${origin('globex-jp')}/meishi/`);
    });

    test('after the password, a passkey answers instead of the authenticator code', async ({ page, context, checkA11y }) => {
      const t = TEXT[lang];
      const x = PASSKEYS[lang];
      await virtualAuthenticator(page);
      // The email field's autofill would sign in before the password: this browser has none.
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
      });
      await signInOnTenantHost(page, t, 'acme', otpEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await gotoHydrated(page, `${ACME}${BASE}/passkeys`);
      await addPasskey(page, x);
      // Two-factor turned on afterwards (an authenticator app), then a new sign-in.
      await seedTwofa(otpEmail, { method: 'app' });
      await context.clearCookies();
      await signInOnTenantHost(page, t, 'acme', otpEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(new RegExp(`^${ACME}${BASE}/otp`));
      await waitForHydration(page);
      const instead = page.getByRole('button', { name: x.instead, exact: true });
      await expect(instead).toBeVisible();
      await checkA11y(page, 'one-time code with a passkey instead');
      await instead.click();
      await expect(page).toHaveURL(`${ACME}/meishi/`);
    });

    test('an admin sees who has a passkey and removes a member\'s passkeys for a lost device', async ({ page, context, checkA11y }) => {
      const t = TEXT[lang];
      const x = PASSKEYS[lang];
      await virtualAuthenticator(page);
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
      });
      await signInOnTenantHost(page, t, 'acme', lostEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${ACME}/meishi/`);
      await gotoHydrated(page, `${ACME}${BASE}/passkeys`);
      await addPasskey(page, x);

      // Acme's admin, in this browser after the member left it.
      await context.clearCookies();
      await signInOnTenantHost(page, t, 'acme', accountFor('admin@acme.test', lang), DEMO_PASSWORD);
      await gotoHydrated(page, `${ACME}${BASE}/admin/users?search=${encodeURIComponent(lostEmail)}`);
      const row = page.locator(`[data-testid="user-row"][data-email="${lostEmail}"]`);
      await expect(row.getByTestId('user-passkeys')).toHaveText('1');
      const name = '山田 太郎';
      await row.getByRole('button', { name: x.actionsFor(name) }).click();
      await row.getByRole('button', { name: x.removeAllLabel(name) }).click();
      const confirm = page.getByRole('dialog', { name: x.removeAllTitle });
      await expect(confirm).toBeVisible();
      await checkA11y(page, 'remove a member\'s passkeys');
      await confirm.getByRole('button', { name: x.removeAll, exact: true }).click();
      await expect(page.getByText(x.removedAll(name))).toBeVisible();
      await expect(row.getByTestId('user-passkeys')).toHaveText(x.off);
    });

    test('an admin requires passkeys for administrators; at the next sign-in the admin adds one', async ({ page, context }) => {
      const t = TEXT[lang];
      const x = PASSKEYS[lang];
      const host = origin(policyLabel);
      const authenticator = await virtualAuthenticator(page);
      await signInOnTenantHost(page, t, policyLabel, policyAdmin, DEMO_PASSWORD);
      await expect(page).not.toHaveURL(/\/login/);
      await gotoHydrated(page, `${host}${BASE}/admin/twofa`);
      await page.getByRole('radio', { name: x.policyAdmins, exact: true }).check();
      await page.getByRole('button', { name: x.save, exact: true }).click();
      const confirm = page.getByRole('dialog', { name: x.policyConfirmTitle });
      await expect(confirm).toBeVisible();
      await confirm.getByRole('button', { name: x.policyConfirm, exact: true }).click();
      await expect(page.getByText(x.policySaved)).toBeVisible();

      await context.clearCookies();
      await signInOnTenantHost(page, t, policyLabel, policyAdmin, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${host}${BASE}/setup-passkey-at-login`);
      await waitForHydration(page);
      await page.getByRole('button', { name: x.enrolButton, exact: true }).click();
      await expect(page).not.toHaveURL(/setup-passkey-at-login/);
      expect(await credentialCount(authenticator)).toBe(1);
    });

    test('a tenant that requires passkeys leads a member to add one at sign-in', async ({ page, checkA11y }) => {
      const t = TEXT[lang];
      const x = PASSKEYS[lang];
      const authenticator = await virtualAuthenticator(page);
      await signInOnTenantHost(page, t, label, enrolEmail, DEMO_PASSWORD);
      await expect(page).toHaveURL(`${origin(label)}${BASE}/setup-passkey-at-login`);
      await waitForHydration(page);
      await expect(page).toHaveTitle(x.enrolTitle);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.enrolHeading);
      await checkA11y(page, 'passkey required at sign-in');
      // The browser's ceremony, then the sign-in goes on (a line says so while the app opens).
      await page.getByRole('button', { name: x.enrolButton, exact: true }).click();
      await expect(page).toHaveURL(`${origin(label)}/meishi/`);
      expect(await credentialCount(authenticator)).toBe(1);
    });
  });
}
