// The additional-challenge screen (spec 01 "Additional challenge"): the login form sends the
// browser here with ?email=... and the rest of the login page's query (continue, the Outlook
// add-in's source, token and startUrl); the pending login itself is the challenge cookie, so the
// page needs nothing from the database.
import { Hono } from 'hono';
import AdditionalChallengeForm from '../../islands/AdditionalChallengeForm';
import { safeContinuePath } from '../../shared/continue-path';
import { addinTokenSchema, emailSchema } from '../../shared/schemas';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import { renderPage } from '../../ui/render';
import { appPaths, appUrls } from '../api/helpers';
import type { AppEnv } from '../env';

export const additionalChallengePages = new Hono<AppEnv>();

additionalChallengePages.get('/additional-challenge', (c) => {
  const { deps, t, lang, hostTenant } = c.var;
  const base = deps.config.BASE_PATH;
  const url = new URL(c.req.url);
  // The address only repeats what the user typed; anything that is not an address is not shown.
  const email = emailSchema.safeParse(c.req.query('email') ?? '');
  const continuePath = safeContinuePath(c.req.query('continue'), base, appPaths(deps.config));
  // The Outlook add-in's parameters come along from the login page, read the way login reads them.
  const source = c.req.query('source') === 'outlook' ? 'outlook' : null;
  const token = addinTokenSchema.safeParse({ token: c.req.query('token') }).success ? c.req.query('token')! : null;
  const startUrl = safeContinuePath(c.req.query('startUrl'), base, appPaths(deps.config));
  return renderPage(c, {
    titleKey: 'titles.additional-challenge',
    body: (
      <PublicCard t={t} lang={lang} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('challenge.heading')}>
        <p className="mb-4 mt-0" data-testid="challenge-sent-to">
          {email.success ? t('challenge.sentTo', { email: email.data }) : t('challenge.sent')}
        </p>
        <Island
          name="AdditionalChallengeForm"
          component={AdditionalChallengeForm}
          props={{
            lang,
            basePath: base,
            tenant: hostTenant ? { id: hostTenant.id } : null,
            continuePath,
            query: url.search,
            appUrls: appUrls(deps.config),
            source,
            token,
            startUrl,
          }}
        />
      </PublicCard>
    ),
  });
});
