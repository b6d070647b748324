// The server's translations: one i18next instance holding both languages; each request takes a
// fixed `t` for its language (getFixedT never mutates the instance, so concurrent requests cannot
// leak languages). The browser build replaces this module with `i18n.browser.ts` (same exports
// the islands use, no i18next, only the page's texts): scripts/browser-build-options.mjs.
import i18next from 'i18next';
import ja from '../../locales/ja.json' with { type: 'json' };
import en from '../../locales/en.json' with { type: 'json' };
import { DEFAULT_LANG, flattenTexts, isLang, LANGUAGES, type Lang, type T, type Texts } from './texts';

export { DEFAULT_LANG, isLang, LANGUAGES, type Lang, type T };

const instance = i18next.createInstance();
void instance.init({
  resources: { ja: { translation: ja }, en: { translation: en } },
  lng: DEFAULT_LANG,
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
});

const fixed: Record<Lang, T> = {
  ja: wrap('ja'),
  en: wrap('en'),
};

function wrap(lang: Lang): T {
  const t = instance.getFixedT(lang);
  return (key, vars) => (vars ? t(key, vars) : t(key));
}

export function getT(lang: Lang): T {
  return fixed[lang];
}

// Every text of a language as dotted keys, English filling any gap (i18next's fallback), made
// once: the pages pick their islands' texts from it (src/ui/render.tsx).
const flat: Record<Lang, Texts> = {
  ja: { ...flattenTexts(en), ...flattenTexts(ja) },
  en: flattenTexts(en),
};

export function allTexts(lang: Lang): Texts {
  return flat[lang];
}

/** Picks ja or en from an Accept-Language header, by the listed order and q-values. */
export function langFromAcceptLanguage(header: string | null | undefined): Lang | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const primary = tag.split('-')[0];
    if (isLang(primary)) return primary;
  }
  return null;
}
