// "Provisioning (SCIM)" (decision 0040): without the SSO subscription only the explanation of how
// to get it (no token is read); otherwise the base URL, the tokens and the apps for provisioned
// people, in the ScimProvisioning island.
import { scimOverview } from '../../domain/scim/settings';
import { isSsoSubscribed } from '../../domain/sso/settings';
import ScimProvisioning from '../../islands/scim/ScimProvisioning';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function scimProvisioningPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const base = deps.config.BASE_PATH;
  const { data } = await loadFrame(c, c.get('user'));
  const body = isSsoSubscribed(scope.tenant) ? (
    <Island name="ScimProvisioning" component={ScimProvisioning} props={{ lang, basePath: base, overview: await scimOverview(deps, scope), now: deps.clock.now() }} />
  ) : (
    <section aria-labelledby="premium-title" className="max-w-2xl rounded-lg border border-blue-200 bg-blue-50 p-4 text-blue-950" data-testid="scim-premium">
      <h2 id="premium-title" className="m-0 text-lg font-semibold">
        {t('scim.premiumTitle')}
      </h2>
      <p className="mb-3 mt-2">{t('scim.premium')}</p>
      <a className="text-blue-800 underline" href={`${base}/admin/get-more-services`}>
        {t('admin.common.requestFeature')}
      </a>
    </section>
  );
  return renderPage(c, {
    titleKey: 'titles.scim-provisioning',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.scim-provisioning" intro={t('scim.intro')} />
        {body}
      </Frame>
    ),
  });
}
