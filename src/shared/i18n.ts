// The server's translations: each language's texts as one flat dictionary (English filling any
// gap of Japanese), made once, and a fixed `t` per language over it: the same small lookup the
// islands use in the browser (src/shared/texts.ts), so both sides render one text alike.
// i18next is the reference the lookup is tested against (tests/unit/locales.test.ts); per call
// it cost the server a tenth of a screen's render (issue 23). The browser build replaces this
// module with `i18n.browser.ts` (no locale files, only the page's texts).
import ja from '../../locales/ja.json' with { type: 'json' };
import en from '../../locales/en.json' with { type: 'json' };
import { DEFAULT_LANG, flattenTexts, isLang, LANGUAGES, lookupT, type Lang, type T, type Texts } from './texts';

export { DEFAULT_LANG, isLang, LANGUAGES, type Lang, type T };

// Every text of a language as dotted keys, English filling any gap: the pages also pick their
// islands' texts from it (src/ui/render.tsx).
const flat: Record<Lang, Texts> = {
  ja: { ...flattenTexts(en), ...flattenTexts(ja) },
  en: flattenTexts(en),
};

const fixed: Record<Lang, T> = { ja: lookupT(flat.ja), en: lookupT(flat.en) };

export function getT(lang: Lang): T {
  return fixed[lang];
}

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
