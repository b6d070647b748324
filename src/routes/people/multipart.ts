// A streaming reader of one file field of a multipart/form-data body (RFC 7578), on Web streams
// only (Node and workerd alike). `c.req.parseBody()` / `request.formData()` hold the whole body
// in memory; a 50 MB CSV import must not (decision 0030), so the file part's bytes are handed on
// as they arrive and every other part is skipped unread. The body's total size is counted and
// refused past `maxBytes` whether or not the request said its length.
import { AppError } from '../../domain/errors';

const CRLF = new Uint8Array([0x0d, 0x0a]);
const HEADER_END = new Uint8Array([0x0d, 0x0a, 0x0d, 0x0a]);
const MAX_HEADER_BYTES = 16 * 1024;

export class MalformedMultipart extends Error {}

/** First index of `pattern` in `buf` at or after `from`, or -1. */
export function indexOfBytes(buf: Uint8Array, pattern: Uint8Array, from = 0): number {
  const first = pattern[0]!;
  const last = buf.length - pattern.length;
  for (let i = buf.indexOf(first, from); i !== -1 && i <= last; i = buf.indexOf(first, i + 1)) {
    let j = 1;
    while (j < pattern.length && buf[i + j] === pattern[j]) j++;
    if (j === pattern.length) return i;
  }
  return -1;
}

/** The boundary parameter of a multipart/form-data content type, or null. */
export function boundaryOf(contentType: string): string | null {
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

/** Reads a body stream with a small look-ahead buffer. */
class Cursor {
  private buf: Uint8Array = new Uint8Array(0);
  private done = false;
  private total = 0;
  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly maxBytes: number,
  ) {}

  get bytes(): Uint8Array {
    return this.buf;
  }

  /** Reads one more chunk into the buffer; false at the end of the body. */
  async more(): Promise<boolean> {
    if (this.done) return false;
    const { done, value } = await this.reader.read();
    if (done) {
      this.done = true;
      return false;
    }
    this.total += value.length;
    if (this.total > this.maxBytes) {
      void this.reader.cancel().catch(() => undefined);
      throw new AppError('file-too-large');
    }
    if (!this.buf.length) this.buf = value;
    else {
      const joined = new Uint8Array(this.buf.length + value.length);
      joined.set(this.buf);
      joined.set(value, this.buf.length);
      this.buf = joined;
    }
    return true;
  }

  /** Drops the first `n` bytes. */
  skip(n: number): void {
    this.buf = this.buf.subarray(n);
  }

  /** Reads until `pattern` is in the buffer (at most `limit` bytes before it); its index. */
  async find(pattern: Uint8Array, limit: number): Promise<number> {
    for (;;) {
      const at = indexOfBytes(this.buf, pattern);
      if (at >= 0) return at;
      if (this.buf.length > limit + pattern.length) throw new MalformedMultipart('part headers too long');
      if (!(await this.more())) throw new MalformedMultipart('body ended early');
    }
  }

  cancel(): void {
    void this.reader.cancel().catch(() => undefined);
  }
}

export interface MultipartFile {
  /** The filename parameter ('' when the browser sent an empty file input). */
  name: string;
  /** The part's Content-Type ('' when absent). */
  type: string;
  /** The part's bytes, as they arrive; iterate it to the end, or cancel. */
  bytes: AsyncIterable<Uint8Array>;
  /** Stops reading the body (a refused file is not read on). */
  cancel(): void;
}

function param(disposition: string, key: string): string | null {
  const star = new RegExp(`;\\s*${key}\\*=UTF-8''([^;\\s]*)`, 'i').exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1]!);
    } catch {
      /* fall back to the plain parameter */
    }
  }
  const m = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition) ?? new RegExp(`;\\s*${key}=([^;\\s"]+)`, 'i').exec(disposition);
  return m ? m[1]!.replace(/\\(.)/g, '$1').replace(/%22/g, '"') : null;
}

/**
 * Finds the file part named `field` and returns it with its bytes still to be read; null when
 * the body has no such file part (a part with that name but no filename is not a file).
 * Throws `MalformedMultipart` for a body that is not multipart as declared, and
 * AppError('file-too-large', 413) past `maxBytes`.
 */
export async function openMultipartFile(body: ReadableStream<Uint8Array>, contentType: string, field: string, maxBytes: number): Promise<MultipartFile | null> {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new MalformedMultipart('no boundary');
  const cursor = new Cursor(body.getReader(), maxBytes);
  const delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  // The first delimiter may open the body (no CRLF before it): look for it without the CRLF.
  const opening = delimiter.subarray(2);
  const start = await cursor.find(opening, 64 * 1024);
  cursor.skip(start + opening.length);
  for (;;) {
    // After a delimiter: "--" ends the body; otherwise optional padding, CRLF, the part's headers.
    while (cursor.bytes.length < 2) if (!(await cursor.more())) throw new MalformedMultipart('body ended early');
    if (cursor.bytes[0] === 0x2d && cursor.bytes[1] === 0x2d) {
      cursor.cancel();
      return null;
    }
    const lineEnd = await cursor.find(CRLF, 1024);
    cursor.skip(lineEnd + CRLF.length);
    const headersEnd = await cursor.find(HEADER_END, MAX_HEADER_BYTES);
    const headers = new TextDecoder().decode(cursor.bytes.subarray(0, headersEnd));
    cursor.skip(headersEnd + HEADER_END.length);
    const disposition = /^content-disposition:\s*(.*)$/im.exec(headers)?.[1] ?? '';
    const type = /^content-type:\s*(.*)$/im.exec(headers)?.[1]?.trim() ?? '';
    const name = param(disposition, 'name');
    const filename = param(disposition, 'filename');
    if (name === field && filename !== null) {
      return { name: filename, type, bytes: partBytes(cursor, delimiter), cancel: () => cursor.cancel() };
    }
    // Another part: skip its body.
    for await (const _ of partBytes(cursor, delimiter)) void _;
  }
}

/** The bytes of the current part, up to the next delimiter (which is consumed). */
async function* partBytes(cursor: Cursor, delimiter: Uint8Array): AsyncGenerator<Uint8Array> {
  for (;;) {
    const at = indexOfBytes(cursor.bytes, delimiter);
    if (at >= 0) {
      if (at > 0) yield cursor.bytes.slice(0, at);
      cursor.skip(at + delimiter.length);
      return;
    }
    // Keep what could be the start of a delimiter cut by the chunk's end.
    const safe = cursor.bytes.length - (delimiter.length - 1);
    if (safe > 0) {
      yield cursor.bytes.slice(0, safe);
      cursor.skip(safe);
    }
    if (!(await cursor.more())) throw new MalformedMultipart('body ended inside a part');
  }
}
