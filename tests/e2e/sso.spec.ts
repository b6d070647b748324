// SAML single sign-on (issue 7; spec 01 "Email-first mode", spec 02 "SSO settings screen"): an
// admin configures SSO with the test IdP's values (tests/e2e/support/idp-server.ts), runs the
// connection test (a new window shows "passed" and closes), and enables SSO; an SSO member types
// the email, is sent to the IdP, signs in there and lands signed in; logout goes to the IdP's
// single-logout URL. Each language has its own tenant (support/sso-tenant.ts).
import { request as httpRequest } from 'node:http';
import { BASE, expect, gotoHydrated, LANGUAGES, origin, test, waitForHydration } from './fixtures';
import { signInToPage, toast } from './support/admin-text';
import { IDP_ENTITY_ID } from './support/idp-server';
import { ensureSsoTenant, setSsoForAll, ssoTenant } from './support/sso-tenant';
import { TEXT } from './support/text';

const IDP = `http://127.0.0.1:${process.env.E2E_IDP_PORT}`;

const SSO_TEXT = {
  ja: {
    title: 'SSO設定',
    entityId: 'IdP エンティティ ID',
    ssoUrl: 'サインオン URL',
    sloUrl: 'サインアウト URL（任意）',
    certificate: 'X.509 証明書（PEM）',
    save: '保存',
    saved: 'SSO の設定を保存しました',
    expires: /^証明書の有効期限: \d{4}\//,
    test: 'SSO ログインをテスト',
    passed: 'SSO接続テスト成功',
    close: '閉じる',
    switch: 'SSO',
    enabled: 'SSO を有効にしました',
    failed: 'エラーが発生しました。ページを再読み込みしてください',
    loginError: 'SSOログインエラー',
  },
  en: {
    title: 'SSO Settings',
    entityId: 'IdP entity ID',
    ssoUrl: 'Sign-on URL',
    sloUrl: 'Sign-out URL (optional)',
    certificate: 'X.509 certificate (PEM)',
    save: 'Save',
    saved: 'SSO settings saved',
    expires: /^Certificate expires: \d{4}\//,
    test: 'Test SSO login',
    passed: 'SSO test passed',
    close: 'Close',
    switch: 'SSO',
    enabled: 'SSO enabled',
    failed: 'An error occurred, please reload this page',
    loginError: 'SSO login error',
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

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    test.use({ locale });
    const tenant = ssoTenant(lang);
    test.beforeAll(async () => {
      await ensureSsoTenant(tenant, lang);
    });

    test('an admin configures, tests and enables SSO; a member signs in at the IdP and logs out there', async ({ page, browser, checkA11y, consoleGuard }) => {
      const s = SSO_TEXT[lang];
      const t = TEXT[lang];
      // 1. The admin opens the settings screen: SP values under the initial subdomain, switch off.
      await signInToPage(page, lang, tenant.label, tenant.admin, '/admin/sso-setting');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(s.title);
      await expect(page.getByText(`${origin(tenant.label)}${BASE}/api/saml2/all/acs`)).toBeVisible();
      await expect(page.getByRole('switch', { name: s.switch })).toBeDisabled();
      await expect(page.getByRole('button', { name: s.test })).toBeDisabled();
      await checkA11y(page, 'SSO settings, empty');

      // 2. The IdP's values: entity id, sign-on and sign-out URLs, certificate; saved, expiry shown.
      await page.getByLabel(s.entityId).fill(IDP_ENTITY_ID);
      await page.getByLabel(s.ssoUrl).fill(`${IDP}/sso`);
      await page.getByLabel(s.sloUrl).fill(`${IDP}/slo`);
      // The server refuses a text that is not a certificate (a 422 the form shows on the field).
      consoleGuard.allowResourceError({ path: `${BASE}/api/admin/saml`, status: 422 });
      await page.getByLabel(s.certificate).fill('not a certificate');
      await page.getByRole('button', { name: s.save, exact: true }).click();
      await expect(page.getByLabel(s.certificate)).toHaveAttribute('aria-invalid', 'true');
      await page.getByLabel(s.certificate).fill(await idpCertificate());
      await page.getByRole('button', { name: s.save, exact: true }).click();
      await expect(toast(page)).toContainText(s.saved);
      await expect(page.getByTestId('certificate-expiry')).toHaveText(s.expires);
      await expect(page.getByRole('switch', { name: s.switch })).toBeEnabled();
      await checkA11y(page, 'SSO settings, stored');

      // 3. The connection test opens in a new window, signs in at the IdP and shows "passed".
      const popupPromise = page.context().waitForEvent('page');
      await page.getByRole('button', { name: s.test }).click();
      const popup = await popupPromise;
      await popup.waitForURL(`${IDP}/sso?**`);
      await popup.getByLabel('IdP email').fill(tenant.admin);
      await popup.getByRole('button', { name: 'IdP sign in' }).click();
      await expect(popup.getByRole('heading', { level: 1 })).toHaveText(s.passed);
      await waitForHydration(popup);
      await checkA11y(popup, 'saml-test-passed');
      const closed = popup.waitForEvent('close');
      // The click closes the window it happens in: Playwright may report the page gone before the
      // click returns, which is the expected outcome here, not a failure.
      await popup
        .getByRole('button', { name: s.close })
        .click()
        .catch((e: unknown) => {
          if (!popup.isClosed()) throw e;
        });
      await closed;

      // 4. The switch turns SSO on; when the call fails it flips back and says so.
      consoleGuard.allowResourceError({ path: `${BASE}/api/admin/saml/configure-idp-status`, status: 500 });
      await page.route(`**${BASE}/api/admin/saml/configure-idp-status`, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"server-error"}' }), { times: 1 });
      await page.getByRole('switch', { name: s.switch }).click();
      await expect(toast(page)).toContainText(s.failed);
      await expect(page.getByRole('switch', { name: s.switch })).toHaveAttribute('aria-checked', 'false');
      await page.getByRole('switch', { name: s.switch }).click();
      await expect(toast(page)).toContainText(s.enabled);
      await expect(page.getByRole('switch', { name: s.switch })).toHaveAttribute('aria-checked', 'true');

      // The failure page of the SSO flow (also what the IdP's errors show), with its close button.
      await gotoHydrated(page, `${origin(tenant.label)}${BASE}/saml-login-error`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(s.loginError);
      await expect(page.getByRole('button', { name: s.close })).toBeVisible();
      await checkA11y(page, 'saml-login-error');

      // 5. The SSO member: email, Next, the IdP's login page, back signed in (one app: the card app).
      const memberContext = await browser.newContext({ locale });
      const member = await memberContext.newPage();
      await gotoHydrated(member, `${origin(tenant.label)}${BASE}/login`);
      await member.getByLabel(t.email).fill(tenant.member);
      await member.getByRole('button', { name: t.next, exact: true }).click();
      await member.waitForURL(`${IDP}/sso?**`);
      await member.getByLabel('IdP email').fill(tenant.member);
      await member.getByRole('button', { name: 'IdP sign in' }).click();
      await expect(member).toHaveURL(`${origin(tenant.label)}/meishi/`);
      await expect(member.getByTestId('stand-in-user')).toContainText(tenant.member);

      // 6. Logout goes to the IdP's single-logout URL with a LogoutRequest; the portal session is gone.
      await gotoHydrated(member, `${origin(tenant.label)}${BASE}/my-account`);
      await member.getByRole('button', { name: t.userMenu }).click();
      await member.getByRole('banner').getByRole('button', { name: t.logout }).click();
      await member.waitForURL(`${IDP}/slo?**`);
      await expect(member.getByTestId('idp-slo')).toHaveText('LogoutRequest received');
      await member.goto(`${origin(tenant.label)}${BASE}/my-account`);
      await expect(member).toHaveURL(`${origin(tenant.label)}${BASE}/login?continue=%2Faccounts%2Fmy-account`);

      // 7. Once every member uses SSO, the login page goes straight to the IdP.
      await setSsoForAll(tenant);
      await member.goto(`${origin(tenant.label)}${BASE}/login`);
      await member.waitForURL(`${IDP}/sso?**`);
      await memberContext.close();
    });
  });
}
