// Decoding and parsing of import files (the streamed pieces of decision 0030), the streaming
// multipart reader, and the audit CSV's file name and cell escaping.
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { sampleCsv } from '../../src/domain/people/import/sample';
import {
  bytesToLatin1,
  checkHeader,
  decodePiece,
  guessFormat,
  latin1ToBytes,
  PieceCutter,
  readRecords,
  toRow,
  UploadInspector,
  type CsvEncoding,
} from '../../src/domain/people/import/csv';
import { openMultipartFile } from '../../src/routes/people/multipart';
import { csvTime, exportFilename, FORMULA_START } from '../../src/domain/audit/export';
import { IMPORT_HEADERS, type ImportRowError } from '../../src/shared/people/schemas';
import { getT } from '../../src/shared/i18n';

const enc = new TextEncoder();
const header = IMPORT_HEADERS.ja.join(',');

/** The upload and processing sides of an import, with the stream cut at `cuts`: the records read. */
function pipeline(bytes: Uint8Array, cuts: number[], target: number): { encoding: CsvEncoding; records: string[][]; pieces: number } {
  const cutter = new PieceCutter(target, target * 2);
  const inspector = new UploadInspector();
  const stored: string[] = [];
  const edges = [0, ...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  for (let i = 0; i + 1 < edges.length; i++) {
    const { pieces, tooLong } = cutter.push(bytes.slice(edges[i], edges[i + 1]));
    expect(tooLong).toBe(false);
    for (const p of pieces) {
      inspector.inspect(p);
      stored.push(bytesToLatin1(p));
    }
  }
  const last = cutter.end();
  if (last) {
    inspector.inspect(last);
    stored.push(bytesToLatin1(last));
  }
  const encoding = inspector.encoding();
  const records: string[][] = [];
  let carry = '';
  let format: { delimiter: string; newline: string } | null = null;
  stored.forEach((data, i) => {
    const text = carry + decodePiece(latin1ToBytes(data), encoding, i === 0);
    format ??= guessFormat(text);
    const read = readRecords(text, format, i === stored.length - 1);
    records.push(...read.records.map((r) => r.cells));
    carry = text.slice(read.consumed);
  });
  return { encoding, records, pieces: stored.length };
}

describe('pieces of an upload', () => {
  const text = `${header}\r\n${Array.from({ length: 300 }, (_, i) => `${i % 2 ? '"髙橋\r\n﨑子"' : '渡邉 一'},u${i}@b.test,営業部,"開発部|総務部",1,0,${i % 2}`).join('\r\n')}\r\n`;
  const whole = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' }).data;

  it('read the same records as the whole file, in UTF-8 and Shift_JIS, wherever the stream is cut', () => {
    for (const [encoding, bytes] of [
      ['utf-8', enc.encode(text)],
      ['shift_jis', new Uint8Array(iconv.encode(text, 'cp932'))],
    ] as const) {
      for (let seed = 1; seed <= 5; seed++) {
        const cuts = Array.from({ length: 40 }, (_, i) => Math.floor(((i + 1) * bytes.length * seed) / 41) % bytes.length);
        const out = pipeline(bytes, cuts, 1024);
        expect(out.encoding).toBe(encoding);
        expect(out.pieces).toBeGreaterThan(5);
        expect(out.records).toEqual(whole);
      }
    }
  });

  it('every stored piece ends just after a newline byte', () => {
    const bytes = new Uint8Array(iconv.encode(text, 'cp932'));
    const cutter = new PieceCutter(700, 1400);
    const pieces = cutter.push(bytes).pieces;
    expect(pieces.length).toBeGreaterThan(3);
    for (const p of pieces) expect(p.at(-1)).toBe(0x0a);
    // A line longer than the piece limit is refused.
    expect(new PieceCutter(100, 200).push(new Uint8Array(300).fill(0x41)).tooLong).toBe(true);
  });

  it('decides the encoding from the whole stream: an ASCII start and a Shift_JIS end is Shift_JIS', () => {
    const bytes = new Uint8Array([...enc.encode(`${IMPORT_HEADERS.en.join(',')}\r\n`), ...iconv.encode('髙橋,a@b.test,,,1,0,0\r\n', 'cp932')]);
    const out = pipeline(bytes, [10], 64);
    expect(out.encoding).toBe('shift_jis');
    expect(out.records[1]![0]).toBe('髙橋');
  });

  it('refuses UTF-16, NUL bytes, a BOM on bytes that are not UTF-8, and bytes valid in neither', () => {
    const sample = `${header}\r\n髙橋 﨑,a@b.test,営業部,,1,0,0\r\n`;
    const inspect = (b: Uint8Array) => {
      const i = new UploadInspector();
      i.inspect(b);
      return i;
    };
    expect(() => inspect(new Uint8Array(iconv.encode(sample, 'utf16le', { addBOM: true }))).encoding()).toThrow('incorrect-encoding');
    expect(inspect(enc.encode('a\u0000b')).refused).toBe(true);
    expect(() => inspect(new Uint8Array([0xef, 0xbb, 0xbf, 0xff, 0xfe])).encoding()).toThrow('incorrect-encoding');
    expect(inspect(new Uint8Array([0x41, 0x82, 0xff])).encoding()).toBe('shift_jis');
    expect(() => decodePiece(new Uint8Array([0x41, 0x82, 0xff]), 'shift_jis', true)).toThrow('incorrect-encoding');
    // CP932 extension characters decode (髙, 﨑, ①); the BOM is dropped only at the file's start.
    expect(decodePiece(new Uint8Array(iconv.encode('①髙﨑', 'cp932')), 'shift_jis', true)).toBe('①髙﨑');
    expect(decodePiece(enc.encode('\uFEFFa'), 'utf-8', true)).toBe('a');
    expect(decodePiece(enc.encode('\uFEFFa'), 'utf-8', false)).toBe('\uFEFFa');
    expect(inspect(enc.encode(sample)).dataLines).toBe(1);
  });
});

describe('rows of an import', () => {
  it('accepts either language header and reads quoted cells', () => {
    const en = `${IMPORT_HEADERS.en.join(',')}\r\n"Doe, Jane",JANE@x.test,Sales,"A|B",1,,1\r\n`;
    const { records } = readRecords(en, guessFormat(en), true);
    expect(() => checkHeader(records[0]!.cells, 'ja')).not.toThrow();
    const errors: ImportRowError[] = [];
    expect(toRow(records[1]!, 2, errors)).toEqual({ line: 2, name: 'Doe, Jane', email: 'jane@x.test', department: 'Sales', extra: ['A', 'B'], meishi: true, scheduler: false, isAdmin: true, nameReading: null });
    expect(errors).toEqual([]);
  });
  it('a different header is unexpected_format with both lists', () => {
    try {
      checkHeader(['name', 'email'], 'en');
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'unexpected_format', details: { expected_format: [...IMPORT_HEADERS.en], given_format: ['name', 'email'] } });
    }
  });
  it('reports bad flags, wrong column counts and broken quotes per line', () => {
    const text = `${header}\r\na,a@b.test,,,yes,0,0\r\nb,b@b.test\r\n"c,c@b.test,,,1,0,0\r\n`;
    const { records } = readRecords(text, guessFormat(text), true);
    const errors: ImportRowError[] = [];
    records.slice(1).forEach((r, i) => toRow(r, i + 2, errors));
    expect(errors).toEqual([{ row: 2, column: 'meishi', error: 'badFlag', value: 'yes' }, { row: 3, column: null, error: 'columns' }, { row: 4, column: null, error: 'parse' }]);
  });
  it('the sample parses with its own header', () => {
    for (const lang of ['ja', 'en'] as const) {
      const { records } = readRecords(sampleCsv(lang), guessFormat(sampleCsv(lang)), true);
      expect(() => checkHeader(records[0]!.cells, lang)).not.toThrow();
      expect(records).toHaveLength(3);
    }
  });
});

describe('multipart reader', () => {
  const boundary = 'b0undary';
  const body = (file: string) =>
    enc.encode(`preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nx\r\n--${boundary}\r\nContent-Disposition: form-data; name="csvFile"; filename="社員.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`);
  const streamOf = (bytes: Uint8Array, size: number) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += size) c.enqueue(bytes.slice(i, i + size));
        c.close();
      },
    });
  const read = async (bytes: Uint8Array, size: number, max = 1e6) => {
    const f = await openMultipartFile(streamOf(bytes, size), `multipart/form-data; boundary=${boundary}`, 'csvFile', max);
    if (!f) return null;
    const parts: Uint8Array[] = [];
    for await (const p of f.bytes) parts.push(p);
    return { name: f.name, type: f.type, text: new TextDecoder().decode(new Uint8Array(parts.flatMap((p) => [...p]))) };
  };
  it('hands on the file part only, whatever the chunk sizes (a delimiter cut in two included)', async () => {
    const content = `a\r\n--${boundary.slice(0, 4)}\r\n--not-it\r\nz`;
    for (const size of [1, 3, 7, 64, 4096]) expect(await read(body(content), size)).toEqual({ name: '社員.csv', type: 'text/csv', text: content });
  });
  it('no file part is null; a body over the limit is file-too-large', async () => {
    const noFile = enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="csvFile"\r\n\r\nx\r\n--${boundary}--\r\n`);
    expect(await read(noFile, 5)).toBeNull();
    await expect(read(body('x'.repeat(5000)), 512, 4000)).rejects.toMatchObject({ code: 'file-too-large', status: 413 });
  });
});

describe('audit CSV', () => {
  it('file name: localised title + yyyyMMddHHmmss in Tokyo time', () => {
    const t = Date.UTC(2026, 0, 2, 15, 4, 5); // 2026-01-03 00:04:05 JST
    expect(exportFilename(getT('ja')('titles.activity-logs'), t)).toBe('監査ログ20260103000405.csv');
    expect(exportFilename(getT('en')('titles.activity-logs'), t)).toBe('Audit Logs20260103000405.csv');
    expect(csvTime(t)).toBe('2026-01-03 00:04:05');
  });
  it('formula escaping and RFC 4180 quoting through papaparse', () => {
    const out = Papa.unparse([['=1', '＋2', 'plain', 'a,"b"\r\nc', ' -x']], { newline: '\r\n', escapeFormulae: FORMULA_START });
    expect(out).toBe(`"'=1","'＋2",plain,"a,""b""\r\nc"," -x"`);
  });
});

describe('the optional reading column (decision 0045)', () => {
  it('is recognised after the seven columns in either language, and read into katakana', () => {
    expect(checkHeader([...IMPORT_HEADERS.ja], 'ja')).toEqual({ hasReading: false });
    expect(checkHeader([...IMPORT_HEADERS.ja, 'フリガナ'], 'ja')).toEqual({ hasReading: true });
    expect(checkHeader([...IMPORT_HEADERS.en, ' name reading '], 'ja')).toEqual({ hasReading: true });
    expect(() => checkHeader([...IMPORT_HEADERS.ja, '備考'], 'ja')).toThrow();
    expect(() => checkHeader(['フリガナ', ...IMPORT_HEADERS.ja], 'ja')).toThrow();
    const errors: ImportRowError[] = [];
    const row = toRow({ cells: ['山田', 'a@x.test', '', '', '1', '', '', 'ﾔﾏﾀﾞ　たろう'], quoteError: false }, 2, errors, { hasReading: true });
    expect(row?.nameReading).toBe('ヤマダ タロウ');
    expect(toRow({ cells: ['山田', 'a@x.test', '', '', '1', '', '', 'Yamada'], quoteError: false }, 3, errors, { hasReading: true })).not.toBeNull();
    expect(errors).toEqual([{ row: 3, column: 'name_reading', error: 'readingKana' }]);
  });
});
