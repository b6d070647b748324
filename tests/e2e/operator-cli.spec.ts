// Operating the portal (issue 8), end to end: an operator creates a token and then a tenant with
// the command-line tool (real processes, real HTTP against the e2e server); the first admin gets
// the invitation through the real SMTP receiver, opens the tenant's new subdomain, registers and
// signs in. Runs in the "exclusive" project: creating the token writes to the server's database.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BASE, expect, gotoHydrated, LANGUAGES, origin, test } from './fixtures';
import { signInOnTenantHost } from './support/flows';
import { linkIn, waitForMail } from './support/mail';
import { PW_TEXT } from './support/password-text';
import { TEXT } from './support/text';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const PASSWORD = 'Umbrella-First-Admin-2026!';

/** `npm run portal -- <args>` as a separate process (the tool an operator runs). */
async function portal(args: string[], env: Record<string, string> = {}) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(root, 'scripts/portal-cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, PORTAL_URL: `${origin(null)}${BASE}`, ...env },
    timeout: 60_000,
  });
  return stdout;
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('a tenant created with the CLI has its subdomain; its first admin accepts the mailed invitation and signs in', async ({ page, context, checkA11y }) => {
      test.slow();
      const t = TEXT[lang];
      const pw = PW_TEXT[lang];
      // Unique per attempt, so a retried test starts from nothing.
      const suffix = `${lang}${Date.now().toString(36)}`;
      const label = `cli-${suffix}`;
      const name = lang === 'ja' ? `アンブレラ ${suffix} 株式会社` : `Umbrella ${suffix} Inc.`;
      const adminName = lang === 'ja' ? '初代 管理者' : 'First Admin';
      const email = `first-admin-${suffix}@umbrella.test`;
      const dbUrl = `file:${join(process.env.E2E_DB_DIR!, 'portal.db')}`;

      const created = JSON.parse(await portal(['token', 'create', '--name', `e2e ${suffix}`, '--scopes', 'tenants:read,tenants:write', '--libsql', dbUrl, '--json']));
      const env = { PORTAL_OPERATOR_TOKEN: created.token };
      expect(await portal(['whoami'], env)).toContain(`"e2e ${suffix}"`);

      const since = Date.now();
      const out = await portal(
        ['tenants', 'create', '--name', name, '--subdomain', label, '--admin-email', email, '--admin-name', adminName, '--admin-language', lang, '--app', 'meishi=10', '--trial-ends', '2027-01-31'],
        env,
      );
      expect(out).toContain(`Invitation mailed to ${email}.`);
      expect(JSON.parse(await portal(['tenants', 'get', label, '--json'], env))).toMatchObject({ name, initialSubdomain: label, status: 'trial', apps: [{ app: 'meishi', seats: 10, used: 1 }] });

      // The new subdomain is a tenant host at once.
      await gotoHydrated(page, `${origin(label)}${BASE}/login`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.tenantHeading(name));

      const mail = await waitForMail(email, since);
      expect(mail.subject).toContain(name);
      const link = linkIn(mail);
      expect(link.origin).toBe(origin(label));
      await gotoHydrated(page, link.href);
      await expect(page).toHaveTitle(pw.registerTitle);
      await page.getByLabel(pw.registerPassword, { exact: true }).fill(PASSWORD);
      await page.getByLabel(pw.registerConfirmation, { exact: true }).fill(PASSWORD);
      await checkA11y(page, 'register (tenant created by the CLI)');
      await page.getByRole('button', { name: pw.join }).click();
      // One app: straight to it, signed in.
      await expect(page).toHaveURL(`${origin(label)}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toHaveText(t.standInSignedIn(adminName, email));

      // Signed out, the admin signs in again with the new password.
      await context.clearCookies();
      const login = await signInOnTenantHost(page, t, label, email, PASSWORD);
      expect(login.status()).toBe(200);
      await expect(page).toHaveURL(`${origin(label)}/meishi/`);
      await expect(page.getByTestId('stand-in-user')).toHaveText(t.standInSignedIn(adminName, email));

      // The token cannot do what its scopes do not allow (exit code 1, the reason on stderr).
      const refused = await portal(['managers', 'list'], env).then(
        () => 'succeeded',
        (e: { code: number; stderr: string }) => `${e.code} ${e.stderr.trim()}`,
      );
      expect(refused).toBe('1 Error: insufficient-scope (the token lacks the scope managers:read) [HTTP 403]');
    });
  });
}
