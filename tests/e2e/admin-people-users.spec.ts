// User management (spec 02 "User management screen", "Add-user dialog", "Deactivated users
// screen", sections 4, 5, 7 and 8): an admin meets the intro tour, adds a user who receives the
// invitation mail, resends it, finds the card app out of seats, gives the user the scheduler's
// last seat (and sees the schedule count before taking it away), deactivates them, gives the freed
// card seat to another user (so reactivation is refused for want of a seat), deletes that user
// and watches the "deleting" chip go, reactivates the first, cannot deactivate or delete the last
// admin, and finally downloads the audit log of all this and reads it back. On a tenant of its
// own per language (support/people.ts), with axe on every screen and dialog.
import { readFileSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import { BASE, expect, LANGUAGES, test, waitForHydration } from './fixtures';
import { signInToPage, toast } from './support/admin-text';
import { mailsTo, waitForMail } from './support/mail';
import { ensurePeopleTenant, PEOPLE_TEXT, personEmail } from './support/people';

/** The demo admin's name (src/db/seed.ts); the journey's admin is a copy of them. */
const ADMIN_NAME = 'Acme 管理者';
const AUDIT_HEADER = {
  ja: '日時,操作者,操作者メールアドレス,操作,対象種別,対象ID,IPアドレス,ユーザーエージェント,詳細',
  en: 'Time,Actor,Actor email,Action,Target type,Target id,IP address,User agent,Details',
};

/** A row's actions are a menu (kit/DataTable.tsx): open it, then pick the action by its name. */
async function rowAction(row: Locator, menuName: string, actionName: string): Promise<void> {
  await row.getByRole('button', { name: menuName }).click();
  await row.getByRole('button', { name: actionName }).click();
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const label = `pu-${lang}`;
    const admin = `pu-admin+${lang}@acme.test`;
    const name = lang === 'ja' ? '佐藤 花子' : 'Hanako Sato';
    const email = personEmail('hanako', label);

    test.beforeAll(async () => {
      // One card app seat and one scheduler seat are free besides the admin's.
      await ensurePeopleTenant({ label, lang, admin, meishiSeats: 2, schedulerSeats: 1 });
    });

    test('add, invite, seats, deactivate and reactivate, delete, audit log', async ({ page, consoleGuard, checkA11y }) => {
      const x = PEOPLE_TEXT[lang];
      const started = Date.now();
      await signInToPage(page, lang, label, admin, '/admin/users');
      await expect(page).toHaveTitle(`${x.usersTitle} | Nexta Meishi`);
      const rows = page.getByTestId('user-row');
      await expect(rows).toHaveCount(1);

      // The tenant has exactly one user: the intro tour shows once (local storage).
      const tour = page.getByTestId('intro-tour');
      await expect(tour).toContainText(x.tourTitle);
      await checkA11y(page, 'users, intro tour');
      await tour.getByRole('button', { name: x.tourDone }).click();
      await expect(tour).toBeHidden();
      await page.reload();
      await waitForHydration(page);
      await expect(tour).toHaveCount(0);

      // Add a user: the form's own checks first.
      const addButton = page.getByRole('button', { name: x.add, exact: true });
      await addButton.click();
      const dialog = page.getByRole('dialog', { name: x.addDialog });
      const nameField = dialog.getByRole('textbox', { name: x.name, exact: true });
      const emailField = dialog.getByRole('textbox', { name: x.email, exact: true });
      await expect(nameField).toBeFocused();
      const submit = dialog.getByRole('button', { name: x.addSubmit, exact: true });
      await expect(submit).toBeDisabled();
      await emailField.fill('not-an-email');
      await emailField.blur();
      await expect(emailField).toHaveAccessibleDescription(x.emailInvalid);
      await checkA11y(page, 'add-user dialog, invalid email');
      await nameField.fill(name);
      await emailField.fill(email);
      await expect(dialog.getByRole('checkbox', { name: x.meishi })).toBeChecked();
      await submit.click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.added}`));
      await expect(dialog).toBeHidden();
      const row = rows.filter({ hasText: email });
      await expect(row).toContainText(name);
      // With the scheduler's column too, the fixed columns leave the email room at 1280px (it had
      // 54px once, a few letters a line), and nothing scrolls sideways.
      expect((await page.getByTestId('users-table').getByRole('columnheader').nth(1).boundingBox())!.width).toBeGreaterThanOrEqual(96);
      expect(await page.getByTestId('users-table-wrap').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

      // The invitation mail, then a second one from the row's resend button, which says "invite
      // sent" for the rest of the session.
      const invitation = await waitForMail(email, started, 20_000);
      expect(invitation.text).toContain(`/accounts/register/`);
      const resend = row.getByRole('button', { name: x.resendLabel(name) });
      await resend.click();
      await expect(row.getByRole('button', { name: x.inviteSent })).toBeDisabled();
      await expect.poll(async () => (await mailsTo(email, started)).length, { timeout: 20_000 }).toBe(2);

      // The card app has no free seat now: a new user cannot have it, the scheduler is offered.
      await addButton.click();
      const meishiBox = dialog.getByRole('checkbox', { name: x.meishi });
      await expect(meishiBox).toBeDisabled();
      await expect(meishiBox).toHaveAccessibleDescription(x.noSeats);
      await expect(dialog.getByRole('checkbox', { name: x.scheduler })).toBeEnabled();
      await checkA11y(page, 'add-user dialog, no card seat');
      await dialog.getByRole('button', { name: x.cancel }).click();
      await expect(dialog).toBeHidden();

      // The user keeps the card app they hold, and takes the scheduler's last seat.
      await rowAction(row, x.actionsFor(name), x.edit(name));
      const edit = page.getByRole('dialog', { name: x.editDialog });
      await expect(edit.getByRole('checkbox', { name: x.meishi })).toBeChecked();
      await expect(edit.getByRole('checkbox', { name: x.meishi })).toBeEnabled();
      await edit.getByRole('checkbox', { name: x.scheduler }).check();
      await checkA11y(page, 'edit-user dialog');
      await edit.getByRole('button', { name: x.save }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.updated}`));
      await expect(edit).toBeHidden();

      // Taking the scheduler away asks first, with the schedule count the scheduler reports (the
      // dev stand-in app holds none). Cancel keeps it.
      await rowAction(row, x.actionsFor(name), x.edit(name));
      await edit.getByRole('checkbox', { name: x.scheduler }).uncheck();
      await edit.getByRole('button', { name: x.save }).click();
      const removal = page.getByRole('dialog', { name: x.removeTitle });
      await expect(removal).toContainText(x.removeScheduler(0));
      await checkA11y(page, 'remove-app confirmation');
      await removal.getByRole('button', { name: x.cancel }).click();
      await expect(removal).toBeHidden();
      await expect(edit).toBeVisible();
      await expect(edit.getByRole('checkbox', { name: x.scheduler })).not.toBeChecked();
      await edit.getByRole('button', { name: x.cancel }).click();
      await expect(edit).toBeHidden();

      // The admin cannot have the scheduler now; as the only admin, the admin switch stays on and says why.
      await rowAction(rows.filter({ hasText: admin }), x.actionsFor(ADMIN_NAME), x.edit(ADMIN_NAME));
      await expect(edit.getByRole('checkbox', { name: x.scheduler })).toBeDisabled();
      await expect(edit.getByRole('checkbox', { name: x.scheduler })).toHaveAccessibleDescription(x.noSeats);
      await expect(edit.getByTestId('is-admin')).toBeChecked();
      await expect(edit.getByTestId('is-admin')).toBeDisabled();
      await expect(edit.getByTestId('is-admin')).toHaveAccessibleDescription(x.lastAdminReason);
      await edit.getByRole('button', { name: x.cancel }).click();

      // Deactivate: the confirmation names the apps the user loses.
      await rowAction(row, x.actionsFor(name), x.deactivate(name));
      const confirm = page.getByRole('dialog', { name: x.deactivateTitle });
      await expect(confirm.getByTestId('deactivate-apps')).toHaveText(lang === 'ja' ? `${x.meishi}、${x.scheduler}` : `${x.meishi}, ${x.scheduler}`);
      await checkA11y(page, 'deactivate confirmation');
      await confirm.getByRole('button', { name: x.deactivateConfirm, exact: true }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.deactivated(name)}`));
      await expect(row).toHaveCount(0);

      // Deactivation freed the user's seats: another user takes the card app's.
      const other = lang === 'ja' ? '田中 次郎' : 'Jiro Tanaka';
      const otherEmail = personEmail('jiro', label);
      await addButton.click();
      await nameField.fill(other);
      await emailField.fill(otherEmail);
      await expect(dialog.getByRole('checkbox', { name: x.meishi })).toBeChecked();
      await submit.click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.added}`));
      const otherRow = rows.filter({ hasText: otherEmail });
      await expect(otherRow).toContainText(other);

      // The deactivated list, through the toolbar's menu: no card seat, so no reactivation.
      const toDeactivated = async () => {
        await page.getByRole('button', { name: x.more }).click();
        await page.getByRole('link', { name: x.viewDeactivated }).click();
        await expect(page).toHaveTitle(`${x.deactivatedTitle} | Nexta Meishi`);
        await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-island="DeactivatedUsers"]')?.dataset.hydrated === 'true');
      };
      const backToUsers = async () => {
        await page.getByRole('link', { name: x.back }).click();
        await expect(page).toHaveTitle(`${x.usersTitle} | Nexta Meishi`);
        await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-island="UsersScreen"]')?.dataset.hydrated === 'true');
      };
      await toDeactivated();
      const gone = page.getByTestId('deactivated-row').filter({ hasText: email });
      await expect(gone).toContainText(name);
      await gone.getByRole('button', { name: x.actionsFor(name) }).click();
      await expect(gone.getByRole('button', { name: x.reactivate })).toBeDisabled();
      await expect(gone.getByRole('button', { name: x.reactivate })).toHaveAccessibleDescription(x.noSeatToReactivate);
      await checkA11y(page, 'deactivated users, menu open, no seat');
      await page.keyboard.press('Escape');
      await backToUsers();

      // Delete the other user: the deletion runs in the background; the chip shows until it is done.
      await rowAction(otherRow, x.actionsFor(other), x.deleteUser(other));
      const del = page.getByRole('dialog', { name: x.deleteTitle });
      await checkA11y(page, 'delete confirmation');
      await del.getByRole('button', { name: x.delete, exact: true }).click();
      await expect(otherRow.getByTestId('deleting-chip')).toHaveText(x.deleting);
      await expect(otherRow.getByRole('button', { name: x.actionsFor(other) })).toBeDisabled();
      await expect(otherRow).toHaveCount(0);
      await expect(rows).toHaveCount(1);

      // Now the seat is free again: reactivate from the row's menu.
      await toDeactivated();
      await gone.getByRole('button', { name: x.actionsFor(name) }).click();
      await gone.getByRole('button', { name: x.reactivate }).click();
      const reactivate = page.getByRole('dialog', { name: x.reactivateTitle });
      await checkA11y(page, 'reactivate confirmation');
      await reactivate.getByRole('button', { name: x.reactivate }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.reactivated(name)}`));
      await expect(gone).toHaveCount(0);
      await backToUsers();
      await expect(row).toContainText(name);
      await expect(rows).toHaveCount(2);

      // A new email address: the user is invited again there.
      const newEmail = personEmail('hanako2', label);
      const beforeChange = Date.now();
      await rowAction(row, x.actionsFor(name), x.edit(name));
      await edit.getByRole('textbox', { name: x.email, exact: true }).fill(newEmail);
      await edit.getByRole('button', { name: x.save }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.updatedNewEmail}`));
      await expect(rows.filter({ hasText: newEmail })).toContainText(name);
      await waitForMail(newEmail, beforeChange, 20_000);

      // The last admin can be neither deactivated nor deleted (the server says so).
      const adminRow = rows.filter({ hasText: admin });
      const adminId = await adminRow.getAttribute('data-id');
      consoleGuard.allowResourceError({ path: `${BASE}/api/admin/users/${adminId}/deactivate`, status: 422 });
      consoleGuard.allowResourceError({ path: `${BASE}/api/admin/users/${adminId}`, status: 400 });
      await rowAction(adminRow, x.actionsFor(ADMIN_NAME), x.deactivate(ADMIN_NAME));
      await confirm.getByRole('button', { name: x.deactivateConfirm, exact: true }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.lastAdminDeactivate}`));
      await rowAction(adminRow, x.actionsFor(ADMIN_NAME), x.deleteUser(ADMIN_NAME));
      await del.getByRole('button', { name: x.delete, exact: true }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.lastAdminDelete}`));
      await expect(rows).toHaveCount(2);

      // The audit log of all this, as a CSV with a BOM, named by the localised title and a timestamp.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: x.auditDownload }).click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${x.auditTitle}\\d{14}\\.csv$`));
      const bytes = readFileSync((await download.path())!);
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.subarray(3).toString('utf8').split(/\r?\n/);
      expect(lines[0]).toBe(AUDIT_HEADER[lang]);
      // Every change of this journey, by this admin, newest first or not: each action is there.
      const body = lines.slice(1).join('\n');
      for (const action of ['user.created', 'user.invited', 'user.updated', 'user.deactivated', 'user.reactivated', 'user.deletion_started', 'user.deleted']) {
        expect(body, `audit log has ${action}`).toContain(action);
      }
      expect(lines.filter((l) => l.includes(admin)).length).toBeGreaterThanOrEqual(6);
    });
  });
}
