// Language: the signed-in user's setting, then the login footer's cookie, then Accept-Language.
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { DEFAULT_LANG, getT, isLang, langFromAcceptLanguage, type Lang } from '../../shared/i18n';
import { LOCALE_COOKIE, type AppEnv, type Ctx } from '../env';

export function setLang(c: Ctx, lang: Lang) {
  c.set('lang', lang);
  c.set('t', getT(lang));
}

/** Before the session is known: cookie, then Accept-Language. */
export function anonymousLang(c: Ctx): Lang {
  const cookie = getCookie(c, LOCALE_COOKIE);
  return (isLang(cookie) ? cookie : null) ?? langFromAcceptLanguage(c.req.header('accept-language')) ?? DEFAULT_LANG;
}

/** After the session middleware: the user's own setting wins. */
export const localeMiddleware: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get('user');
  if (user) setLang(c, user.language);
  await next();
};
