// Security policies an admin sets for the tenant (spec 02 "Two-factor enforcement and password
// policy screens", sections 4, 5 and 7), and what members meet at their next sign-in: enforced
// two-factor sends a member without it to the setup at login; a stricter password policy forces
// the change-password dialog. Without a subscription, the feature's page only explains it. Each
// on tenants of their own (support/admin-tenants.ts).
import { BASE, DEMO_PASSWORD, expect, LANGUAGES, origin, test } from './fixtures';
import { signInOnTenantHost } from './support/flows';
import { ADMIN_TEXT, signInToPage, toast } from './support/admin-text';
import { ensureSettingsTenant } from './support/admin-tenants';
import { TEXT } from './support/text';

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const enforcing = `tf-${lang}`;
    const strict = `pw-${lang}`;
    const tfAdmin = `tf-admin+${lang}@acme.test`;
    const tfMember = `tf-member+${lang}@acme.test`;
    const pwAdmin = `pw-admin+${lang}@acme.test`;
    const pwMember = `pw-member+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureSettingsTenant({ label: enforcing, name: `2FA Tenant ${lang}`, twofaEnforcementSubscribed: true }, [
        { email: tfAdmin, language: lang, admin: true },
        { email: tfMember, language: lang, admin: false },
      ]);
      await ensureSettingsTenant({ label: strict, name: `Password Tenant ${lang}` }, [
        { email: pwAdmin, language: lang, admin: true },
        { email: pwMember, language: lang, admin: false },
      ]);
    });

    test('an admin enforces two-factor authentication after a confirmation; a member is sent to the setup', async ({ page, browser, checkA11y }) => {
      const x = ADMIN_TEXT[lang];
      await signInToPage(page, lang, enforcing, tfAdmin, '/admin/twofa');
      await expect(page).toHaveTitle(x.title(x.twofaSettings));
      const optional = page.getByRole('radio', { name: x.twofaOptional });
      const force = page.getByRole('radio', { name: x.twofaForce });
      const skip = page.getByRole('checkbox', { name: x.twofaSkip });
      const save = page.getByRole('button', { name: x.save, exact: true });
      await expect(optional).toBeChecked();
      await expect(skip).toBeDisabled();
      await expect(save).toBeDisabled();
      await checkA11y(page, '2FA enforcement');

      // Optional -> force asks first; cancelling puts the stored settings back.
      await force.check();
      await expect(skip).toBeEnabled();
      await expect(save).toBeEnabled();
      await save.click();
      const confirm = page.getByRole('dialog', { name: x.forceTitle });
      await expect(confirm.getByRole('button', { name: x.cancel })).toBeFocused();
      await checkA11y(page, '2FA force confirmation');
      await confirm.getByRole('button', { name: x.cancel }).click();
      await expect(confirm).toBeHidden();
      await expect(optional).toBeChecked();
      await expect(optional).toBeFocused();
      await expect(save).toBeDisabled();

      await force.check();
      await skip.check();
      await save.click();
      await confirm.getByRole('button', { name: x.forceConfirm }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.twofaSaved}`));
      await expect(save).toBeDisabled();
      // Taking the skip away keeps people out: the lock-out preview names them and the count
      // (decision 0043): the admin and the member, neither with a second factor.
      await skip.uncheck();
      await save.click();
      const preview = page.getByRole('dialog', { name: x.forceTitle });
      const people = preview.getByRole('list', { name: x.lockoutListLabel });
      await expect(people.getByRole('listitem')).toHaveCount(2);
      await expect(people).toContainText(tfMember);
      await expect(people).toContainText(tfAdmin);
      await expect(people.getByRole('listitem').first()).toContainText(x.lockoutReasonNoSecondFactor);
      await checkA11y(page, '2FA lock-out preview');
      const saved = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/admin/twofa` && r.request().method() === 'POST');
      await preview.getByRole('button', { name: x.lockoutConfirm(2) }).click();
      const answer = await saved;
      expect(answer.request().postDataJSON()).toMatchObject({ isTwofaEnforced: true, isTwofaSkipAllowed: false, confirmAffected: 2 });
      expect(await answer.json()).toEqual({ message: 'success', isTwofaEnforced: true, isTwofaSkipAllowed: false, passkeyPolicy: 'allowed' });
      await expect(preview).toBeHidden();
      await expect(save).toBeDisabled();

      const memberContext = await browser.newContext({ locale });
      const memberPage = await memberContext.newPage();
      const login = await signInOnTenantHost(memberPage, TEXT[lang], enforcing, tfMember, DEMO_PASSWORD);
      expect(login.status()).toBe(200);
      // (The answer is enable-twofa; the page leaves at once, so its body may be gone.)
      await expect(memberPage).toHaveURL(`${origin(enforcing)}${BASE}/setup-twofa-at-login`);
      await memberContext.close();
    });

    test('an admin tightens the password policy; a member whose password falls short must change it', async ({ page, browser, checkA11y }) => {
      const x = ADMIN_TEXT[lang];
      await signInToPage(page, lang, strict, pwAdmin, '/admin/passwords');
      await expect(page).toHaveTitle(x.title(x.passwordPolicy));
      const length = page.getByRole('spinbutton', { name: x.minLength });
      const save = page.getByRole('button', { name: x.save, exact: true });
      await expect(length).toHaveValue('8');
      await expect(save).toBeDisabled();
      await checkA11y(page, 'password policy');

      await length.fill('7');
      await expect(length).toHaveAccessibleDescription(new RegExp(`^${x.minLengthError}`));
      await expect(length).toHaveAttribute('aria-invalid', 'true');
      await expect(save).toBeDisabled();
      // The demo password has 17 characters: 20 leaves it short.
      await length.fill('20');
      await page.getByRole('checkbox', { name: x.ruleNumber }).uncheck();
      await save.click();
      // Stricter: the lock-out preview counts both members (the demo password has 17 characters).
      const preview = page.getByRole('dialog', { name: x.passwordStricterTitle });
      const people = preview.getByRole('list', { name: x.lockoutListLabel });
      await expect(people.getByRole('listitem')).toHaveCount(2);
      await expect(people).toContainText(pwMember);
      await expect(people.getByRole('listitem').first()).toContainText(x.lockoutReasonWeak);
      await checkA11y(page, 'password policy lock-out preview');
      await preview.getByRole('button', { name: x.lockoutConfirm(2) }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.policySaved}`));
      await expect(save).toBeDisabled();

      // This tenant has neither optional feature: their pages only explain.
      for (const [path, title] of [
        ['/admin/twofa', x.twofaSettings],
        ['/admin/ip-restriction', x.ipRestriction],
      ] as const) {
        await page.goto(`${origin(strict)}${BASE}${path}`);
        await expect(page).toHaveTitle(x.title(title));
        await expect(page.getByTestId('optional-feature')).toContainText(x.optionalFeature);
        await expect(page.getByRole('radio')).toHaveCount(0);
        await expect(page.getByRole('switch')).toHaveCount(0);
        await checkA11y(page, `${path} without the subscription`);
      }

      const memberContext = await browser.newContext({ locale });
      const memberPage = await memberContext.newPage();
      const login = await signInOnTenantHost(memberPage, TEXT[lang], strict, pwMember, DEMO_PASSWORD);
      expect((await login.json()).password_compliance).toMatchObject({ meets_current_policy: false, policy: { minimum_password_length: 20, is_number_required: false } });
      const dialog = memberPage.getByRole('dialog', { name: x.changePassword });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAccessibleDescription(x.forcedNonCompliant);
      await memberContext.close();
    });
  });
}
