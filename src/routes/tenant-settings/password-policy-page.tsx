// Password policy (spec 02 "Two-factor enforcement and password policy screens").
import { passwordPolicyView } from '../../domain/tenant-settings/settings';
import PasswordPolicyForm from '../../islands/tenant-settings/PasswordPolicyForm';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function passwordPolicyPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const { data } = await loadFrame(c, c.get('user'));
  return renderPage(c, {
    titleKey: 'titles.password-policy-settings',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.password-policy-settings" intro={t('passwordPolicy.intro')} />
        <Island name="PasswordPolicyForm" component={PasswordPolicyForm} props={{ lang, basePath: deps.config.BASE_PATH, policy: passwordPolicyView(scope.tenant) }} />
      </Frame>
    ),
  });
}
