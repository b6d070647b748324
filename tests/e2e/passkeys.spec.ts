// Passkeys in the browser (issue 24, decision 0039), with Chromium's virtual authenticator (the
// DevTools protocol's WebAuthn domain: a platform authenticator with resident keys and user
// verification that answers the page's navigator.credentials calls by itself): add a passkey in
// my-account on acme, sign in with it on globex through the button and on the main domain through
// the email field's autofill, remove it; a tenant whose policy requires passkeys leads a member to
// add one at sign-in. axe on every new screen, in both languages.
import type { CDPSession, Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { signInOnTenantHost } from './support/flows';
import { ensurePasskeyTenant, ensurePasskeyUsers } from './support/passkeys';
import { TEXT } from './support/text';

const ACME = origin('acme');
const GLOBEX = origin('globex');
const MAIN = origin(null);

/** What a user reads on the passkey screens, written out (not looked up in locales/*.json). */
const PASSKEYS = {
  ja: {
    entry: 'パスキー',
    title: /^パスキー \| /,
    heading: 'パスキー',
    empty: 'パスキーはまだありません。',
    add: 'パスキーを追加',
    verifyTitle: '本人確認',
    password: 'パスワード',
    confirm: '確認',
    nameTitle: '新しいパスキーの名前',
    name: '名前',
    save: '保存',
    added: 'パスキーを追加しました',
    synced: /同期済み|同期可能|このデバイスのみ/,
    removeLabel: (name: string) => `パスキー ${name} を削除`,
    removeTitle: 'パスキーを削除しますか？',
    remove: '削除',
    removed: (name: string) => `パスキー ${name} を削除しました`,
    signIn: 'パスキーでログイン',
    enrolTitle: /^パスキーの追加 \| /,
    enrolHeading: 'パスキーの追加',
    enrolButton: 'パスキーを追加',
    enrolled: /^パスキー .+ を追加しました$/,
  },
  en: {
    entry: 'Passkeys',
    title: /^Passkeys \| /,
    heading: 'Passkeys',
    empty: 'You have no passkeys yet.',
    add: 'Add a passkey',
    verifyTitle: 'Confirm it is you',
    password: 'Password',
    confirm: 'Confirm',
    nameTitle: 'Name your new passkey',
    name: 'Name',
    save: 'Save',
    added: 'Passkey added',
    synced: /Synced|Can be synced|This device only/,
    removeLabel: (name: string) => `Remove passkey ${name}`,
    removeTitle: 'Remove passkey?',
    remove: 'Remove',
    removed: (name: string) => `Passkey ${name} removed`,
    signIn: 'Sign in with a passkey',
    enrolTitle: /^Add a passkey \| /,
    enrolHeading: 'Add a passkey',
    enrolButton: 'Add a passkey',
    enrolled: /^Passkey .+ added$/,
  },
} as const;

/** A platform authenticator with resident keys and user verification, answering at once. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', ctap2Version: 'ctap2_1', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

async function credentialCount(v: { cdp: CDPSession; authenticatorId: string }): Promise<number> {
  return (await v.cdp.send('WebAuthn.getCredentials', { authenticatorId: v.authenticatorId })).credentials.length;
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    // A copy of multi@example.test: a normal member of Acme and Globex's admin.
    const email = `passkey+${lang}@example.test`;
    const enrolEmail = `passkey-enrol+${lang}@acme.test`;
    const label = `passkeys-${lang}`;

    test.beforeAll(async () => {
      await ensurePasskeyUsers([
        { from: 'multi@example.test', email, language: lang },
        { from: 'user@acme.test', email: enrolEmail, language: lang },
      ]);
      await ensurePasskeyTenant(label, lang === 'ja' ? 'パスキー必須株式会社' : 'Passkeys Required Inc.', [enrolEmail]);
    });

    test('adds a passkey on acme, signs in with it on globex and on the main domain, removes it', async ({ page, checkA11y }) => {
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
      await page.getByRole('button', { name: x.add, exact: true }).click();
      const verify = page.getByRole('dialog', { name: x.verifyTitle });
      await expect(verify).toBeVisible();
      await expect(verify.getByLabel(x.password, { exact: true })).toBeFocused();
      await checkA11y(page, 'passkeys, confirm it is you');
      await verify.getByLabel(x.password, { exact: true }).fill(DEMO_PASSWORD);
      await verify.getByRole('button', { name: x.confirm, exact: true }).click();
      const naming = page.getByRole('dialog', { name: x.nameTitle });
      await expect(naming).toBeVisible();
      const name = naming.getByLabel(x.name, { exact: true });
      await expect(name).toBeFocused();
      expect((await name.inputValue()).length).toBeGreaterThan(0);
      expect(await credentialCount(authenticator)).toBe(1);
      await checkA11y(page, 'passkeys, name the new one');
      await name.fill('My laptop');
      await naming.getByRole('button', { name: x.save, exact: true }).click();
      await expect(naming).toBeHidden();
      await expect(page.getByTestId('passkeys-message')).toHaveText(x.added);
      const item = page.getByTestId('passkey-item');
      await expect(item).toHaveCount(1);
      await expect(item.getByTestId('passkey-name')).toHaveText('My laptop');
      await expect(item.getByTestId('passkey-storage')).toHaveText(x.synced);
      await checkA11y(page, 'passkeys, one added');

      // Globex, another tenant's host: the button, without typing anything.
      await gotoHydrated(page, `${GLOBEX}${BASE}/login`);
      const button = page.getByRole('button', { name: x.signIn, exact: true });
      await expect(button).toBeVisible();
      await checkA11y(page, 'login with the passkey button');
      await button.click();
      await expect(page).toHaveURL(`${GLOBEX}/meishi/`);

      // The main domain: the email field offers the passkey (conditional mediation); the virtual
      // authenticator answers the pending request as a person picking the suggestion would.
      await page.goto(`${MAIN}${BASE}/login`);
      await expect(page.getByRole('dialog', { name: t.chooseOrganization })).toBeVisible();

      // Back on acme: remove it, with the password.
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
      await page.getByRole('button', { name: x.enrolButton, exact: true }).click();
      await expect(page.getByTestId('passkey-enrolled')).toHaveText(x.enrolled);
      await expect(page).toHaveURL(`${origin(label)}/meishi/`);
      expect(await credentialCount(authenticator)).toBe(1);
    });
  });
}
