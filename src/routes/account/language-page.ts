// The language switch of the public pages without JavaScript (decision 0033): its buttons submit
// `lang` here; the choice goes into the same cookie the island sets, and the browser goes back to
// the page it came from (the Referer, when it is a page of this portal on this origin), or to
// login. With JavaScript the island sets the cookie itself and reloads.
import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { safeContinuePath } from '../../shared/sign-in/continue-path';
import { isLang } from '../../shared/i18n';
import { LOCALE_COOKIE, type AppEnv } from '../http/env';
import { pageForm, readForm, seeOther } from '../http/forms';

export const languagePages = new Hono<AppEnv>();

languagePages.post('/language', ...pageForm, async (c) => {
  const base = c.get('deps').config.BASE_PATH;
  const { lang } = await readForm(c);
  if (isLang(lang)) setCookie(c, LOCALE_COOKIE, lang, { path: '/', maxAge: 31_536_000, sameSite: 'Lax' });
  let back: string | null = null;
  try {
    const from = new URL(c.req.header('referer') ?? '');
    if (from.origin === new URL(c.req.url).origin) back = safeContinuePath(`${from.pathname}${from.search}`, base, []);
  } catch {
    back = null;
  }
  return seeOther(c, back && back.startsWith(`${base}/`) ? back : `${base}/login`);
});
