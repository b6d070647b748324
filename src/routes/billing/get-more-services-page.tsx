// Get more services (spec 02 "Get more services screen"): the request form, with the contract
// details it needs (current bulk-email plan, features already subscribed) read on the server.
import { getContractDetails } from '../../domain/billing/contract';
import MoreServicesForm from '../../islands/billing/MoreServicesForm';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function getMoreServicesPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const { data } = await loadFrame(c, c.get('user'));
  const contract = await getContractDetails(scope).catch(() => null);
  return renderPage(c, {
    titleKey: 'titles.get-more-services',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.get-more-services" intro={t('moreServices.intro')} />
        <Island name="MoreServicesForm" component={MoreServicesForm} props={{ lang, basePath: deps.config.BASE_PATH, contract }} />
      </Frame>
    ),
  });
}
