// Disabled buttons say why (issue 27 part 7, decision 0047), in both languages with axe: the
// hint is under the button and is its accessible description while the button is disabled, and
// it goes away once the person has done what it asks. One screen per kind of reason: nothing
// chosen yet (CSV upload), a form not valid yet (department, IP address, forgot password),
// nothing to act on (resend to everyone) and an invitation not yet accepted (row menu items).
import type { Locator } from '@playwright/test';
import { BASE, expect, gotoHydrated, LANGUAGES, origin, test } from './fixtures';
import { signInToPage } from './support/admin-text';
import { ensureSettingsTenant } from './support/admin-tenants';
import { ensurePeopleTenant, PEOPLE_TEXT } from './support/people';

const ACME = origin('acme');

const WHY = {
  ja: {
    inviteAll: '未登録のユーザー全員に招待を再送',
    inviteAllWhy: '未登録のユーザーがいないため、招待の再送はありません。',
    upload: 'アップロード',
    preview: 'プレビュー',
    chooseFirst: 'CSV ファイルを選ぶと送信できます。',
    addDepartment: '部署を追加',
    departmentDialog: '部署の追加',
    departmentName: '部署名',
    departmentWhy: '部署名を入力すると保存できます。',
    ip: 'IPアドレス',
    ipWhy: '正しい IP アドレスを入力すると追加できます。',
    forgotEmail: 'メールアドレス',
    forgotSubmit: 'パスワード再設定リンクを送信',
    forgotWhy: '登録したメールアドレスを入力すると送信できます。',
    addUserWhy: '名前を入力してください',
  },
  en: {
    inviteAll: 'Resend the invitation to everyone not registered',
    inviteAllWhy: 'Everyone has registered: there is no invitation to resend.',
    upload: 'Upload',
    preview: 'Preview',
    chooseFirst: 'Choose a CSV file first.',
    addDepartment: 'Add department',
    departmentDialog: 'Add a department',
    departmentName: 'Department name',
    departmentWhy: "Enter the department's name to save it.",
    ip: 'IP address',
    ipWhy: 'Enter a valid IP address to add it.',
    forgotEmail: 'Email',
    forgotSubmit: 'Get Password Reset Link',
    forgotWhy: 'Enter the email address you signed up with to get the link.',
    addUserWhy: 'Enter a name',
  },
};

/** The button waits, and its accessible description says why. */
async function waitsWithReason(button: Locator, why: string) {
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(why);
}

/** The button is ready, with no reason left on it. */
async function readyWithoutReason(button: Locator) {
  await expect(button).toBeEnabled();
  await expect(button).toHaveAccessibleDescription('');
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const w = WHY[lang];
    const x = PEOPLE_TEXT[lang];
    const label = `why-${lang}`;
    const admin = `why-admin+${lang}@acme.test`;

    test('users and departments: each disabled button is described by why, until it is not', async ({ page, checkA11y }) => {
      await ensurePeopleTenant({ label, lang, admin, meishiSeats: 10 });
      await signInToPage(page, lang, label, admin, '/admin/users');

      // Everyone is registered (the admin alone): nothing to resend, and the page says so.
      const inviteAll = page.getByRole('button', { name: w.inviteAll, exact: true });
      await waitsWithReason(inviteAll, w.inviteAllWhy);

      // The add-user form: Add waits for a name, and says so; typed, the hint goes.
      await page.getByRole('button', { name: x.add, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: x.addDialog });
      const add = dialog.getByRole('button', { name: x.addSubmit, exact: true });
      await expect(add).toHaveAccessibleDescription(w.addUserWhy);
      await checkA11y(page, 'add-user dialog, Add disabled with its reason');
      await dialog.getByRole('textbox', { name: x.name, exact: true }).fill('Why Test');
      await dialog.getByRole('textbox', { name: x.email, exact: true }).fill(`why.${label}@people-e2e.test`);
      await readyWithoutReason(add);

      // CSV: Upload and Preview wait for a file.
      await dialog.getByRole('tab', { name: x.tabCsv }).click();
      const upload = dialog.getByRole('button', { name: w.upload, exact: true });
      await waitsWithReason(upload, w.chooseFirst);
      await expect(dialog.getByRole('button', { name: w.preview, exact: true })).toHaveAccessibleDescription(w.chooseFirst);
      await checkA11y(page, 'CSV tab, Upload disabled with its reason');
      await dialog.locator('input[type=file]').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from('x\n') });
      await readyWithoutReason(upload);
      await page.keyboard.press('Escape');

      // Departments: Add waits for a name.
      await gotoHydrated(page, `${origin(label)}${BASE}/admin/departments`);
      await page.getByRole('button', { name: w.addDepartment, exact: true }).first().click();
      const dept = page.getByRole('dialog', { name: w.departmentDialog });
      const save = dept.getByRole('button', { name: x.addSubmit, exact: true });
      await waitsWithReason(save, w.departmentWhy);
      await checkA11y(page, 'department dialog, Add disabled with its reason');
      await dept.getByRole('textbox', { name: w.departmentName }).fill('総務部');
      await expect(save).toBeEnabled();
      await expect(dept.getByTestId('why-hint')).toHaveCount(0);
    });

    test('the IP allowlist and forgot password say why their button waits', async ({ page, checkA11y }) => {
      const ipLabel = `why-ip-${lang}`;
      const ipAdmin = `why-ip-admin+${lang}@acme.test`;
      await ensureSettingsTenant({ label: ipLabel, name: `Why IP ${lang}`, ipRestrictionSubscribed: true }, [{ email: ipAdmin, language: lang, admin: true }]);
      await signInToPage(page, lang, ipLabel, ipAdmin, '/admin/ip-restriction');
      const ip = page.getByRole('textbox', { name: w.ip, exact: true });
      const addIp = ip.locator('xpath=ancestor::form').getByRole('button', { name: lang === 'ja' ? '追加' : 'Add', exact: true });
      await waitsWithReason(addIp, w.ipWhy);
      await checkA11y(page, 'IP allowlist, Add disabled with its reason');
      await ip.fill('203.0.113.7');
      await readyWithoutReason(addIp);

      await page.context().clearCookies();
      await gotoHydrated(page, `${ACME}${BASE}/forgot`);
      const email = page.getByLabel(w.forgotEmail);
      const submit = page.getByRole('button', { name: w.forgotSubmit });
      await email.fill('not-an-address');
      await waitsWithReason(submit, w.forgotWhy);
      await checkA11y(page, 'forgot password, button disabled with its reason');
      await email.fill('user@acme.test');
      await readyWithoutReason(submit);
    });
  });
}
