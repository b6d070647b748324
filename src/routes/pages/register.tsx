// Registration from an invitation link (spec 01 "Registration and verification pages"):
// /register/:email?expires&id&signature (also `amp;signature`, from mail clients that re-escape "&").
import { Hono } from 'hono';
import RegisterForm from '../../islands/RegisterForm';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import { renderPage } from '../../ui/render';
import { appUrls } from '../api/helpers';
import type { AppEnv } from '../env';
import { signedLinkProps } from './signed-link';

export const registerPages = new Hono<AppEnv>();

registerPages.get('/register/:email', (c) => {
  const { deps, t, lang, hostTenant } = c.var;
  const link = signedLinkProps(c);
  return renderPage(c, {
    titleKey: 'titles.register',
    body: (
      <PublicCard t={t} lang={lang} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('register.heading')}>
        <Island
          name="RegisterForm"
          component={RegisterForm}
          props={{ lang, basePath: deps.config.BASE_PATH, ...link, hostTenantId: hostTenant?.id ?? null, appUrls: appUrls(deps.config) }}
        />
      </PublicCard>
    ),
  });
});
