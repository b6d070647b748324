// Two-factor enforcement (spec 02 "Two-factor enforcement and password policy screens"): the
// optional-feature explanation without the subscription, else the policy form.
import TwofaPolicyForm from '../../islands/tenant-settings/TwofaPolicyForm';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { Ctx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading, OptionalFeature } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function twofaPolicyPage(c: Ctx) {
  const { t, lang, deps } = c.var;
  const tenant = c.get('hostTenant')!;
  const base = deps.config.BASE_PATH;
  const { data } = await loadFrame(c);
  return renderPage(c, {
    titleKey: 'titles.twofa-settings',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.twofa-settings" intro={t('twofaPolicy.intro')} />
        {tenant.isFeatureTwofaEnforcementSubscribed ? (
          <Island
            name="TwofaPolicyForm"
            component={TwofaPolicyForm}
            props={{ lang, basePath: base, policy: { isTwofaEnforced: tenant.isTwofaEnforced, isTwofaSkipAllowed: tenant.isTwofaSkipAllowed } }}
          />
        ) : (
          <OptionalFeature t={t} base={base} />
        )}
      </Frame>
    ),
  });
}
