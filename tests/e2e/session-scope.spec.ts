// Issue 21 root 1, decision 0035: a session a tenant's IdP made speaks for that tenant only. A
// person who belongs to two tenants signs in through one tenant's IdP: my-account says what this
// session can do and where to do the rest, lists only that tenant's sessions, offers no other
// organisation, and an account-wide page (invitations) sends them back with a notice.
import { createClient } from '@libsql/client';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { BASE, expect, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { ensureSettingsTenant } from './support/admin-tenants';
import { IDP_ENTITY_ID } from './support/idp-server';
import { TEXT } from './support/text';

const IDP = `http://127.0.0.1:${process.env.E2E_IDP_PORT}`;

const SCOPE_TEXT = {
  ja: {
    title: (tenant: string) => `${tenant} のシングルサインオンでログインしています`,
    signIn: 'パスワードでログインする',
    devices: (tenant: string) => `このセッションは ${tenant} のシングルサインオンで作られたため`,
    notice: 'この操作には、ご自身のパスワードでのログインが必要です',
    changePassword: 'パスワードの変更',
  },
  en: {
    title: (tenant: string) => `You signed in with ${tenant}'s single sign-on`,
    signIn: 'Sign in with your password',
    devices: (tenant: string) => `This session was made by ${tenant}'s single sign-on`,
    notice: 'This needs a sign-in with your own password',
    changePassword: 'Change Password',
  },
};

function idpCertificate(): Promise<string> {
  return new Promise((resolve, reject) => {
    httpRequest(`${IDP}/cert`, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}

/** The person is a member of `home` (SSO on, through the test IdP) and of `other` (password). */
async function prepare(lang: 'ja' | 'en') {
  const home = { label: `scope-${lang}`, name: `Scope Home ${lang}`, ssoUsersLimit: 5 };
  const other = { label: `scope-other-${lang}`, name: `Scope Other ${lang}` };
  const person = `scope-member+${lang}@acme.test`;
  const otherId = await ensureSettingsTenant(other, []);
  const homeId = await ensureSettingsTenant(home, [{ email: person, language: lang, admin: false }]);
  const cert = await idpCertificate();
  const db = createClient({ url: `file:${join(process.env.E2E_DB_DIR!, 'portal.db')}`, timeout: 5000 });
  try {
    const now = Date.now();
    await db.batch(
      [
        { sql: 'DELETE FROM saml_settings WHERE tenant_id = ?', args: [homeId] },
        {
          sql: 'INSERT INTO saml_settings (tenant_id, idp_entity_id, idp_sso_url, idp_slo_url, idp_x509cert, is_idp_configured, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)',
          args: [homeId, IDP_ENTITY_ID, `${IDP}/sso`, `${IDP}/slo`, cert, now, now],
        },
        { sql: 'UPDATE tenants SET is_sso_enabled = 1 WHERE id = ?', args: [homeId] },
        { sql: 'UPDATE tenant_users SET is_sso_enabled = 1 WHERE tenant_id = ?', args: [homeId] },
        { sql: 'DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = ?)', args: [person] },
        {
          sql: `INSERT INTO tenant_users (tenant_id, user_id, is_admin, meishi_access_granted_at, invited_at, created_at, updated_at)
                SELECT ?1, id, 1, ?2, ?2, ?2, ?2 FROM users WHERE email = ?3 ON CONFLICT (tenant_id, user_id) DO NOTHING`,
          args: [otherId, now, person],
        },
      ],
      'write',
    );
  } finally {
    db.close();
  }
  return { home, other, person };
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });

    test('a session made by a tenant\'s IdP sees that tenant only, and my-account says how to do the rest', async ({ page, checkA11y }) => {
      const s = SCOPE_TEXT[lang];
      const t = TEXT[lang];
      const { home, other, person } = await prepare(lang);

      // Every member of the home tenant uses SSO: its login page goes to the IdP, which signs the
      // person in.
      await page.goto(`${origin(home.label)}${BASE}/login?continue=${encodeURIComponent(`${BASE}/my-account`)}`);
      await page.waitForURL(`${IDP}/sso?**`);
      await page.getByLabel('IdP email').fill(person);
      await page.getByRole('button', { name: 'IdP sign in' }).click();
      await expect(page).toHaveURL(`${origin(home.label)}${BASE}/my-account`);
      await waitForHydration(page);

      // What this session is, what it can do, and a way to the person's own sign-in.
      const box = page.getByTestId('account-scope');
      await expect(box.getByRole('heading', { level: 2 })).toHaveText(s.title(home.name));
      await expect(box.getByRole('link', { name: s.signIn })).toHaveAttribute('href', `${origin(null)}${BASE}/login?continue=${encodeURIComponent(`${BASE}/my-account`)}`);
      await expect(page.getByTestId('devices-tenant-scope')).toContainText(s.devices(home.name));
      await expect(page.getByText(s.changePassword, { exact: true })).toHaveCount(0);
      // The other organisation is not offered.
      await page.getByRole('button', { name: t.userMenu }).click();
      await expect(page.getByRole('menuitem', { name: t.switchOrganization })).toHaveCount(0);
      await expect(page.getByText(other.name)).toHaveCount(0);
      await page.keyboard.press('Escape');
      await checkA11y(page, 'my-account, IdP session');

      // An account-wide page sends it back to my-account with a notice.
      await page.goto(`${origin(home.label)}${BASE}/invitations`);
      await expect(page).toHaveURL(`${origin(home.label)}${BASE}/my-account`);
      await waitForHydration(page);
      await expect(page.getByTestId('account-notice')).toContainText(s.notice);
      await checkA11y(page, 'my-account with the sign-in-required notice');
    });
  });
}
