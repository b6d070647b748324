// Email verification link (spec 01 "Registration and verification pages"): /verify/:email?expires&id&signature.
import { Hono } from 'hono';
import { NeedsJavaScript } from '../../islands/kit/Alert';
import VerifyEmail from '../../islands/account/VerifyEmail';
import { Island } from '../../ui/Island';
import { PublicCard } from '../../ui/PublicCard';
import type { AppEnv } from '../http/env';
import { signedLinkProps } from './signed-link';
import { renderPage } from '../http/page';

export const verifyPages = new Hono<AppEnv>();

verifyPages.get('/verify/:email', (c) => {
  const deps = c.get('deps');
  const t = c.get('t');
  const lang = c.get('lang');
  const user = c.get('user');
  const { id, email, expires, signature, expired } = signedLinkProps(c);
  return renderPage(c, {
    titleKey: 'titles.verify',
    body: (
      <PublicCard t={t} lang={lang} basePath={deps.config.BASE_PATH} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('verify.heading')}>
        <NeedsJavaScript text={t('kit.needsJavaScript')} />
        <Island
          name="VerifyEmail"
          component={VerifyEmail}
          props={{ lang, basePath: deps.config.BASE_PATH, id, email, expires, signature, expired, signedIn: Boolean(user) }}
        />
      </PublicCard>
    ),
  });
});
