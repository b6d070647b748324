// One i18next instance holding both languages; each request or island takes a fixed `t` for its
// language (getFixedT never mutates the instance, so concurrent requests cannot leak languages).
import i18next, { type TFunction } from 'i18next';
import ja from '../../locales/ja.json';
import en from '../../locales/en.json';

export const LANGUAGES = ['ja', 'en'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'ja';

const instance = i18next.createInstance();
void instance.init({
  resources: { ja: { translation: ja }, en: { translation: en } },
  lng: DEFAULT_LANG,
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
});

export type T = TFunction;

/**
 * The browser bundle holds no translations (scripts/build.mjs empties the imports above): the
 * browser entry adds the page's language, loaded as a chunk of its own, before hydrating.
 */
export function addLanguage(lang: Lang, translations: object): void {
  instance.addResourceBundle(lang, 'translation', translations, true, true);
}

export function getT(lang: Lang): T {
  return instance.getFixedT(lang);
}

export function isLang(v: unknown): v is Lang {
  return v === 'ja' || v === 'en';
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
