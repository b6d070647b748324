// Forgot password screen (spec 01 "Forgot password screen"); the query goes back to login as it came.
import { Hono } from 'hono';
import ForgotForm from '../../islands/ForgotForm';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import { renderPage } from '../../ui/render';
import type { AppEnv } from '../env';

export const forgotPages = new Hono<AppEnv>();

forgotPages.get('/forgot', (c) => {
  const { deps, t, lang } = c.var;
  return renderPage(c, {
    titleKey: 'titles.forgot',
    body: (
      <PublicCard t={t} lang={lang} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('forgot.heading')}>
        <Island name="ForgotForm" component={ForgotForm} props={{ lang, basePath: deps.config.BASE_PATH, query: new URL(c.req.url).search }} />
      </PublicCard>
    ),
  });
});
