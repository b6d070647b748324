// SSO settings (spec 02 "SSO settings screen"): without the SSO subscription only the premium
// explanation; otherwise the SP values, the IdP form, the connection test and the switch.
import { isSsoSubscribed, samlSettingView } from '../../domain/sso/settings';
import SsoSetting from '../../islands/sso/SsoSetting';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function ssoSettingPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const base = deps.config.BASE_PATH;
  const { data } = await loadFrame(c, c.get('user'));
  const subscribed = isSsoSubscribed(scope.tenant);
  let body;
  if (subscribed) {
    const view = await samlSettingView(deps, scope);
    // The test runs on the initial host, where the ACS is, with the request bound to that host.
    const url = new URL(c.req.url);
    const testUrl = `${url.protocol}//${scope.tenant.initialSubdomain}.${deps.config.PORTAL_DOMAIN}${url.port ? ':' + url.port : ''}${base}/api/saml2/all/login?RelayState=${encodeURIComponent(`${base}/saml-test-passed`)}`;
    const expiresAt = view.saml_setting?.certificate_expires_at;
    body = (
      <Island
        name="SsoSetting"
        component={SsoSetting}
        props={{
          lang,
          basePath: base,
          sp: view.sp,
          setting: view.saml_setting,
          enabled: view.is_idp_configured === 1,
          testUrl,
          certificateExpired: expiresAt ? Date.parse(expiresAt) <= deps.clock.now() : false,
        }}
      />
    );
  } else {
    body = (
      <section aria-labelledby="premium-title" className="max-w-2xl rounded-lg border border-blue-200 bg-blue-50 p-4 text-blue-950" data-testid="sso-premium">
        <h2 id="premium-title" className="m-0 text-lg font-semibold">
          {t('sso.premiumTitle')}
        </h2>
        <p className="mb-3 mt-2">{t('sso.premium')}</p>
        <a className="text-blue-800 underline" href={`${base}/admin/get-more-services`}>
          {t('admin.common.requestFeature')}
        </a>
      </section>
    );
  }
  return renderPage(c, {
    titleKey: 'titles.sso-setting',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.sso-setting" intro={t('sso.intro')} />
        {body}
      </Frame>
    ),
  });
}
