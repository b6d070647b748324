// Tenant settings (spec 02 "Tenant settings screen"): the initial and custom subdomains with
// their full URLs, and the change of the custom one (island TenantUrlSettings).
import { tenantOrigin } from '../../domain/tenants/hosts';
import TenantUrlSettings, { type TenantUrl } from '../../islands/tenant-settings/TenantUrlSettings';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function tenantSettingsPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const { PORTAL_DOMAIN: domain, BASE_PATH: base } = deps.config;
  const { data } = await loadFrame(c, c.get('user'));
  const url = new URL(c.req.url);
  // The address members sign in at under each label (default tenant URL path: the base path).
  const entry = (label: string): TenantUrl => ({ label, url: `${tenantOrigin({ subdomain: label, initialSubdomain: label }, domain, url, c.get('https'))}${base}` });
  return renderPage(c, {
    titleKey: 'titles.tenant-settings',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.tenant-settings" intro={t('tenantSettings.intro')} />
        <Island
          name="TenantUrlSettings"
          component={TenantUrlSettings}
          props={{
            lang,
            basePath: base,
            portalDomain: domain,
            initial: entry(scope.tenant.initialSubdomain),
            custom: scope.tenant.subdomain ? entry(scope.tenant.subdomain) : null,
            changed: url.searchParams.get('status') === 'changed',
          }}
        />
      </Frame>
    ),
  });
}
