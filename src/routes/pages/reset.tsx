// Reset password screen (spec 01 "Reset password screen"): reads email and token from the query
// (the link in the reset mail); the island checks the token, loads the policy, shows the form.
import { Hono } from 'hono';
import ResetForm from '../../islands/ResetForm';
import { emailSchema } from '../../shared/schemas';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import { renderPage } from '../../ui/render';
import { appUrls } from '../api/helpers';
import type { AppEnv } from '../env';

export const resetPages = new Hono<AppEnv>();

resetPages.get('/reset', (c) => {
  const { deps, t, lang, hostTenant } = c.var;
  const email = emailSchema.safeParse(c.req.query('email') ?? '');
  const token = c.req.query('token') ?? '';
  // The page is fetched with the token in its address: keep it out of Referer headers.
  c.header('Referrer-Policy', 'no-referrer');
  return renderPage(c, {
    titleKey: 'titles.reset',
    body: (
      <PublicCard t={t} lang={lang} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('reset.heading')}>
        <Island
          name="ResetForm"
          component={ResetForm}
          props={{
            lang,
            basePath: deps.config.BASE_PATH,
            email: email.success ? email.data : '',
            token: /^[A-Za-z0-9_-]{1,256}$/.test(token) ? token : '',
            hostTenantId: hostTenant?.id ?? null,
            appUrls: appUrls(deps.config),
          }}
        />
      </PublicCard>
    ),
  });
});
