// The additional-challenge screen (spec 01 "Additional challenge"): the login form sends the
// browser here with ?email=... and the rest of the login page's query (continue, the Outlook
// add-in's source, token and startUrl); the pending login itself is the challenge cookie. The page
// reads it (without changing it): without one no code was sent, and the browser goes back to
// login, which says so (decision 0033: the page used to claim a code was on its way); with one,
// the resend countdown starts from when its code was sent.
import { Hono } from 'hono';
import { findChallenge } from '../../domain/sign-in/pending-logins';
import { RESEND_COOLDOWN_S } from '../../domain/sign-in/new-device-code';
import AdditionalChallengeForm from '../../islands/sign-in/AdditionalChallengeForm';
import { NeedsJavaScript } from '../../islands/kit/Alert';
import { safeContinuePath } from '../../shared/sign-in/continue-path';
import { secondsUntil } from '../../shared/twofa/code-entry';
import { addinTokenSchema, emailSchema } from '../../shared/schemas';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import { appPaths, appUrls } from '../http/apps';
import type { AppEnv } from '../http/env';
import { backToLogin } from '../twofa/login-pages';
import { challengeToken } from '../http/cookies';
import { renderPage } from '../http/page';

export const additionalChallengePages = new Hono<AppEnv>();

additionalChallengePages.get('/additional-challenge', async (c) => {
  const deps = c.get('deps');
  const t = c.get('t');
  const lang = c.get('lang');
  const hostTenant = c.get('hostTenant');
  const base = deps.config.BASE_PATH;
  const challenge = await findChallenge(deps, challengeToken(c), hostTenant?.id ?? null, 'additional_challenge');
  if (!challenge) return backToLogin(c);
  const resendIn = challenge.codeSentAt ? secondsUntil(challenge.codeSentAt + RESEND_COOLDOWN_S * 1000, deps.clock.now()) : 0;
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
      <PublicCard t={t} lang={lang} basePath={deps.config.BASE_PATH} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('challenge.heading')}>
        <NeedsJavaScript text={t('kit.needsJavaScript')} />
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
            resendIn,
          }}
        />
      </PublicCard>
    ),
  });
});
