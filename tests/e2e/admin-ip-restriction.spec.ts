// IP restriction (spec 02 "IP restriction screen", sections 4, 5 and 8): the admin meets the
// entry rules and the server's refusals, cannot enable the restriction before listing their own
// address, enables it after the confirmation, cannot delete the entry they are using, and then a
// member signing in from another address is refused while one at the office gets in.
//
// Every e2e request comes from 127.0.0.1, which is no public address: each browser context
// chooses its address with X-Forwarded-For, which the e2e server trusts (TRUST_PROXY).
import type { Page } from '@playwright/test';
import { BASE, DEMO_PASSWORD, expect, LANGUAGES, origin, test } from './fixtures';
import { signInOnTenantHost } from './support/flows';
import { ADMIN_TEXT, signInToPage, toast } from './support/admin-text';
import { ensureSettingsTenant, serverTrustsForwardedFor } from './support/admin-tenants';
import { openServerDb } from './support/db-write';
import { TEXT } from './support/text';

const api = (path: string) => `${BASE}/api/${path}`;
// Public addresses (the documentation ranges are reserved, and the server refuses them).
const ADMIN_IP = '133.242.10.20';
const OFFICE = '133.242.20.0/24';
const AT_OFFICE = '133.242.20.9';
const ELSEWHERE = '133.243.1.1';

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale, extraHTTPHeaders: { 'X-Forwarded-For': ADMIN_IP } });
    const label = `ip-${lang}`;
    const admin = `ip-admin+${lang}@acme.test`;
    const member = `ip-member+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureSettingsTenant({ label, name: `IP Tenant ${lang}`, ipRestrictionSubscribed: true }, [
        { email: admin, language: lang, admin: true },
        { email: member, language: lang, admin: false },
      ]);
    });

    test('an admin lists addresses and enables the restriction; a member elsewhere is refused', async ({ page, browser, consoleGuard, checkA11y }) => {
      // The journey chooses client addresses with X-Forwarded-For (TRUST_PROXY in server-env.ts).
      expect(serverTrustsForwardedFor(), 'the e2e server must trust X-Forwarded-For').toBe(true);
      const x = ADMIN_TEXT[lang];
      await signInToPage(page, lang, label, admin, '/admin/ip-restriction');
      await expect(page).toHaveTitle(x.title(x.ipRestriction));
      await expect(page.getByTestId('current-ip')).toHaveText(x.currentIp(ADMIN_IP));
      const toggle = page.getByRole('switch', { name: x.ipSwitch });
      await expect(toggle).toBeDisabled();
      await expect(toggle).toHaveAttribute('aria-checked', 'false');
      await expect(page.getByText(x.ipEmpty)).toBeVisible();
      await checkA11y(page, 'IP restriction, empty');

      // The form's own rules: the Add button waits for a valid entry.
      const ip = page.getByRole('textbox', { name: x.ipField, exact: true });
      const add = page.getByRole('button', { name: x.add, exact: true });
      await expect(add).toBeDisabled();
      await ip.fill('1.2.3');
      await ip.blur();
      await expect(ip).toHaveAccessibleDescription(new RegExp(`^${x.ipInvalid}`));
      await expect(add).toBeDisabled();
      await ip.fill('127.0.0.1');
      await expect(ip).toHaveAccessibleDescription(new RegExp(`^${x.ipLocal}`));
      await expect(add).toBeDisabled();
      await checkA11y(page, 'IP restriction, invalid entry');

      // The server's: a private address, then a duplicate.
      consoleGuard.allowResourceError({ path: api('admin/whitelisted-ips'), status: 422 });
      await ip.fill('10.1.2.3');
      await add.click();
      await expect(ip).toHaveAccessibleDescription(new RegExp(`^${x.ipNotPublic}`));
      await expect(ip).toBeFocused();

      await ip.fill(OFFICE);
      await page.getByRole('textbox', { name: x.ipDescription, exact: true }).fill('本社 / Head office');
      await add.click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.ipAdded}`));
      const list = page.getByTestId('ip-list');
      await expect(list.getByRole('row').nth(1)).toContainText(OFFICE);
      await expect(list.getByRole('row').nth(1)).toContainText('本社 / Head office');
      await expect(ip).toHaveValue('');
      await expect(toggle).toBeEnabled();

      // The member signed in yesterday from elsewhere, their only sign-in: the lock-out preview names them.
      const db = openServerDb();
      try {
        await db.batch(
          [
            {
              sql: `INSERT INTO activity_logs (tenant_id, actor_user_id, action, ip_address, created_at)
                    SELECT t.id, u.id, 'login.succeeded', ?, ? FROM tenants t CROSS JOIN users u WHERE t.initial_subdomain = ? AND u.email = ?`,
              args: [ELSEWHERE, Date.now() - 86_400_000, label, member],
            },
          ],
          'write',
        );
      } finally {
        db.close();
      }

      // Enabling shows the preview first, and refuses while the admin's own address is not listed.
      consoleGuard.allowResourceError({ path: api('admin/enable-ip-restriction'), status: 422 });
      await toggle.click();
      const confirm = page.getByRole('dialog', { name: x.enableTitle });
      await expect(confirm.getByRole('button', { name: x.cancel })).toBeFocused();
      await expect(confirm.getByRole('list', { name: x.lockoutListLabel })).toContainText(member);
      await expect(confirm.getByRole('list', { name: x.lockoutListLabel })).toContainText(x.lockoutReasonOutside);
      await expect(confirm).toContainText(x.lockoutOwnOutside(ADMIN_IP));
      await checkA11y(page, 'enable lock-out preview');
      // The admin too: their own sign-in came from an address the list does not hold yet.
      await confirm.getByRole('button', { name: x.lockoutConfirm(2) }).click();
      await expect(confirm).toBeHidden();
      await expect(page.getByTestId('ip-switch-error')).toHaveText(x.notWhitelisted(ADMIN_IP));
      await expect(toggle).toHaveAttribute('aria-checked', 'false');

      // "Add my current address" adds it in one step (decision 0033), and is gone once listed.
      const mine = page.getByTestId('add-current-ip');
      await expect(mine).toContainText(ADMIN_IP);
      await mine.click();
      await expect(list.getByRole('row').nth(2)).toContainText(ADMIN_IP);
      await expect(mine).toHaveCount(0);
      // The snackbar says so; nothing covers it: it takes a click on its close button.
      await expect(toast(page)).toHaveText(new RegExp(`^${x.ipAdded}`));
      await toast(page).getByRole('button').click();
      await expect(toast(page)).toHaveCount(0);
      // Prefix 32 is shown without a suffix.
      await expect(list.getByRole('row').nth(2).getByRole('cell').first()).toHaveText(ADMIN_IP);
      await ip.fill(`${ADMIN_IP}/32`);
      await add.click();
      await expect(ip).toHaveAccessibleDescription(new RegExp(`^${x.ipDuplicate}`));

      await toggle.click();
      await expect(confirm).toContainText(x.lockoutOwnAllowed(ADMIN_IP));
      const enabled = page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/admin/enable-ip-restriction`);
      await confirm.getByRole('button', { name: x.lockoutConfirm(1) }).click();
      expect(new URL((await enabled).url()).searchParams.get('confirmAffected')).toBe('1');
      await expect(toast(page)).toHaveText(new RegExp(`^${x.ipEnabled}`));
      await expect(toggle).toHaveAttribute('aria-checked', 'true');
      await expect(page.getByTestId('ip-switch-error')).toHaveCount(0);

      // The entry the admin is using cannot go while the restriction is on.
      consoleGuard.allowResourceError({ path: api(`admin/whitelisted-ips/${await ownEntryId(page)}`), status: 422 });
      await page.getByRole('button', { name: x.deleteIp(ADMIN_IP) }).click();
      const del = page.getByRole('dialog', { name: x.deleteIpTitle });
      // While on, a removal is previewed too: the admin's own address would be outside.
      await expect(del).toContainText(x.lockoutOwnOutside(ADMIN_IP));
      await del.getByRole('button', { name: x.lockoutConfirm(2) }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.cannotDelete}`));
      await expect(list.getByRole('row')).toHaveCount(3);

      // A member signing in from elsewhere is refused; at the office they get in.
      const elsewhere = await browser.newContext({ locale, extraHTTPHeaders: { 'X-Forwarded-For': ELSEWHERE } });
      const away = await elsewhere.newPage();
      const refused = await signInOnTenantHost(away, TEXT[lang], label, member, DEMO_PASSWORD);
      expect(refused.status()).toBe(403);
      expect(await refused.json()).toMatchObject({ message: 'restricted-ip' });
      // The refusal names the address and who to ask (issue 27 part 7).
      await expect(away.getByRole('alert')).toHaveText(x.restrictedIpAt(ELSEWHERE));
      await elsewhere.close();
      const office = await browser.newContext({ locale, extraHTTPHeaders: { 'X-Forwarded-For': AT_OFFICE } });
      const desk = await office.newPage();
      expect((await signInOnTenantHost(desk, TEXT[lang], label, member, DEMO_PASSWORD)).status()).toBe(200);
      await expect(desk).toHaveURL(`${origin(label)}/meishi/`);
      await office.close();

      // Turning it off needs no confirmation.
      await toggle.click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.ipDisabled}`));
      await expect(toggle).toHaveAttribute('aria-checked', 'false');
    });
  });
}

/** The id of the admin's own entry (GET admin/whitelisted-ips in the admin's session). */
async function ownEntryId(page: Page): Promise<number> {
  const res = await page.evaluate(async (path) => {
    const r = await fetch(path, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    return (await r.json()) as { id: number; ip_address: string }[];
  }, api('admin/whitelisted-ips'));
  const own = res.find((e) => e.ip_address === ADMIN_IP);
  if (!own) throw new Error('the admin address is not listed');
  return own.id;
}
