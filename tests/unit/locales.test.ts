import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ja from '../../locales/ja.json';
import { getT, langFromAcceptLanguage } from '../../src/shared/i18n';

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

  it('Accept-Language picks ja or en by preference', () => {
    expect(langFromAcceptLanguage('en-US,en;q=0.9,ja;q=0.8')).toBe('en');
    expect(langFromAcceptLanguage('fr-FR, ja;q=0.5, en;q=0.4')).toBe('ja');
    expect(langFromAcceptLanguage('fr-FR')).toBeNull();
    expect(langFromAcceptLanguage('en;q=0, ja;q=0.1')).toBe('ja');
    expect(langFromAcceptLanguage(undefined)).toBeNull();
  });
});
