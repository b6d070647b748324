// Billing screens of spec 02 (sections 3, 4, 5, 7, 8 and 9): the contact details (primary edited;
// billing registered, edited and deleted, with the dialog's checks), the subscriptions with their
// "unlimited" and "not subscribed" lines, a request for more services, and the contract prompt of
// a tenant whose trial has expired. Each on a tenant of its own (support/admin-tenants.ts).
import type { Locator } from '@playwright/test';
import { BASE, expect, LANGUAGES, origin, test } from './fixtures';
import { ADMIN_TEXT, signInToPage, toast } from './support/admin-text';
import { ensureSettingsTenant, primaryContactOf } from './support/admin-tenants';

const DAY = 86_400_000;
const DATE_TIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/;

/** The value a contact card shows for a label. */
function cardValue(card: Locator, label: string): Locator {
  return card.locator('div').filter({ has: card.page().getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) }).getByRole('definition');
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const contacts = { label: `contact-${lang}`, name: `Contact Tenant ${lang}` };
    const plans = {
      label: `plan-${lang}`,
      name: `Plan Tenant ${lang}`,
      contract: { feature_bulk_email_monthly_limit: 300_000, bulk_email_monthly_usage: 12_345, is_feature_kintone_subscribed: 1 },
    };
    const trial = {
      label: `trial-${lang}`,
      name: `Trial Tenant ${lang}`,
      status: 'trial_expired_not_yet_contracted' as const,
      contract: { trial_ends_at: Date.now() - 3 * DAY, contract_starts_at: null, contract_ends_at: null, contract_renews_at: null },
    };
    const contactAdmin = `contact-admin+${lang}@acme.test`;
    const planAdmin = `plan-admin+${lang}@acme.test`;
    const trialAdmin = `trial-admin+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureSettingsTenant(contacts, [{ email: contactAdmin, language: lang, admin: true }]);
      await ensureSettingsTenant(plans, [{ email: planAdmin, language: lang, admin: true }]);
      await ensureSettingsTenant(trial, [{ email: trialAdmin, language: lang, admin: true }]);
    });

    test('an admin edits the primary contact and registers, edits and deletes the billing contact', async ({ page, checkA11y }) => {
      const x = ADMIN_TEXT[lang];
      const primaryData = primaryContactOf(contacts);
      await signInToPage(page, lang, contacts.label, contactAdmin, '/admin/contact-details');
      await expect(page).toHaveTitle(x.title(x.contactDetails));
      const primary = page.getByTestId('primary-contact');
      await expect(cardValue(primary, x.companyName)).toHaveText(primaryData.companyName);
      await expect(cardValue(primary, x.address)).toHaveText(x.addressValue(primaryData.postalCode, primaryData.address));
      await expect(page.getByText(x.billingMissing)).toBeVisible();
      await checkA11y(page, 'contact details');

      // Register: the dialog checks the required fields (after trimming) and the email.
      await page.getByRole('button', { name: x.registerBilling }).click();
      const dialog = page.getByRole('dialog', { name: x.registerDialog });
      const field = (label: string) => dialog.getByRole('textbox', { name: label, exact: true });
      await expect(field(x.companyName)).toBeFocused();
      await field(x.companyName).fill('   ');
      await dialog.getByRole('button', { name: x.save }).click();
      await expect(field(x.companyName)).toBeFocused();
      for (const label of [x.companyName, x.name, x.email, x.phone, x.postalCode, x.address]) {
        await expect(field(label), label).toHaveAccessibleDescription(x.required);
      }
      await expect(field(x.department)).not.toHaveAttribute('aria-invalid');
      await checkA11y(page, 'billing contact dialog with errors');
      await field(x.companyName).fill('Billing Co.');
      await field(x.name).fill('請求 太郎');
      // From the first Save on, the messages follow the typing.
      await field(x.email).fill('billing@');
      await expect(field(x.email)).toHaveAccessibleDescription(x.emailInvalid);
      await expect(field(x.companyName)).not.toHaveAttribute('aria-invalid');
      await field(x.email).fill('billing@settings.test');
      await field(x.phone).fill('03-9999-0000');
      await field(x.postalCode).fill('530-0001');
      await field(x.address).fill('大阪府大阪市北区梅田1-1');
      await dialog.getByRole('button', { name: x.save }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.billingCreated}`));
      await expect(dialog).toBeHidden();
      const billing = page.getByTestId('billing-contact');
      await expect(cardValue(billing, x.name)).toHaveText('請求 太郎');
      await expect(cardValue(billing, x.address)).toHaveText(x.addressValue('530-0001', '大阪府大阪市北区梅田1-1'));
      await expect(page.getByRole('heading', { name: x.billing })).toBeFocused();

      await page.getByRole('button', { name: x.editBilling }).click();
      const edit = page.getByRole('dialog', { name: x.editBillingDialog });
      await expect(edit.getByRole('textbox', { name: x.email, exact: true })).toHaveValue('billing@settings.test');
      await edit.getByRole('textbox', { name: x.name, exact: true }).fill('請求 花子');
      await edit.getByRole('textbox', { name: x.department, exact: true }).fill('経理部');
      await edit.getByRole('button', { name: x.save }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.billingUpdated}`));
      await expect(cardValue(billing, x.name)).toHaveText('請求 花子');
      await expect(cardValue(billing, x.department)).toHaveText('経理部');

      await page.getByRole('button', { name: x.editPrimary }).click();
      const editPrimary = page.getByRole('dialog', { name: x.editPrimaryDialog });
      await editPrimary.getByRole('textbox', { name: x.position, exact: true }).fill('代表取締役');
      await editPrimary.getByRole('button', { name: x.save }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.primaryUpdated}`));
      await expect(cardValue(primary, x.position)).toHaveText('代表取締役');

      await page.getByRole('button', { name: x.deleteBilling }).click();
      const del = page.getByRole('dialog', { name: x.deleteBillingDialog });
      await checkA11y(page, 'delete billing contact');
      await del.getByRole('button', { name: x.delete }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.billingDeleted}`));
      await expect(page.getByText(x.billingMissing)).toBeVisible();
      await expect(page.getByTestId('billing-contact')).toHaveCount(0);
    });

    test('an admin reads the subscription and requests more services', async ({ page, checkA11y }) => {
      const x = ADMIN_TEXT[lang];
      await signInToPage(page, lang, plans.label, planAdmin, '/admin/subscriptions');
      await expect(page).toHaveTitle(x.title(x.subscriptions));
      await expect(page.getByTestId('contract-state')).toHaveText(x.underContract);
      await expect(page.getByTestId('contract-starts-at')).toHaveText(DATE_TIME);
      const line = (feature: string) => page.locator(`tr[data-feature="${feature}"]`).getByRole('cell');
      await expect(line('meishi').first()).toHaveText(x.unlimited);
      await expect(line('scheduler').first()).toHaveText(x.notSubscribed);
      await expect(line('negotiations').first()).toHaveText(x.notSubscribed);
      await expect(line('bulkEmail')).toHaveText([x.bulkLimit, x.bulkUsed]);
      await expect(line('kintone').first()).toHaveText(x.subscribed);
      await expect(line('sso').first()).toHaveText(x.notSubscribed);
      await expect(line('scannerKeys').first()).toHaveText(x.notSubscribed);
      await checkA11y(page, 'subscriptions');

      await page.getByRole('main').getByRole('link', { name: x.requestMore }).click();
      await expect(page).toHaveURL(`${origin(plans.label)}${BASE}/admin/get-more-services`);
      await expect(page).toHaveTitle(x.title(x.getMoreServices));
      const send = page.getByRole('button', { name: x.send, exact: true });
      await expect(send).toBeDisabled();
      // kintone is in the contract already; the plans offered are those above 300,000.
      await expect(page.getByRole('checkbox', { name: x.kintone })).toHaveCount(0);
      await expect(page.getByRole('combobox', { name: x.planSelect }).getByRole('option')).toHaveText([x.plan700k]);
      await checkA11y(page, 'get more services');

      const users = page.getByRole('checkbox', { name: x.addMeishiUsers });
      const count = page.getByRole('spinbutton', { name: x.addMeishiUsersCount });
      await expect(count).toBeDisabled();
      await users.check();
      await expect(count).toHaveValue('0');
      // A count of 0 alone asks for nothing.
      await expect(send).toBeDisabled();
      await count.fill('5');
      await expect(send).toBeEnabled();
      await page.getByRole('checkbox', { name: x.higherPlan }).check();
      await page.getByRole('checkbox', { name: x.salesforce }).check();
      const request = page.waitForRequest((r) => new URL(r.url()).pathname === `${BASE}/api/admin/get-more-services`);
      await send.click();
      expect((await request).postDataJSON()).toEqual([
        { key: 'addMeishiUsers', value: 5 },
        { key: 'subscribeToHigherBulkEmailPlan', value: 700_000 },
        { key: 'subscribeToSalesforce', value: true },
      ]);
      await expect(toast(page)).toHaveText(new RegExp(`^${x.sent}`));
      await expect(users).not.toBeChecked();
      await expect(count).toHaveValue('0');
      await expect(send).toBeDisabled();
    });

    test('the admin of an expired trial is prompted to apply for a contract, once a day', async ({ page, checkA11y }) => {
      const x = ADMIN_TEXT[lang];
      await signInToPage(page, lang, trial.label, trialAdmin, '/admin/subscriptions');
      const dialog = page.getByRole('dialog', { name: x.trialDialog });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('link', { name: x.plans })).toHaveAttribute('href', 'https://example.com/plans');
      await expect(dialog.getByRole('link', { name: x.inquiry })).toHaveAttribute('href', 'https://example.com/inquiry');
      await checkA11y(page, 'trial-expired dialog');
      await dialog.getByRole('button', { name: x.later }).click();
      await expect(dialog).toBeHidden();
      const alert = page.getByTestId('trial-expired-alert');
      await expect(alert).toContainText(x.trialAlert);
      await checkA11y(page, 'trial-expired alert');

      // Not applied yet: the next page asks again. Applying hides both for the day.
      await page.reload();
      await expect(dialog).toBeVisible();
      const applied = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/apply-for-contract`);
      await dialog.getByRole('button', { name: x.apply }).click();
      expect(await (await applied).json()).toEqual({ message: 'success' });
      await expect(toast(page)).toHaveText(new RegExp(`^${x.applied}`));
      await expect(dialog).toBeHidden();
      await expect(alert).toHaveCount(0);
      const today = await page.evaluate(() => {
        const d = new Date();
        return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      });
      expect(await page.evaluate((key) => localStorage.getItem(key), `contract-applied:${trial.label}`)).toBe(today);
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.subscriptions);
      await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-island="TrialExpiredPrompt"]')?.dataset.hydrated === 'true');
      await expect(dialog).toBeHidden();
      await expect(alert).toHaveCount(0);
    });
  });
}
