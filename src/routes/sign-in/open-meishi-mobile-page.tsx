// The mobile hand-off page (spec 01 routes: open-meishi-mobile): a link that opens the Meishi
// mobile app through its deep link, and a way back. Public, and open to signed-in users too.
// Decision: docs/decisions/0007-outlook-and-mobile.md.
import { Hono } from 'hono';
import { PublicCard } from '../../ui/PublicCard';
import type { AppEnv } from '../http/env';
import { renderPage } from '../http/page';

/** The app's deep link. To become configuration (see the decision record). */
export const MEISHI_MOBILE_DEEP_LINK = 'nextameishi://open';

export const openMeishiMobilePages = new Hono<AppEnv>();

openMeishiMobilePages.get('/open-meishi-mobile', (c) => {
  const deps = c.get('deps');
  const t = c.get('t');
  const lang = c.get('lang');
  const user = c.get('user');
  const base = deps.config.BASE_PATH;
  const back = user ? { href: `${base}/my-account`, key: 'common.backToMyAccount' } : { href: `${base}/login`, key: 'common.backToLogin' };
  return renderPage(c, {
    titleKey: 'titles.open-meishi-mobile',
    body: (
      <PublicCard t={t} lang={lang} basePath={deps.config.BASE_PATH} year={new Date(deps.clock.now()).getUTCFullYear()} heading={t('mobile.heading')}>
        <div className="flex flex-col gap-4">
          <p className="m-0">{t('mobile.intro')}</p>
          <a
            href={MEISHI_MOBILE_DEEP_LINK}
            className="block w-full rounded bg-blue-800 px-4 py-2 text-center text-base font-medium text-white no-underline hover:bg-blue-900"
          >
            {t('mobile.open')}
          </a>
          <p className="m-0 text-sm text-slate-700">{t('mobile.notInstalled')}</p>
          <p className="m-0">
            <a href={back.href} className="text-blue-800 underline">
              {t(back.key)}
            </a>
          </p>
        </div>
      </PublicCard>
    ),
  });
});
