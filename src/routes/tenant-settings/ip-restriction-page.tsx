// IP restriction (spec 02 "IP restriction screen"): without the subscription only the
// optional-feature explanation (the list is not read); otherwise the list, add form and switch.
import { listAllowedIps } from '../../domain/tenant-settings/ip-allowlist';
import IpRestriction from '../../islands/tenant-settings/IpRestriction';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading, OptionalFeature } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function ipRestrictionPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const base = deps.config.BASE_PATH;
  const { data } = await loadFrame(c, c.get('user'));
  const subscribed = scope.tenant.isFeatureIpRestrictionSubscribed;
  const entries = subscribed ? await listAllowedIps(scope) : [];
  return renderPage(c, {
    titleKey: 'titles.ip-restriction',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.ip-restriction" intro={t('ipRestriction.intro')} />
        {subscribed ? (
          <Island
            name="IpRestriction"
            component={IpRestriction}
            props={{ lang, basePath: base, enabled: scope.tenant.isIpRestrictionEnabled, entries, currentIp: c.get('clientIp') }}
          />
        ) : (
          <OptionalFeature t={t} base={base} />
        )}
      </Frame>
    ),
  });
}
