// CSV import and departments (spec 02 "Add-user dialog", "Edit-by-import dialog", "Departments
// screen", sections 5, 8 and 9): an admin adds users from a Shift-JIS file of Japanese names (as
// spreadsheet programs in Japan save it), finds them by search, edits one by import and sees the
// import log, meets the header-mismatch dialog for a wrong file and the wrong-type message, and
// manages departments (a name is unique; a department with users, main or additional, cannot
// go), giving a user an additional department where the scheduler is allowed. On tenants of their
// own per language (support/people.ts), with axe on every screen and dialog. A file over 1 MiB
// runs as an import job (decision 0030): the dialog shows its progress bar of rows read, then the outcome.
import iconv from 'iconv-lite';
import { readFileSync } from 'node:fs';
import { BASE, expect, LANGUAGES, test } from './fixtures';
import { signInToPage, toast } from './support/admin-text';
import { dropQueuedMail, ensurePeopleTenant, PEOPLE_TEXT, personEmail } from './support/people';
import { IMPORT_HEADERS, IMPORT_READING_HEADER } from '../../src/shared/people/schemas';

const api = (path: string) => `${BASE}/api/${path}`;

/** A CSV of the sample's columns: name, email, department, additional departments, meishi, scheduler, admin. */
function csv(header: readonly string[], rows: string[][]): string {
  return [header, ...rows].map((r) => r.join(',')).join('\r\n') + '\r\n';
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const label = `pi-${lang}`;
    const admin = `pi-admin+${lang}@acme.test`;
    const deptLabel = `pd-${lang}`;
    const deptAdmin = `pd-admin+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensurePeopleTenant({ label, lang, admin, meishiSeats: null });
      // With the scheduler: users may have additional departments.
      await ensurePeopleTenant({ label: deptLabel, lang, admin: deptAdmin, meishiSeats: null, schedulerSeats: null });
    });

    test('import from a Shift-JIS file, edit by import, and a wrong file', async ({ page, browser, consoleGuard, checkA11y }) => {
      const x = PEOPLE_TEXT[lang];
      const people = [
        ['山田 太郎', personEmail('taro', label)],
        ['鈴木 花子', personEmail('hanako', label)],
        ['髙橋 﨑子', personEmail('sakiko', label)], // CP932 extensions (髙, 﨑)
      ];
      const file = iconv.encode(csv(IMPORT_HEADERS.ja, people.map(([n, e]) => [n!, e!, '', '', '1', '0', '0'])), 'cp932');
      expect(file.includes(Buffer.from('山田', 'utf8'))).toBe(false); // really not UTF-8

      await signInToPage(page, lang, label, admin, '/admin/users');
      await page.getByRole('button', { name: x.add, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: x.addDialog });
      // The tabs work with the arrow keys (ARIA tabs pattern).
      await dialog.getByRole('tab', { name: x.tabSingle }).focus();
      await page.keyboard.press('ArrowRight');
      await expect(dialog.getByRole('tab', { name: x.tabCsv })).toBeFocused();
      await expect(dialog.getByRole('tab', { name: x.tabCsv })).toHaveAttribute('aria-selected', 'true');
      await expect(dialog.getByRole('tabpanel', { name: x.tabCsv })).toBeVisible();
      await checkA11y(page, 'add users by CSV');

      // The sample: the columns the import expects, in the page's language.
      const [sample] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: x.sample }).click()]);
      expect(sample.suggestedFilename()).toBe('users-import-sample.csv');
      const sampleText = readFileSync((await sample.path())!, 'utf8').replace(/^\uFEFF/, '');
      // The optional reading column last (decision 0045).
      expect(sampleText.split(/\r?\n/)[0]).toBe([...IMPORT_HEADERS[lang], IMPORT_READING_HEADER[lang]].join(','));

      // The file picker's own check: not a CSV.
      const picker = dialog.getByLabel(x.chooseFile);
      await picker.setInputFiles({ name: 'users.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from('PK') });
      await expect(dialog.getByTestId('import-outcome')).toHaveText(x.wrongType);

      await picker.setInputFiles({ name: '社員.csv', mimeType: 'text/csv', buffer: file });
      await dialog.getByRole('button', { name: x.upload }).click();
      await expect(dialog.getByTestId('import-outcome')).toHaveText(x.importAdded(3));
      await dialog.getByRole('button', { name: x.close }).click();
      await expect(dialog).toBeHidden();
      const rows = page.getByTestId('user-row');
      for (const [name, email] of people) await expect(rows.filter({ hasText: email! })).toContainText(name!);
      // The toolbar's figures: four users, three not registered yet and never active.
      await expect(page.getByTestId('users-counts')).toHaveText(x.counts(4, 3, 3));
      // Resend to everyone not registered asks first.
      await page.getByRole('button', { name: x.inviteAll }).click();
      const inviteAll = page.getByRole('dialog', { name: x.inviteAllTitle });
      await expect(inviteAll).toContainText(x.inviteAllText(3));
      await checkA11y(page, 'resend to all confirmation');
      await inviteAll.getByRole('button', { name: x.inviteAllConfirm }).click();
      await expect(toast(page)).toHaveText(x.inviteAllSent);

      // No scheduler on this tenant: no additional-departments column.
      await expect(page.getByRole('columnheader', { name: x.additionalColumn })).toHaveCount(0);
      await checkA11y(page, 'users after the import');

      // Search runs on the server, through the URL.
      await page.getByRole('searchbox', { name: x.search }).fill('花子');
      await page.getByRole('button', { name: x.searchButton, exact: true }).click();
      await expect(page).toHaveURL(/[?&]search=/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText('鈴木 花子');

      // Edit by import: a new name for one user; the log lists the file.
      await page.getByRole('button', { name: x.editByImport }).click();
      const importDialog = page.getByRole('dialog', { name: x.importDialog });
      const updatePicker = importDialog.getByLabel(x.chooseFile);
      await updatePicker.setInputFiles({
        name: 'update.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`\uFEFF${csv(IMPORT_HEADERS[lang], [['鈴木 花', personEmail('hanako', label), '', '', '1', '0', '0']])}`, 'utf8'),
      });
      await importDialog.getByRole('button', { name: x.upload }).click();
      await expect(importDialog.getByTestId('import-outcome')).toHaveText(new RegExp(lang === 'ja' ? '1人のユーザーを更新しました' : 'Users updated: 1'));
      // The log opens from its summary (the table inside carries the same words as its caption).
      await importDialog.getByTestId('import-logs').locator('summary').click();
      await expect(importDialog.getByTestId('import-logs').getByRole('row').filter({ hasText: 'update.csv' })).toHaveCount(1);
      await checkA11y(page, 'edit by import, log open');

      // A file with other columns: the dialog compares the headers and marks the differences.
      consoleGuard.allowResourceError({ path: api('admin/users/import/update'), status: 422 });
      await updatePicker.setInputFiles({ name: 'wrong.csv', mimeType: 'text/csv', buffer: Buffer.from('Name,Mail,Department\r\nA,a@b.test,\r\n', 'utf8') });
      await importDialog.getByRole('button', { name: x.upload }).click();
      const mismatch = page.getByRole('dialog', { name: x.mismatchTitle });
      await expect(mismatch).toBeVisible();
      await expect(mismatch.locator('tr[data-mismatch="true"]').filter({ hasText: 'Mail' })).toHaveCount(1);
      await expect(mismatch.locator('tr[data-mismatch="false"]')).toHaveCount(lang === 'en' ? 2 : 0); // Name and Department match the English sample
      await checkA11y(page, 'header mismatch');
      await mismatch.getByRole('button', { name: x.close }).click();
      await expect(mismatch).toBeHidden();
      await expect(importDialog.getByTestId('import-outcome')).toHaveText(x.mismatch);
      await importDialog.getByRole('button', { name: x.close, exact: true }).click();

      // Sorting by a column header is a link to the server's sort, and flips on a second click.
      await page.getByRole('link', { name: x.clearSearch }).click();
      await expect(rows).toHaveCount(4);
      await page.getByTestId('sort-name').click();
      await expect(page).toHaveURL(/[?&]sort=name&order=asc/);
      await expect(page.locator('th[aria-sort="ascending"]')).toContainText(x.name);
      await expect(rows.first()).toContainText('Acme');
      await page.getByTestId('sort-name').click();
      await expect(page).toHaveURL(/[?&]sort=name&order=desc/);
      await expect(rows.first()).toContainText('髙橋 﨑子');
      // Five per page: still one page; the range says so.
      await page.getByRole('link', { name: x.perPage5, exact: true }).click();
      await expect(page).toHaveURL(/[?&]perPage=5/);
      await expect(page.getByTestId('pager-range')).toHaveText(x.range(1, 4, 4));
      await checkA11y(page, 'users sorted, five per page');

      // Without JavaScript the server still searches, sorts and pages: a GET form and links.
      const noScript = await browser.newContext({ locale, javaScriptEnabled: false, storageState: await page.context().storageState() });
      const plain = await noScript.newPage();
      await plain.goto(page.url());
      await plain.getByRole('searchbox', { name: x.search }).fill('山田');
      await plain.getByRole('button', { name: x.searchButton, exact: true }).click();
      await expect(plain).toHaveURL(/[?&]search=%E5%B1%B1%E7%94%B0/);
      await expect(plain).toHaveURL(/[?&]perPage=5/);
      await expect(plain.getByTestId('user-row')).toHaveCount(1);
      await expect(plain.getByTestId('user-row')).toContainText('山田 太郎');
      // Parameters the server does not know fall back to their defaults; the search still applies.
      await plain.goto(`${new URL(page.url()).origin}${BASE}/admin/users?search=${encodeURIComponent('山田')}&perPage=30&sort=password&page=x`);
      await expect(plain.getByTestId('user-row')).toHaveCount(1);
      await expect(plain.getByRole('link', { name: x.perPage25, exact: true })).toHaveAttribute('aria-current', 'true');
      await noScript.close();
    });

    test('departments: add, a unique name, rename, and delete', async ({ page, consoleGuard, checkA11y }) => {
      const x = PEOPLE_TEXT[lang];
      const sales = lang === 'ja' ? '営業部' : 'Sales';
      const renamed = lang === 'ja' ? '営業一部' : 'Sales One';
      const support = lang === 'ja' ? 'サポート部' : 'Support';
      const spare = lang === 'ja' ? '予備' : 'Spare';
      await signInToPage(page, lang, deptLabel, deptAdmin, '/admin/departments');
      await expect(page).toHaveTitle(`${x.departmentsTitle} | Nexta Meishi`);
      await checkA11y(page, 'departments, empty');
      const rows = page.getByTestId('department-row');

      const addButton = page.getByRole('button', { name: x.addDepartment });
      const dialog = page.getByRole('dialog', { name: x.departmentDialog });
      const field = dialog.getByRole('textbox', { name: x.departmentName });
      for (const name of [sales, support, spare]) {
        await addButton.click();
        await expect(field).toBeFocused();
        await field.fill(name);
        await dialog.getByRole('button', { name: x.addSubmit, exact: true }).click();
        await expect(toast(page)).toHaveText(new RegExp(`^${x.departmentAdded}`));
        await expect(rows.filter({ hasText: name })).toHaveCount(1);
      }

      // The same name again is refused on the field.
      consoleGuard.allowResourceError({ path: api('admin/departments'), status: 422 });
      await addButton.click();
      await field.fill(sales);
      await dialog.getByRole('button', { name: x.addSubmit, exact: true }).click();
      await expect(field).toHaveAccessibleDescription(x.departmentExists);
      await checkA11y(page, 'department dialog, name exists');
      await dialog.getByRole('button', { name: x.cancel }).click();

      await rows.filter({ hasText: sales }).getByRole('button', { name: x.editDepartment(sales) }).click();
      const edit = page.getByRole('dialog', { name: x.editDepartmentDialog });
      await edit.getByRole('textbox', { name: x.departmentName }).fill(renamed);
      await edit.getByRole('button', { name: x.save }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.departmentUpdated}`));
      await expect(rows.filter({ hasText: renamed }).getByTestId('department-users')).toHaveText('0');

      // A user whose main department is the renamed one and who has Support as an additional one
      // (the main department is not offered again). Neither department can go; the empty one can.
      await page.goto(`${page.url().replace(/\/admin\/departments.*$/, '/admin/users')}`);
      await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-island="UsersScreen"]')?.dataset.hydrated === 'true');
      await expect(page.getByRole('columnheader', { name: x.additionalColumn })).toBeVisible();
      await page.getByRole('button', { name: x.add, exact: true }).click();
      const add = page.getByRole('dialog', { name: x.addDialog });
      const person = lang === 'ja' ? '部署 太郎' : 'Dept Taro';
      await add.getByRole('textbox', { name: x.name, exact: true }).fill(person);
      await add.getByRole('textbox', { name: x.email, exact: true }).fill(personEmail('dept', deptLabel));
      await add.getByRole('combobox', { name: x.mainDepartment }).selectOption({ label: renamed });
      const additional = add.getByRole('group', { name: x.additionalColumn });
      await expect(additional.getByRole('checkbox', { name: renamed })).toHaveCount(0);
      await additional.getByRole('checkbox', { name: support }).check();
      await checkA11y(page, 'add dialog with additional departments');
      await add.getByRole('button', { name: x.addSubmit, exact: true }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.added}`));
      const userRow = page.getByTestId('user-row').filter({ hasText: person });
      // Name, email and role come first (decision 0044), the departments after them.
      await expect(userRow.getByRole('cell').nth(3)).toHaveText(renamed);
      await expect(userRow.getByRole('cell').nth(4)).toHaveText(support);
      await page.goBack();
      await page.reload();
      await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-island="Departments"]')?.dataset.hydrated === 'true');
      await expect(rows.filter({ hasText: renamed }).getByTestId('department-users')).toHaveText('1');
      await expect(rows.filter({ hasText: support }).getByTestId('department-users')).toHaveText('1');

      consoleGuard.allowResourceError({ path: api(`admin/departments/${await rows.filter({ hasText: renamed }).getAttribute('data-id')}`), status: 422 });
      await rows.filter({ hasText: renamed }).getByRole('button', { name: x.deleteDepartment(renamed) }).click();
      const confirm = page.getByRole('dialog', { name: x.departmentDeleteTitle });
      await checkA11y(page, 'department delete confirmation');
      await confirm.getByRole('button', { name: x.delete, exact: true }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.departmentHasUsers}`));
      await expect(rows).toHaveCount(3);

      await rows.filter({ hasText: spare }).getByRole('button', { name: x.deleteDepartment(spare) }).click();
      await confirm.getByRole('button', { name: x.delete, exact: true }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.departmentDeleted(spare)}`));
      await expect(rows).toHaveCount(2);
    });
  });
}

test('a file over 1 MiB runs as a job: the progress bar of rows read, then the outcome', async ({ page, checkA11y }) => {
  const x = PEOPLE_TEXT.ja;
  const label = 'pj-ja';
  const admin = 'pj-admin+ja@acme.test';
  await ensurePeopleTenant({ label, lang: 'ja', admin, meishiSeats: null });
  const n = 30_000;
  const names = ['髙橋 﨑子', '渡邉 一', '齋藤 花子'];
  const rows = Array.from({ length: n }, (_, i) => [`${names[i % names.length]}${i}`, personEmail(`j${i}`, label), '', '', '1', '0', '0']);
  const file = iconv.encode(csv(IMPORT_HEADERS.ja, rows), 'cp932');
  expect(file.length).toBeGreaterThan(1024 * 1024);

  await signInToPage(page, 'ja', label, admin, '/admin/users');
  await page.getByRole('button', { name: x.add, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: x.addDialog });
  await dialog.getByRole('tab', { name: x.tabCsv }).click();
  await dialog.getByLabel(x.chooseFile).setInputFiles({ name: '大量.csv', mimeType: 'text/csv', buffer: file });
  await dialog.getByRole('button', { name: x.upload }).click();
  // The job's bar: rows read of the file's rows, for assistive technology too.
  const bar = dialog.getByRole('progressbar', { name: 'インポートの進み具合' });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuemax', String(n));
  await expect(bar).toHaveAttribute('aria-valuenow', /^\d+$/);
  await expect(bar).toHaveAttribute('aria-valuetext', new RegExp(`^${n.toLocaleString()} 行中 [\\d,]+ 行$`));
  await expect(dialog.getByTestId('import-outcome')).toHaveText(x.importAdded(n), { timeout: 60_000 });
  await expect(bar).toHaveCount(0);
  await checkA11y(page, 'import job finished');
  await dialog.getByRole('button', { name: x.close }).click();
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  await page.getByRole('searchbox', { name: x.search }).fill(personEmail(`j${n - 1}`, label));
  await page.getByRole('button', { name: x.searchButton, exact: true }).click();
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await expect(page.getByTestId('user-row')).toContainText(`齋藤 花子${n - 1}`);
  // The 30,000 invitations are not this journey's subject: no need to send them all.
  await dropQueuedMail(label);
});
