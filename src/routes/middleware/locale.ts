// Language: the signed-in user's setting, then the login footer's cookie, then Accept-Language.
// Decided once per request, by contextMiddleware, when it knows who is asking.
import { DEFAULT_LANG, getT, isLang, langFromAcceptLanguage, type Lang } from '../../shared/i18n';
import type { Context } from 'hono';
import type { AppEnv, Ctx } from '../http/env';

export function setLang(c: Context<AppEnv>, lang: Lang) {
  c.set('lang', lang);
  c.set('t', getT(lang));
}

/** Without a signed-in user: the language cookie's value, then Accept-Language. */
export function anonymousLang(c: Ctx, cookie: string | undefined): Lang {
  const accept = c.get('deps').runtime.header(c.req.raw, c.env, 'accept-language');
  return (isLang(cookie) ? cookie : null) ?? langFromAcceptLanguage(accept) ?? DEFAULT_LANG;
}
