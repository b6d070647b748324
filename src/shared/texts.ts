// Translations as flat dictionaries (dotted key -> text) and the small lookup the islands use
// in the browser. The browser never loads i18next nor a whole language: the server puts the texts
// of the page's islands in the page (src/ui/render.tsx, src/island-texts.ts) and src/client.ts
// hands them to `i18n.browser.ts`. The lookup supports exactly what locales/*.json use: `{{name}}`
// placeholders (no plurals, nesting or formats; tests/unit/locales.test.ts checks both files for
// that and compares this lookup with i18next on every key).

export const LANGUAGES = ['ja', 'en'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'ja';

export function isLang(v: unknown): v is Lang {
  return v === 'ja' || v === 'en';
}

export type TextVars = Record<string, string | number | boolean | null | undefined>;
/** A translation function fixed to one language: key (and placeholder values) to text. */
export type T = (key: string, vars?: TextVars) => string;
/** Texts by dotted key. */
export type Texts = Record<string, string>;

/** The nested JSON of a locale file as dotted keys. */
export function flattenTexts(tree: object, prefix = ''): Texts {
  const out: Texts = {};
  for (const [k, v] of Object.entries(tree)) {
    if (v && typeof v === 'object') Object.assign(out, flattenTexts(v as object, `${prefix}${k}.`));
    else if (typeof v === 'string') out[`${prefix}${k}`] = v;
  }
  return out;
}

/**
 * `{{name}}` replaced by `vars.name` as i18next does it (escapeValue off): a placeholder whose name
 * `vars` lacks stays as written, null or undefined becomes "", a value is never scanned again.
 */
export function interpolate(text: string, vars?: TextVars): string {
  if (!vars || !text.includes('{{')) return text;
  return text.replace(/\{\{(.+?)\}\}/g, (whole, name: string) => {
    const k = name.trim();
    if (!Object.prototype.hasOwnProperty.call(vars, k)) return whole;
    const v = vars[k];
    return v === null || v === undefined ? '' : String(v);
  });
}

/** Whether `key` is `prefix` itself or lies under it (a namespace covers every key below it). */
export function coveredBy(key: string, prefix: string): boolean {
  return key === prefix || key.startsWith(prefix.endsWith('.') ? prefix : `${prefix}.`);
}

/** The entries of `all` under any of `prefixes`. */
export function pickTexts(all: Texts, prefixes: Iterable<string>): Texts {
  const list = [...prefixes];
  const out: Texts = {};
  for (const [k, v] of Object.entries(all)) if (list.some((p) => coveredBy(k, p))) out[k] = v;
  return out;
}

/** A `T` over a dictionary; a missing key answers the key itself (as i18next does) and is reported. */
export function lookupT(texts: Texts, onMissing?: (key: string) => void): T {
  return (key, vars) => {
    const text = Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : undefined;
    if (text === undefined) {
      onMissing?.(key);
      return key;
    }
    return interpolate(text, vars);
  };
}
