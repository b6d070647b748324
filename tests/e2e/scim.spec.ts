// Provisioning (SCIM) (decision 0040): an admin opens the screen from the drawer, copies the base
// URL, creates a token that is shown once (and copies it), sees it listed without its secret,
// the IdP's request with it works, and revoking it after a confirmation stops it at once. Texts
// written out literally (not looked up in locales/*.json), as support/text.ts explains. On a
// tenant of its own (support/admin-tenants.ts) with the SSO subscription SCIM comes with.
import type { Page } from '@playwright/test';
import { BASE, expect, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { signInToPage, toast } from './support/admin-text';
import { ensureSettingsTenant } from './support/admin-tenants';

const TEXT = {
  ja: {
    title: 'プロビジョニング (SCIM) | Nexta Meishi',
    heading: 'プロビジョニング (SCIM)',
    copyUrl: 'SCIM ベース URL をコピー',
    copied: 'コピーしました',
    name: 'トークン名',
    create: 'トークンを作成',
    made: (n: string) => `トークン「${n}」を作成しました`,
    copyToken: 'トークンをコピー',
    done: '完了',
    active: '有効',
    revoked: '無効',
    never: '未使用',
    revoke: (n: string) => `トークン ${n} を無効にする`,
    revokeTitle: 'このトークンを無効にしますか?',
    revokeButton: '無効にする',
    revokedToast: (n: string) => `トークン「${n}」を無効にしました`,
  },
  en: {
    title: 'Provisioning (SCIM) | Nexta Meishi',
    heading: 'Provisioning (SCIM)',
    copyUrl: 'Copy the SCIM base URL',
    copied: 'Copied',
    name: 'Token name',
    create: 'Create token',
    made: (n: string) => `Token "${n}" created`,
    copyToken: 'Copy the token',
    done: 'Done',
    active: 'Active',
    revoked: 'Revoked',
    never: 'Never',
    revoke: (n: string) => `Revoke the token ${n}`,
    revokeTitle: 'Revoke this token?',
    revokeButton: 'Revoke',
    revokedToast: (n: string) => `The token "${n}" was revoked`,
  },
} as const;

/** A SCIM GET as an IdP makes it (bearer token), sent by the page's own fetch. */
function scimGet(page: Page, url: string, token: string): Promise<{ status: number; type: string; body: unknown }> {
  return page.evaluate(
    async ([u, tok]) => {
      const r = await fetch(u!, { headers: { authorization: `Bearer ${tok}`, accept: 'application/scim+json' } });
      return { status: r.status, type: r.headers.get('content-type') ?? '', body: await r.json() };
    },
    [url, token],
  );
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const label = `scim-${lang}`;
    const admin = `scim-admin+${lang}@acme.test`;

    test.beforeAll(async () => {
      await ensureSettingsTenant({ label, name: `SCIM Tenant ${lang}`, ssoUsersLimit: 5 }, [{ email: admin, language: lang, admin: true }]);
    });

    test('an admin creates a token (shown once, copied), the IdP uses it, and revoking stops it', async ({ page, context, consoleGuard, checkA11y }) => {
      const x = TEXT[lang];
      await signInToPage(page, lang, label, admin, '/my-account');
      await page.getByRole('navigation').getByRole('link', { name: x.heading }).click();
      await expect(page).toHaveURL(`${origin(label)}${BASE}/admin/scim`);
      await expect(page).toHaveTitle(x.title);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.heading);
      const baseUrl = `${origin(label)}${BASE}/scim/v2`;
      await expect(page.getByTestId('scim-base-url')).toHaveText(baseUrl);
      await checkA11y(page, 'SCIM screen');

      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: origin(label) });
      await page.getByRole('button', { name: x.copyUrl }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(baseUrl);

      const name = `Entra ${lang} ${Date.now()}`;
      await page.getByRole('textbox', { name: x.name }).fill(name);
      await page.getByRole('button', { name: x.create }).click();
      const made = page.getByRole('dialog', { name: x.made(name) });
      await expect(made).toBeVisible();
      const secret = (await made.getByTestId('scim-token-secret').textContent()) ?? '';
      expect(secret).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
      await checkA11y(page, 'token shown once');
      await made.getByRole('button', { name: x.copyToken }).click();
      await expect(made).toContainText(x.copied);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await made.getByRole('button', { name: x.done }).click();
      await expect(made).toBeHidden();

      const row = page.getByTestId('scim-tokens').getByRole('row', { name: new RegExp(name) });
      await expect(row).toContainText(x.active);
      await expect(row).toContainText(x.never);

      // The IdP's first call with the token works (sent from the page: Node's resolver does not know
      // *.localhost, Chromium does); the page (reloaded) never shows the secret again.
      const ok = await scimGet(page, `${baseUrl}/ServiceProviderConfig`, secret);
      expect(ok.status).toBe(200);
      expect(ok.type).toMatch(/^application\/scim\+json/);
      await page.reload();
      await waitForHydration(page);
      await expect(page.getByTestId('scim-tokens')).toContainText(name);
      expect(await page.content()).not.toContain(secret);

      await page.getByRole('button', { name: x.revoke(name) }).click();
      const confirm = page.getByRole('dialog', { name: x.revokeTitle });
      await expect(confirm).toBeVisible();
      await checkA11y(page, 'revoke confirmation');
      await confirm.getByRole('button', { name: x.revokeButton, exact: true }).click();
      await expect(toast(page)).toHaveText(new RegExp(`^${x.revokedToast(name)}`));
      await expect(page.getByTestId('scim-tokens').getByRole('row', { name: new RegExp(name) })).toContainText(x.revoked);
      consoleGuard.allowResourceError({ path: `${BASE}/scim/v2/Users`, status: 401 });
      const refused = await scimGet(page, `${baseUrl}/Users`, secret);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ status: '401', schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'] });
    });
  });
}
