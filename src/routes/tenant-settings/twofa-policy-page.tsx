// Two-factor enforcement (spec 02 "Two-factor enforcement and password policy screens"): the
// optional-feature explanation without the subscription, else the policy form.
import TwofaPolicyForm from '../../islands/tenant-settings/TwofaPolicyForm';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading, OptionalFeature } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function twofaPolicyPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const base = deps.config.BASE_PATH;
  const { data } = await loadFrame(c, c.get('user'));
  return renderPage(c, {
    titleKey: 'titles.twofa-settings',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.twofa-settings" intro={t('twofaPolicy.intro')} />
        {scope.tenant.isFeatureTwofaEnforcementSubscribed ? (
          <Island
            name="TwofaPolicyForm"
            component={TwofaPolicyForm}
            props={{
              lang,
              basePath: base,
              policy: { isTwofaEnforced: scope.tenant.isTwofaEnforced, isTwofaSkipAllowed: scope.tenant.isTwofaSkipAllowed, passkeyPolicy: scope.tenant.passkeyPolicy },
              ssoEnabled: scope.tenant.isSsoEnabled,
            }}
          />
        ) : (
          <OptionalFeature t={t} base={base} />
        )}
      </Frame>
    ),
  });
}
