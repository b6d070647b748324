// The island kit's rules (src/islands/kit, decision 0033) that need no browser: what the six code
// boxes keep of typed and pasted text, Backspace, the countdown arithmetic, the dialog stack and
// the error code union. The browser journeys (tests/e2e/island-kit.spec.ts) drive the same
// components with a keyboard and a clipboard.
import { describe, expect, it } from 'vitest';
import { backspaceInCode, codeDigits, secondsUntil, toHalfWidthDigits, typeIntoCode } from '../../src/shared/twofa/code-entry';
import { createDialogStack } from '../../src/shared/dialog-stack';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, ERRORS, errorCodeOf, errorStatus, errorText, isErrorCode, SUCCESS_WORDS, VALIDATION_FAILED, wordOf } from '../../src/shared/error-codes';
import { flattenTexts } from '../../src/shared/texts';
import ja from '../../locales/ja.json';
import en from '../../locales/en.json';

describe('full-width digits', () => {
  it('become half-width: １２３ -> 123, other characters kept', () => {
    expect(toHalfWidthDigits('１２３')).toBe('123');
    expect(toHalfWidthDigits('０９８７６５４３２１')).toBe('0987654321');
    expect(toHalfWidthDigits('ａ１ b２')).toBe('ａ1 b2');
  });
  it('the boxes keep digits only, at most six', () => {
    expect(codeDigits('１２３ ４５６')).toBe('123456');
    expect(codeDigits('123-456')).toBe('123456');
    expect(codeDigits('12345678')).toBe('123456');
    expect(codeDigits('abc')).toBe('');
    expect(codeDigits('１2３4', 3)).toBe('123');
  });
});

describe('typing into the boxes', () => {
  it('a digit fills its box and moves on', () => {
    expect(typeIntoCode('', 0, '1')).toEqual({ value: '1', focus: 1 });
    expect(typeIntoCode('12', 2, '3')).toEqual({ value: '123', focus: 3 });
  });
  it('a digit typed over one replaces it', () => {
    expect(typeIntoCode('123456', 2, '9')).toEqual({ value: '129456', focus: 3 });
  });
  it('the last box keeps the focus', () => {
    expect(typeIntoCode('12345', 5, '6')).toEqual({ value: '123456', focus: 5 });
  });
  it('a box past the end types at the end (no gaps)', () => {
    expect(typeIntoCode('12', 4, '3')).toEqual({ value: '123', focus: 3 });
  });
  it('a pasted or autofilled code fills the boxes from there', () => {
    expect(typeIntoCode('', 0, '123456')).toEqual({ value: '123456', focus: 5 });
    expect(typeIntoCode('', 0, '１２３４５６')).toEqual({ value: '123456', focus: 5 });
    expect(typeIntoCode('', 0, ' 123 456\n')).toEqual({ value: '123456', focus: 5 });
    expect(typeIntoCode('99', 2, '1234')).toEqual({ value: '991234', focus: 5 });
    expect(typeIntoCode('999999', 3, '12345')).toEqual({ value: '999123', focus: 5 });
  });
  it('letters change nothing', () => {
    expect(typeIntoCode('12', 2, 'x')).toEqual({ value: '12', focus: 2 });
  });
});

describe('Backspace', () => {
  it('clears a filled box and stays', () => {
    expect(backspaceInCode('123', 1)).toEqual({ value: '13', focus: 1 });
  });
  it('in an empty box moves back and clears the one before', () => {
    expect(backspaceInCode('123', 3)).toEqual({ value: '12', focus: 2 });
    expect(backspaceInCode('123456', 5)).toEqual({ value: '12345', focus: 5 });
  });
  it('in the first empty box does nothing', () => {
    expect(backspaceInCode('', 0)).toEqual({ value: '', focus: 0 });
  });
});

describe('countdowns', () => {
  it('whole seconds left, rounded up, never negative', () => {
    expect(secondsUntil(61_000, 1_000)).toBe(60);
    expect(secondsUntil(61_001, 1_000)).toBe(61);
    expect(secondsUntil(1_000, 61_000)).toBe(0);
  });
});

describe('dialog stack', () => {
  it('the last opened is on top; closing it uncovers the one below', () => {
    const s = createDialogStack<string>();
    s.open('form');
    s.open('confirm');
    expect(s.isTop('confirm')).toBe(true);
    expect(s.isTop('form')).toBe(false);
    s.close('confirm');
    expect(s.isTop('form')).toBe(true);
    s.close('form');
    expect(s.list()).toEqual([]);
    expect(s.isTop('form')).toBe(false);
  });
  it('opening one already open moves it to the top; closing one below keeps the top', () => {
    const s = createDialogStack<string>();
    s.open('a');
    s.open('b');
    s.open('a');
    expect(s.list()).toEqual(['b', 'a']);
    s.close('b');
    expect(s.isTop('a')).toBe(true);
  });
});

describe('error codes', () => {
  it('hold the spec code words the server and the islands compare', () => {
    for (const code of ['invalid-credentials', 'deactivated', 'restricted-ip', 'locked-out', 'too-many-attempts', 'duplicate-ip', 'cannot-delete-last-admin']) {
      expect(isErrorCode(code)).toBe(true);
    }
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });
  it('tell a code word from a success word or nothing', () => {
    expect(errorCodeOf({ message: 'locked-out' })).toBe('locked-out');
    expect(errorCodeOf({ message: 'success' })).toBeNull();
    expect(errorCodeOf({ message: 'The given data was invalid.' })).toBeNull();
    expect(errorCodeOf({})).toBeNull();
    expect(errorCodeOf(null)).toBeNull();
    expect(isErrorCode('toString')).toBe(false);
  });
});

describe('the message words the server sends', () => {
  it('are all in the shared union (so an island comparing with one compiles, and a misspelt one does not), and every thrown code is in the catalogue', () => {
    const root = join(__dirname, '../../src');
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /^(routes|domain|app)/.test(f) && /\.tsx?$/.test(f));
    const words = new Set<string>();
    const codes = new Set<string>();
    for (const f of files) {
      const text = readFileSync(join(root, f), 'utf8');
      for (const m of text.matchAll(/\bmessage: '([^']+)'/g)) words.add(m[1]!);
      for (const m of text.matchAll(/(?:AppError\(|errorAnswer\(c, )\s*'([^']+)'/g)) codes.add(m[1]!);
    }
    expect(words.size).toBeGreaterThan(10);
    expect(codes.size).toBeGreaterThan(40);
    const known = new Set<string>([...ERROR_CODES, ...SUCCESS_WORDS, VALIDATION_FAILED]);
    expect([...words].filter((w) => !known.has(w)).sort()).toEqual([]);
    expect([...codes].filter((c) => !isErrorCode(c) && c !== VALIDATION_FAILED).sort()).toEqual([]);
  });
});

describe('the error catalogue', () => {
  it('gives every code a status and a text both languages have; a word given twice keeps its first text', () => {
    const flat = (o: object) => new Set(Object.keys(flattenTexts(o as Record<string, unknown>)));
    const [jaKeys, enKeys] = [flat(ja), flat(en)];
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect([200, 400, 401, 403, 404, 409, 410, 413, 415, 422, 429, 500, 502], code).toContain(entry.status);
      expect(jaKeys.has(entry.text) && enKeys.has(entry.text), `${code}: ${entry.text}`).toBe(true);
    }
    expect(errorText('deactivated')).toBe('errors.deactivated');
    expect(errorText('invalid-token')).toBe('reset.invalid');
    expect(errorText('no such word')).toBe('errors.generic');
    expect(errorStatus('addin-token-invalid')).toBe(404);
    expect(wordOf('bearer-token-invalid')).toBe('invalid-token');
  });
});
