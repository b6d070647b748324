// The byte and text side of a streamed CSV import (decision 0030), with no database in it:
//  - while uploading, `PieceCutter` cuts the stream into pieces that end just after a newline
//    byte, and `UploadInspector` decides the encoding from the whole stream without keeping it;
//  - while processing, each stored piece is decoded on its own, and `readRecords` parses the
//    text with papaparse's own parser, handing the unfinished last record to the next piece.
//
// Why a newline byte is a safe place to cut: in UTF-8 a 0x0A or 0x0D byte is never part of a
// multibyte sequence, and in Shift_JIS (Windows-31J) trail bytes are 0x40-0x7E and 0x80-0xFC and
// lead bytes 0x81-0x9F and 0xE0-0xFC, so after 0x0A/0x0D a decoder holds nothing. Each piece is
// decoded as a whole buffer, never with a streaming decoder (DESIGN.md section 10: streaming
// Shift_JIS decoding had a chunk-boundary bug in workerd).
import Papa from 'papaparse';
import { IMPORT_COLUMNS, IMPORT_HEADERS, IMPORT_LIST_SEPARATOR, IMPORT_READING_COLUMN, IMPORT_READING_HEADER, IMPORT_TRUE, type ImportRowError } from '../../../shared/people/schemas';
import { normaliseReading, readingProblem } from '../../../shared/people/reading';
import type { Lang } from '../../../shared/i18n';
import { AppError } from '../../errors';

export type CsvEncoding = 'utf-8' | 'shift_jis';

const LF = 0x0a;
const CR = 0x0d;

/** Concatenates byte arrays (only ever a piece's worth). */
function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Cuts a byte stream into pieces of about `target` bytes, each ending just after a newline byte
 * (LF, or CR for a file with CR line endings only). Holds at most one piece plus the last input.
 * A stretch of `max` bytes without any newline cannot be one line of a valid file: the caller
 * hears it as `tooLong` and refuses the file.
 */
export class PieceCutter {
  private parts: Uint8Array[] = [];
  private size = 0;
  constructor(
    private readonly target: number,
    private readonly max: number,
  ) {}

  /** Feeds bytes; returns the pieces completed by them (often none). */
  push(bytes: Uint8Array): { pieces: Uint8Array[]; tooLong: boolean } {
    if (bytes.length) {
      this.parts.push(bytes);
      this.size += bytes.length;
    }
    const pieces: Uint8Array[] = [];
    while (this.size >= this.target) {
      const all = concat(this.parts, this.size);
      // The last newline within the first `max` bytes.
      const window = all.subarray(0, Math.min(all.length, this.max));
      let cut = window.lastIndexOf(LF);
      if (cut < 0) cut = window.lastIndexOf(CR);
      if (cut < 0) {
        if (all.length >= this.max) return { pieces, tooLong: true };
        this.parts = [all];
        break;
      }
      pieces.push(all.slice(0, cut + 1));
      const rest = all.subarray(cut + 1);
      this.parts = rest.length ? [rest] : [];
      this.size = rest.length;
    }
    return { pieces, tooLong: false };
  }

  /** The remaining bytes (the file's end need not be a newline). */
  end(): Uint8Array | null {
    if (!this.size) return null;
    const last = concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return last;
  }
}

const utf8Fatal = () => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Watches the pieces of an upload and decides, at its end, how the file is decoded: UTF-8 when
 * every piece is valid UTF-8 (a byte order mark optional), otherwise Shift_JIS (checked piece by
 * piece while processing). UTF-16, NUL bytes, or a UTF-8 BOM on bytes that are not UTF-8 are
 * `incorrect-encoding`, the same rules as the whole-file decoder had (decision 0012).
 */
export class UploadInspector {
  bytes = 0;
  private lfs = 0;
  private crs = 0;
  private first: number[] = [];
  private utf8 = true;
  private nul = false;
  private lastByte = -1;

  /** Looks at one piece (pieces end after a newline byte, so each is a whole UTF-8 text). */
  inspect(piece: Uint8Array): void {
    if (this.first.length < 3) this.first.push(...piece.subarray(0, 3 - this.first.length));
    this.bytes += piece.length;
    if (!this.nul && piece.includes(0)) this.nul = true;
    for (let i = piece.indexOf(LF); i >= 0; i = piece.indexOf(LF, i + 1)) this.lfs++;
    // Files with CR line endings only: their CRs are the line count.
    if (this.lfs === 0) for (let i = piece.indexOf(CR); i >= 0; i = piece.indexOf(CR, i + 1)) this.crs++;
    if (this.utf8) {
      try {
        utf8Fatal().decode(piece);
      } catch {
        this.utf8 = false;
      }
    }
    if (piece.length) this.lastByte = piece[piece.length - 1]!;
  }

  /** Whether the bytes so far already make the file undecodable (to stop an upload early). */
  get refused(): boolean {
    return this.nul || this.utf16;
  }

  private get utf16(): boolean {
    const [a, b] = this.first;
    return (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff);
  }

  get hasBom(): boolean {
    return this.first[0] === 0xef && this.first[1] === 0xbb && this.first[2] === 0xbf;
  }

  /** Physical lines seen so far. */
  get lines(): number {
    return this.lfs > 0 ? this.lfs : this.crs;
  }

  /** Lines after the header: the progress call's total (exact unless cells hold line breaks). */
  get dataLines(): number {
    const lines = this.lastByte === LF || this.lastByte === CR || this.bytes === 0 ? this.lines : this.lines + 1;
    return Math.max(0, lines - 1);
  }

  /** The encoding, or incorrect-encoding. */
  encoding(): CsvEncoding {
    if (this.refused) throw new AppError('incorrect-encoding');
    if (this.utf8) return 'utf-8';
    if (this.hasBom) throw new AppError('incorrect-encoding');
    return 'shift_jis';
  }
}

/** Decodes one stored piece as a whole buffer; bytes invalid in the encoding are incorrect-encoding. */
export function decodePiece(bytes: Uint8Array, encoding: CsvEncoding, firstPiece: boolean): string {
  try {
    // Only the file's start may carry a byte order mark; later pieces keep a U+FEFF they start with.
    if (encoding === 'utf-8') return new TextDecoder('utf-8', { fatal: true, ignoreBOM: !firstPiece }).decode(bytes);
    return new TextDecoder('shift_jis', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('incorrect-encoding');
  }
}

// Pieces are stored as text, one character per byte (U+0000-U+00FF): a file with a NUL byte is
// refused before it is stored, so the text holds no NUL, and no runtime-specific Buffer is needed.
const LATIN1_STEP = 8192;

export function bytesToLatin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += LATIN1_STEP) out += String.fromCharCode(...bytes.subarray(i, i + LATIN1_STEP));
  return out;
}

export function latin1ToBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** Delimiter and line ending, guessed by papaparse from the file's first piece (as it did for the whole file). */
export function guessFormat(text: string): { delimiter: string; newline: string } {
  const sample = Papa.parse<string[]>(text, { preview: 10, skipEmptyLines: 'greedy' });
  const newline = sample.meta.linebreak === '\r' || sample.meta.linebreak === '\r\n' ? sample.meta.linebreak : '\n';
  return { delimiter: sample.meta.delimiter || ',', newline };
}

export interface CsvRecord {
  cells: string[];
  /** papaparse could not read the quoting cleanly. */
  quoteError: boolean;
}

/**
 * Parses `text` with papaparse's own parser, the way its chunked reading does: unless `final`,
 * the last record may be unfinished and is left out; `consumed` says where it starts, and the
 * caller prepends the rest to the next piece. Blank records are skipped ("greedy", as before).
 */
export function readRecords(text: string, format: { delimiter: string; newline: string }, final: boolean): { records: CsvRecord[]; consumed: number } {
  const records: CsvRecord[] = [];
  const parser = new Papa.Parser({
    delimiter: format.delimiter,
    newline: format.newline as '\n',
    step(result: { data: string[][]; errors: { type: string }[] }) {
      const cells = result.data[0] ?? [];
      if (cells.join('').trim() === '') return;
      records.push({ cells, quoteError: result.errors.some((e) => e.type === 'Quotes') });
    },
  } as Papa.ParseConfig);
  const result = parser.parse(text, 0, !final) as { meta: { cursor: number } };
  return { records, consumed: final ? text.length : result.meta.cursor };
}

const normalise = (h: string) => h.replace(/^\uFEFF/, '').trim().toLowerCase();

/**
 * The header row must be the sample's, in either language, optionally followed by the reading
 * column (decision 0045: files made before it keep working); otherwise unexpected_format.
 * Returns whether the file has the reading column.
 */
export function checkHeader(cells: string[] | null, lang: Lang): { hasReading: boolean } {
  const given = (cells ?? []).map((h) => String(h).replace(/^\uFEFF/, '').trim());
  const base = given.length === IMPORT_COLUMNS.length + 1 ? given.slice(0, -1) : given;
  const hasReading = base !== given && Object.values(IMPORT_READING_HEADER).some((h) => normalise(h) === normalise(given[given.length - 1]!));
  const matches =
    (base === given || hasReading) &&
    (['ja', 'en'] as const).some((l) => IMPORT_HEADERS[l].length === base.length && IMPORT_HEADERS[l].every((h, i) => normalise(h) === normalise(base[i] ?? '')));
  if (!matches) throw new AppError('unexpected_format', { expected_format: [...IMPORT_HEADERS[lang]], given_format: given });
  return { hasReading };
}

export interface ParsedRow {
  line: number;
  name: string;
  /** Normalised reading; null when the file has no reading column. */
  nameReading: string | null;
  email: string;
  department: string;
  extra: string[];
  meishi: boolean;
  scheduler: boolean;
  isAdmin: boolean;
}

/** One data record as a row, or the problems of its shape (quoting, columns, flags). */
export function toRow(record: CsvRecord, line: number, errors: ImportRowError[], layout: { hasReading: boolean } = { hasReading: false }): ParsedRow | null {
  if (record.quoteError) {
    errors.push({ row: line, column: null, error: 'parse' });
    return null;
  }
  const { cells } = record;
  if (cells.length !== IMPORT_COLUMNS.length + (layout.hasReading ? 1 : 0)) {
    errors.push({ row: line, column: null, error: 'columns' });
    return null;
  }
  const flag = (v: string | undefined, column: (typeof IMPORT_COLUMNS)[number]): boolean => {
    const s = (v ?? '').trim();
    if (s === '' || s === '0') return false;
    if (s === IMPORT_TRUE) return true;
    errors.push({ row: line, column, error: 'badFlag', value: s.slice(0, 40) });
    return false;
  };
  const [name, email, department, extra] = cells.map((c) => String(c ?? '').trim());
  const nameReading = layout.hasReading ? normaliseReading(String(cells[IMPORT_COLUMNS.length] ?? '')) : null;
  if (nameReading && readingProblem(nameReading)) errors.push({ row: line, column: IMPORT_READING_COLUMN, error: readingProblem(nameReading) === 'people.validation.readingKana' ? 'readingKana' : 'readingTooLong' });
  return {
    line,
    name: name!,
    nameReading,
    email: email!.toLowerCase(),
    department: department!,
    extra: extra ? extra.split(IMPORT_LIST_SEPARATOR).map((x) => x.trim()).filter(Boolean) : [],
    meishi: flag(cells[4], 'meishi'),
    scheduler: flag(cells[5], 'scheduler'),
    isAdmin: flag(cells[6], 'is_admin'),
  };
}
