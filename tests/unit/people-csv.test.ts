// Decoding and parsing of import files, and the audit CSV's file name and cell escaping.
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { decodeCsv, parseCsv, sampleCsv } from '../../src/domain/people/import';
import { csvTime, exportFilename, FORMULA_START } from '../../src/domain/people/audit-export';
import { IMPORT_HEADERS } from '../../src/shared/people-schemas';
import { getT } from '../../src/shared/i18n';

const enc = new TextEncoder();
const header = IMPORT_HEADERS.ja.join(',');

describe('decodeCsv', () => {
  const text = `${header}\r\n髙橋 﨑,a@b.test,営業部,,1,0,0\r\n`;
  it('UTF-8 with and without BOM', () => {
    expect(decodeCsv(enc.encode(text))).toBe(text);
    expect(decodeCsv(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(text)]))).toBe(text);
  });
  it('Shift_JIS including CP932 extension characters (髙, 﨑, ①)', () => {
    const t = `${text}①,x@y.test,,,1,0,0\r\n`;
    expect(decodeCsv(new Uint8Array(iconv.encode(t, 'cp932')))).toBe(t);
  });
  it('refuses UTF-16 and bytes that are neither', () => {
    expect(() => decodeCsv(new Uint8Array(iconv.encode(text, 'utf16le', { addBOM: true })))).toThrow('incorrect-encoding');
    expect(() => decodeCsv(new Uint8Array([0xef, 0xbb, 0xbf, 0xff, 0xfe]))).toThrow('incorrect-encoding');
    expect(() => decodeCsv(new Uint8Array([0x41, 0x82, 0xff]))).toThrow('incorrect-encoding');
    expect(() => decodeCsv(enc.encode('a\u0000b'))).toThrow('incorrect-encoding');
  });
});

describe('parseCsv', () => {
  it('accepts either language header and reads quoted cells', () => {
    const en = `${IMPORT_HEADERS.en.join(',')}\r\n"Doe, Jane",JANE@x.test,Sales,"A|B",1,,1\r\n`;
    const { rows, errors } = parseCsv(en, 'ja');
    expect(errors).toEqual([]);
    expect(rows).toEqual([{ line: 2, name: 'Doe, Jane', email: 'jane@x.test', department: 'Sales', extra: ['A', 'B'], meishi: true, scheduler: false, isAdmin: true }]);
  });
  it('a different header is unexpected_format with both lists', () => {
    try {
      parseCsv('name,email\r\n', 'en');
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'unexpected_format', details: { expected_format: [...IMPORT_HEADERS.en], given_format: ['name', 'email'] } });
    }
  });
  it('reports bad flags and wrong column counts per line', () => {
    const { errors } = parseCsv(`${header}\r\na,a@b.test,,,yes,0,0\r\nb,b@b.test\r\n`, 'ja');
    expect(errors).toEqual([{ row: 2, column: 'meishi', error: 'badFlag' }, { row: 3, column: null, error: 'columns' }]);
  });
  it('the sample parses with its own header', () => {
    for (const lang of ['ja', 'en'] as const) expect(parseCsv(sampleCsv(lang), lang).rows).toHaveLength(2);
  });
});

describe('audit CSV', () => {
  it('file name: localised title + yyyyMMddHHmmss in Tokyo time', () => {
    const t = Date.UTC(2026, 0, 2, 15, 4, 5); // 2026-01-03 00:04:05 JST
    expect(exportFilename(getT('ja'), t)).toBe('監査ログ20260103000405.csv');
    expect(exportFilename(getT('en'), t)).toBe('Audit Logs20260103000405.csv');
    expect(csvTime(t)).toBe('2026-01-03 00:04:05');
  });
  it('formula escaping and RFC 4180 quoting through papaparse', () => {
    const out = Papa.unparse([['=1', '＋2', 'plain', 'a,"b"\r\nc', ' -x']], { newline: '\r\n', escapeFormulae: FORMULA_START });
    expect(out).toBe(`"'=1","'＋2",plain,"a,""b""\r\nc"," -x"`);
  });
});
