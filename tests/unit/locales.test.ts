import i18next from 'i18next';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ja from '../../locales/ja.json';
import { allTexts, getT, langFromAcceptLanguage, LANGUAGES } from '../../src/shared/i18n';
import { flattenTexts, lookupT } from '../../src/shared/texts';

// i18next as it was configured on the server before issue 23: the reference both lookups match.
const reference = i18next.createInstance();
void reference.init({
  resources: { ja: { translation: ja }, en: { translation: en } },
  lng: 'ja',
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
const i18nextT = (lang: string) => {
  const t = reference.getFixedT(lang);
  return (key: string, vars?: Record<string, unknown>) => (vars ? t(key, vars) : t(key));
};

const flatten = (o: object, p = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flatten(v, `${p}${k}.`) : [`${p}${k}`]));

describe('locales', () => {
  it('ja.json and en.json have exactly the same keys', () => {
    expect(flatten(ja).sort()).toEqual(flatten(en).sort());
  });

  it('every literal key the code translates exists in both files', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const keys = new Set(flatten(ja));
    const missing: string[] = [];
    for (const f of readdirSync(src, { recursive: true }) as string[]) {
      if (!/\.tsx?$/.test(f)) continue;
      const text = readFileSync(`${src}/${f}`, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z][\w.-]*)'/g)) if (!keys.has(m[1]!)) missing.push(`${f}: ${m[1]}`);
      for (const m of text.matchAll(/titleKey: '([\w.-]+)'/g)) if (!keys.has(m[1]!)) missing.push(`${f}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it('no value is empty, and Japanese is the default with English fallback', () => {
    for (const k of flatten(ja)) expect(getT('ja')(k)).not.toBe('');
    expect(getT('ja')('errors.invalid-credentials')).toBe('メールアドレスまたはパスワードが正しくありません。');
    expect(getT('en')('errors.invalid-credentials')).toBe('These credentials do not match our records.');
  });

  // Server and browser translate with the small lookup of src/shared/texts.ts; the files may use
  // only what the lookup does, and it must give what i18next gives on every text (the reference).
  it('uses only {{name}} placeholders: no plurals, nesting, formats or unescaped values', () => {
    const unsupported: string[] = [];
    for (const [lang, tree] of [['ja', ja], ['en', en]] as const) {
      for (const [k, v] of Object.entries(flattenTexts(tree))) {
        if (/_(zero|one|two|few|many|other)$/.test(k)) unsupported.push(`${lang} ${k}: plural form`);
        if (v.includes('$t(')) unsupported.push(`${lang} ${k}: nesting`);
        for (const m of v.matchAll(/\{\{(.*?)\}\}/g)) if (!/^\s*\w+\s*$/.test(m[1]!)) unsupported.push(`${lang} ${k}: {{${m[1]}}}`);
      }
      expect(Object.keys(flattenTexts(tree)).length).toBe(Object.keys(allTexts(lang)).length);
    }
    expect(unsupported).toEqual([]);
  });

  it('the lookup (server and browser) gives what i18next gives, for every text of both languages', () => {
    for (const lang of LANGUAGES) {
      const server = i18nextT(lang);
      const browser = lookupT(allTexts(lang));
      for (const k of Object.keys(allTexts(lang))) expect(getT(lang)(k), k).toBe(server(k));
      let withPlaceholders = 0;
      for (const [k, text] of Object.entries(allTexts(lang))) {
        const names = [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
        expect(browser(k), k).toBe(server(k));
        if (names.length === 0) continue;
        withPlaceholders++;
        const vars = Object.fromEntries(names.map((n, i) => [n, i % 2 ? 42 + i : `<v${i}&"'>`]));
        expect(browser(k, vars), k).toBe(server(k, vars));
        // One value missing stays as written; null and undefined become "".
        const [first, ...rest] = names;
        const partial = Object.fromEntries(rest.map((n) => [n, 'x']));
        expect(browser(k, partial), k).toBe(server(k, partial));
        expect(browser(k, { [first!]: null }), k).toBe(server(k, { [first!]: null }));
        expect(browser(k, { [first!]: undefined }), k).toBe(server(k, { [first!]: undefined }));
        // A value that looks like a placeholder is not replaced again.
        expect(browser(k, { [first!]: `{{${first}}}` }), k).toBe(server(k, { [first!]: `{{${first}}}` }));
      }
      expect(withPlaceholders).toBeGreaterThan(50);
    }
    expect(lookupT(allTexts('en'))('no.such.key')).toBe(getT('en')('no.such.key'));
  });

  it('Accept-Language picks ja or en by preference', () => {
    expect(langFromAcceptLanguage('en-US,en;q=0.9,ja;q=0.8')).toBe('en');
    expect(langFromAcceptLanguage('fr-FR, ja;q=0.5, en;q=0.4')).toBe('ja');
    expect(langFromAcceptLanguage('fr-FR')).toBeNull();
    expect(langFromAcceptLanguage('en;q=0, ja;q=0.1')).toBe('ja');
    expect(langFromAcceptLanguage(undefined)).toBeNull();
  });
});
