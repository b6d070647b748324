// SSO set up from the IdP's metadata (issue 26, decision 0042), in each language on a tenant of
// its own: a preset's guide beside the form; a metadata URL on a private address refused on its
// field; the test IdP's metadata URL (https on loopback, let through by DEV_SSO_METADATA_LOOPBACK)
// fills the form with two signing certificates; saved, the connection test passes with an
// assertion signed by either key (rollover); then metadata XML uploaded as a file with a
// certificate that ends in 5 days: the admin screens show the banner, and the scheduled job mails
// the warning through the real SMTP receiver. axe runs on every new state.
import { BASE, expect, LANGUAGES, test, waitForHydration, type Lang } from './fixtures';
import { signInToPage, toast } from './support/admin-text';
import { IDP_ENTITY_ID } from './support/idp-server';
import { ensureSsoTenant, type SsoTenant } from './support/sso-tenant';
import { waitForMail } from './support/mail';
import { serverEnv } from './support/server-env';
import { buildNodeDeps } from '../../src/entry/node';
import { watchSsoCertificates } from '../../src/domain/sso/certificate-watch';
import type { Page } from '@playwright/test';

const TLS_IDP = `https://127.0.0.1:${process.env.E2E_IDP_TLS_PORT}`;

const T = {
  ja: {
    preset: 'ID プロバイダー',
    guide: 'Okta の設定手順',
    metadataUrl: 'メタデータ URL（https）',
    fetch: 'URL を読み込む',
    file: 'または XML ファイルを選択',
    readXml: 'XML を読み込む',
    refused: 'インターネットから到達できないアドレス',
    filled: 'メタデータから入力しました',
    entityId: 'IdP エンティティ ID',
    ssoUrl: 'サインオン URL',
    save: '保存',
    saved: 'SSO の設定を保存しました',
    source: '証明書は毎日',
    test: 'SSO ログインをテスト',
    passed: 'SSO接続テスト成功',
    switch: 'SSO',
    enabled: 'SSO を有効にしました',
    banner: /ID プロバイダーの SSO 証明書の有効期限は .+ です/,
    mail: 'SSO 証明書の有効期限まであと',
  },
  en: {
    preset: 'Identity provider',
    guide: 'Setting up Okta',
    metadataUrl: 'Metadata URL (https)',
    fetch: 'Read the URL',
    file: 'Or choose an XML file',
    readXml: 'Read the XML',
    refused: 'This address is not reachable from the internet',
    filled: 'Filled in from the metadata',
    entityId: 'IdP entity ID',
    ssoUrl: 'Sign-on URL',
    save: 'Save',
    saved: 'SSO settings saved',
    source: 'Certificates are re-read daily from',
    test: 'Test SSO login',
    passed: 'SSO test passed',
    switch: 'SSO',
    enabled: 'SSO enabled',
    banner: /The SSO certificate of your identity provider expires on .+\./,
    mail: 'the SSO certificate expires in',
  },
};

function metaTenant(lang: Lang): SsoTenant {
  return { label: `ssom-${lang}`, name: `SSO Metadata ${lang}`, admin: `ssom-admin+${lang}@acme.test`, member: `ssom-member+${lang}@acme.test` };
}

/** The connection test in a new window, signed at the IdP with `signer`'s key. */
async function connectionTest(page: Page, lang: Lang, email: string, signer: 'current' | 'next') {
  const s = T[lang];
  const popupPromise = page.context().waitForEvent('page');
  await page.getByRole('button', { name: s.test }).click();
  const popup = await popupPromise;
  await popup.waitForURL(`${TLS_IDP}/sso?**`);
  await popup.getByLabel('IdP email').fill(email);
  await popup.getByLabel('Signing key').selectOption(signer);
  await popup.getByRole('button', { name: 'IdP sign in' }).click();
  await expect(popup.getByRole('heading', { level: 1 })).toHaveText(s.passed);
  await popup.close();
}

for (const { lang, locale } of LANGUAGES) {
  test.describe(`in ${lang === 'ja' ? 'Japanese' : 'English'}`, () => {
    // The test IdP's https pages use the self-signed loopback certificate.
    test.use({ locale, ignoreHTTPSErrors: true });
    const tenant = metaTenant(lang);
    test.beforeAll(async () => {
      await ensureSsoTenant(tenant, lang);
    });

    test('metadata by URL and by XML file, a guide, rollover, the expiry banner and mail', async ({ page, checkA11y, consoleGuard }) => {
      const s = T[lang];
      await signInToPage(page, lang, tenant.label, tenant.admin, '/admin/sso-setting');

      // 1. A preset shows its guide beside the form.
      await page.getByLabel(s.preset, { exact: true }).selectOption('okta');
      await expect(page.getByTestId('sso-guide')).toContainText(s.guide);
      await checkA11y(page, 'SSO settings, Okta guide');

      // 2. A metadata URL on a private address is refused on its field.
      consoleGuard.allowResourceError({ path: `${BASE}/api/admin/saml/metadata`, status: 422 });
      await page.getByLabel(s.metadataUrl).fill('https://10.0.0.1/metadata');
      await page.getByRole('button', { name: s.fetch }).click();
      await expect(page.getByLabel(s.metadataUrl)).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText(s.refused)).toBeVisible();
      await checkA11y(page, 'SSO settings, metadata URL refused');

      // 3. The test IdP's metadata URL fills the form: entity id, https sign-on URL, two certificates.
      await page.getByLabel(s.metadataUrl).fill(`${TLS_IDP}/metadata`);
      await page.getByRole('button', { name: s.fetch }).click();
      await expect(page.getByTestId('metadata-filled')).toContainText(s.filled);
      await expect(page.getByLabel(s.entityId)).toHaveValue(IDP_ENTITY_ID);
      await expect(page.getByLabel(s.ssoUrl)).toHaveValue(`${TLS_IDP}/sso`);
      await expect(page.getByTestId('certificates').getByRole('listitem')).toHaveCount(2);
      await checkA11y(page, 'SSO settings, filled from metadata');
      await page.getByRole('button', { name: s.save, exact: true }).click();
      await expect(toast(page)).toContainText(s.saved);
      await expect(page.getByTestId('metadata-source')).toContainText(s.source);

      // 4. Rollover: the connection test passes signed by the current key and by the next one.
      await connectionTest(page, lang, tenant.admin, 'current');
      await connectionTest(page, lang, tenant.admin, 'next');
      await page.getByRole('switch', { name: s.switch }).click();
      await expect(toast(page)).toContainText(s.enabled);

      // 5. Metadata XML uploaded as a file, with a certificate that ends in 5 days.
      const xml = await (await page.request.get(`${TLS_IDP}/metadata-expiring`)).text();
      await page.getByLabel(s.file).setInputFiles({ name: 'idp-metadata.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) });
      await page.getByRole('button', { name: s.readXml }).click();
      await expect(page.getByTestId('metadata-filled')).toContainText(s.filled);
      await expect(page.getByTestId('certificates').getByRole('listitem')).toHaveCount(1);
      await page.getByRole('button', { name: s.save, exact: true }).click();
      await expect(toast(page)).toContainText(s.saved);
      // Given as XML: no URL to re-read.
      await expect(page.getByTestId('metadata-source')).toHaveCount(0);

      // 6. The banner on the admin screens.
      await page.reload();
      await waitForHydration(page);
      await expect(page.getByTestId('sso-certificate-banner')).toContainText(s.banner);
      await checkA11y(page, 'SSO settings, certificate expiry banner');
      await page.goto(page.url().replace('/admin/sso-setting', '/admin/users'));
      await expect(page.getByTestId('sso-certificate-banner')).toBeVisible();

      // 7. The scheduled job mails the warning (the 7-day threshold) to the tenant's admin, once.
      const since = Date.now();
      const deps = await buildNodeDeps({ ...process.env, ...serverEnv() }, { migrate: false });
      try {
        await watchSsoCertificates(deps);
        await watchSsoCertificates(deps);
      } finally {
        deps.close();
      }
      const mail = await waitForMail(tenant.admin, since);
      expect(mail.subject).toContain(s.mail);
      expect(mail.text).toContain('/admin/sso-setting');
    });
  });
}
