/**
 * Streaming key readers: bytes in (chunks of any size, split anywhere), keys out. One key per line,
 * a column of CSV/TSV, or a field of JSON Lines; the key given as its text (UTF-8) or as hex.
 *
 * Memory stays flat whatever the input: a reader keeps at most one key (capped at `maxKeyBytes`)
 * and, for a CSV record whose quoted field spans lines, at most `maxRecordBytes` of it. A line that
 * cannot give a key is reported to the sink with its 1-based line number and skipped.
 *
 * No Node import: the same readers run in a worker thread, a web worker and the CLI.
 */
import { hexDigit, Utf8Scratch } from '../engine/bytes';

export type KeyFormat = 'utf8' | 'hex';

/** Where keys and problems go. `bytes[0..length)` is valid only during the call. */
export interface KeySink {
  /**
   * One key. `text` is non-null only where the input gave the key as a string that UTF-8 bytes do
   * not fully describe (JSON strings, which may hold unpaired surrogates); otherwise the key is its
   * bytes, a string key where they are valid UTF-8 and a byte key where not (as `bytesKey`).
   */
  key(bytes: Uint8Array, length: number, text: string | null, line: number): void;
  problem(line: number, message: string): void;
  /** A line with nothing on it where the format has no key there (CSV, JSON Lines). */
  blank(line: number): void;
}

export interface KeyReader {
  feed(chunk: Uint8Array): void;
  end(): void;
  /** Physical lines seen so far. */
  readonly lines: number;
}

export const DEFAULT_MAX_KEY_BYTES = 1 << 20;
export const DEFAULT_MAX_RECORD_BYTES = 1 << 20;

/** A growable byte buffer that is reused from key to key. */
class Bytes {
  buf: Uint8Array;
  length = 0;
  constructor(initial = 256) {
    this.buf = new Uint8Array(initial);
  }
  push(b: number): void {
    if (this.length === this.buf.length) this.#grow(this.length + 1);
    this.buf[this.length++] = b;
  }
  append(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (this.length + n > this.buf.length) this.#grow(this.length + n);
    const buf = this.buf;
    let j = this.length;
    // Short runs (most keys) copy faster in a loop than through a subarray view and memcpy.
    if (n < 64) for (let i = start; i < end; i++) buf[j++] = src[i];
    else buf.set(src.subarray(start, end), j);
    this.length += n;
  }
  #grow(min: number): void {
    let size = Math.max(16, this.buf.length * 2);
    while (size < min) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a || c === 0x0b || c === 0x0c;
}

/**
 * Hex text in `src[start..end)` (surrounding whitespace ignored, as the CLI's `route` trims it)
 * decoded into `out`; returns an error message (the wording of the engine's `parseHex`) or null.
 */
function decodeHex(src: Uint8Array, start: number, end: number, out: Bytes): string | null {
  while (start < end && isSpace(src[start])) start++;
  while (end > start && isSpace(src[end - 1])) end--;
  out.length = 0;
  // One pass; a byte that is not a hex digit is named before the count is judged: "75 73" has a
  // space, not an odd count.
  let hi = 0;
  for (let i = start; i < end; i++) {
    const d = hexDigit(src[i]);
    if (d < 0) return `invalid hex: ${JSON.stringify(String.fromCharCode(src[i]))} at position ${i - start}`;
    if ((i - start) % 2 === 0) hi = d;
    else out.push((hi << 4) | d);
  }
  return (end - start) % 2 === 0 ? null : `invalid hex: odd number of digits (${end - start})`;
}

/** Emits the key held in `field` (text or hex) to the sink, or its problem. */
function emitKey(sink: KeySink, format: KeyFormat, field: Bytes, hex: Bytes, line: number): void {
  if (format === 'utf8') {
    sink.key(field.buf, field.length, null, line);
    return;
  }
  const err = decodeHex(field.buf, 0, field.length, hex);
  if (err !== null) sink.problem(line, err);
  else sink.key(hex.buf, hex.length, null, line);
}

/** Bytes scanned for a line break in JavaScript before handing over to indexOf. */
const SCAN = 64;

/**
 * A reader of lines: splits bytes into lines at LF (a CR before the LF is dropped; no line after a
 * final LF), as the CLI reads stdin for `route`, and hands each to `onLine`.
 */
abstract class LineSplitter implements KeyReader {
  lines = 0;
  readonly #cur = new Bytes();
  #partial = false;
  #tooLong = false;

  constructor(private readonly maxLineBytes: number) {}

  /** A line's bytes (`buf[0..length)`, reused for the next line), its number, and whether it was cut off past the maximum. */
  protected abstract onLine(buf: Uint8Array, length: number, line: number, tooLong: boolean): void;

  feed(chunk: Uint8Array): void {
    let pos = 0;
    const n = chunk.length;
    while (pos < n) {
      // Most keys are short: a plain scan finds their end faster than a call to indexOf; a line
      // that runs past SCAN bytes is finished with indexOf (memchr) instead.
      const stop = pos + SCAN < n ? pos + SCAN : n;
      let end = pos;
      while (end < stop && chunk[end] !== 0x0a) end++;
      if (end === stop && end < n) {
        const nl = chunk.indexOf(0x0a, end);
        end = nl < 0 ? n : nl;
      }
      if (!this.#tooLong) {
        if (this.#cur.length + (end - pos) > this.maxLineBytes + 1) this.#tooLong = true;
        else this.#cur.append(chunk, pos, end);
      }
      this.#partial = true;
      if (end === n) return;
      this.#emit();
      pos = end + 1;
    }
  }

  end(): void {
    if (this.#partial) this.#emit();
  }

  #emit(): void {
    this.lines++;
    let len = this.#cur.length;
    if (len > 0 && this.#cur.buf[len - 1] === 0x0d) len--;
    // The one extra byte allowed above is the CR of a CRLF line of exactly the maximum length.
    const tooLong = this.#tooLong || len > this.maxLineBytes;
    this.onLine(this.#cur.buf, len, this.lines, tooLong);
    this.#cur.length = 0;
    this.#partial = false;
    this.#tooLong = false;
  }
}

/** One key per line: the line's bytes (UTF-8) or the line's hex. An empty line is the empty key. */
export class LineKeyReader extends LineSplitter {
  readonly #hex = new Bytes();
  readonly #field = new Bytes(0);

  constructor(
    private readonly sink: KeySink,
    private readonly format: KeyFormat,
    private readonly maxKeyBytes: number = DEFAULT_MAX_KEY_BYTES,
  ) {
    // Hex text takes two characters a byte (plus whitespace): allow for it.
    super(format === 'hex' ? 2 * maxKeyBytes + 64 : maxKeyBytes);
  }

  protected onLine(buf: Uint8Array, length: number, line: number, tooLong: boolean): void {
    if (tooLong) {
      this.sink.problem(line, `the line is longer than the ${this.maxKeyBytes}-byte key limit; skipped`);
      return;
    }
    // Borrow the splitter's buffer: no copy for the common case.
    this.#field.buf = buf;
    this.#field.length = length;
    emitKey(this.sink, this.format, this.#field, this.#hex, line);
  }
}

/** Which CSV column holds the key: a 1-based index, or a header name (the first record is the header). */
export type CsvColumn = { index: number } | { name: string };

export type CsvDelimiter = ',' | '\t' | 'auto';

/** Parses the `--column` value: a positive integer (1-based) or a header name. */
export function parseColumn(v: string): CsvColumn {
  if (/^\d+$/.test(v)) {
    const index = Number(v);
    if (index < 1) throw new Error('--column counts from 1 (the first column is 1); 0 is not a column');
    if (index > 1_000_000) throw new Error(`--column ${v}: too large`);
    return { index };
  }
  if (v.trim() === '') throw new Error('--column needs a column number (from 1) or a header name');
  return { name: v };
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

const enum Csv {
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted field: the field's end, or the first of a doubled quote. */
  QuoteInQuoted,
  /** The record is malformed: skip to the end of its line. */
  Bad,
}

/**
 * RFC 4180 CSV (or TSV with the same quoting): fields separated by the delimiter, records by LF or
 * CRLF; a field that starts with `"` is quoted and may hold delimiters, line breaks and doubled
 * quotes (`""` is one `"`). A quote anywhere else in an unquoted field, or anything but a delimiter
 * or the end of the record after a closing quote, makes the record malformed. Empty lines are
 * skipped (reported to the sink as blank), whatever the column.
 *
 * A record is accepted only if it is well formed. A malformed record whose quoted field ran over
 * several lines (an unbalanced quote, the usual CSV damage) is reported at its first line and
 * reading starts again on the line after it, so one stray quote costs one line, not the rest of the
 * file. To do that with flat memory, such a record may span at most `maxRecordBytes`.
 */
export class CsvKeyReader implements KeyReader {
  #state = Csv.FieldStart;
  #delimiter: number;
  /** 0-based index of the key column, or -1 until the header names it. */
  #column: number;
  readonly #headerName: string | null;
  /** While the header is being read: its fields. */
  #header: Bytes[] | null = null;
  readonly #field = new Bytes();
  readonly #hex = new Bytes();
  readonly #fieldLimit: number;
  /** Field index within the record. */
  #fieldIndex = 0;
  /** The key field overflowed the limit. */
  #keyTooLong = false;
  /** A CR seen outside quotes; dropped if an LF follows. */
  #pendingCR = false;
  /** The record has started (a byte other than a line break was seen). */
  #inRecord = false;
  #recordLine = 1;
  #line = 1;
  /** The record has crossed a line break inside quotes; `raw` holds its bytes after the first one. */
  #spanning = false;
  readonly #raw = new Bytes(0);
  #badMessage = '';
  /** Input still to scan, the top first: fed chunks and replays of rewound records. */
  readonly #stack: Array<{ bytes: Uint8Array; pos: number; replay: boolean }> = [];
  #lineFeeds = 0;
  #lastByte = LF;

  constructor(
    private readonly sink: KeySink,
    private readonly format: KeyFormat,
    column: CsvColumn,
    delimiter: CsvDelimiter = 'auto',
    private readonly maxKeyBytes: number = DEFAULT_MAX_KEY_BYTES,
    private readonly maxRecordBytes: number = DEFAULT_MAX_RECORD_BYTES,
  ) {
    this.#delimiter = delimiter === 'auto' ? -1 : delimiter.charCodeAt(0);
    this.#fieldLimit = format === 'hex' ? 2 * maxKeyBytes + 64 : maxKeyBytes;
    if ('index' in column) {
      this.#column = column.index - 1;
      this.#headerName = null;
    } else {
      this.#column = -1;
      this.#headerName = column.name;
      this.#header = [];
    }
  }

  get lines(): number {
    return this.#lineFeeds + (this.#lastByte === LF ? 0 : 1);
  }

  /** The delimiter in use (after `auto` has looked at the first line), or null before. */
  get delimiterUsed(): string | null {
    return this.#delimiter < 0 ? null : String.fromCharCode(this.#delimiter);
  }

  feed(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.#delimiter < 0) this.#delimiter = sniffDelimiter(chunk);
    this.#lastByte = chunk[chunk.length - 1];
    this.#stack.push({ bytes: chunk, pos: 0, replay: false });
    this.#drain();
  }

  end(): void {
    for (;;) {
      if (this.#state === Csv.Quoted) {
        if (this.#rewind('no closing quote before the end of the input', false)) {
          this.#drain();
          continue;
        }
        this.sink.problem(this.#recordLine, 'the quoted field is never closed');
      } else if (this.#state === Csv.Bad) {
        this.sink.problem(this.#recordLine, this.#badMessage);
      } else if (this.#inRecord) {
        // A CR at the very end ends the line, as the line reader drops it.
        this.#pendingCR = false;
        this.#endRecord();
      }
      this.#resetRecord();
      return;
    }
  }

  #drain(): void {
    while (this.#stack.length > 0) {
      const top = this.#stack[this.#stack.length - 1];
      const stop = this.#scan(top.bytes, top.pos, top.replay);
      if (stop < 0) this.#stack.pop();
      else top.pos = stop;
    }
  }

  /**
   * Runs the state machine over `bytes[pos..]`. Returns -1 when all were consumed, or the index to
   * resume at after a rewind pushed the replay of a malformed multi-line record onto the stack.
   */
  #scan(bytes: Uint8Array, pos: number, replay: boolean): number {
    const delim = this.#delimiter;
    const n = bytes.length;
    for (let i = pos; i < n; i++) {
      const c = bytes[i];
      if (c === LF && !replay) this.#lineFeeds++;
      if (this.#spanning) {
        this.#raw.push(c);
        if (this.#raw.length > this.maxRecordBytes) {
          this.#rewind(`no closing quote within ${this.maxRecordBytes} bytes`, true);
          return i;
        }
      }
      if (this.#pendingCR) {
        this.#pendingCR = false;
        if (c === LF) {
          this.#endRecord();
          continue;
        }
        // A lone CR: data in an unquoted field, out of place after a closing quote.
        if (this.#state === Csv.QuoteInQuoted) {
          if (this.#bad(`a character after the closing quote of field ${this.#fieldIndex + 1}`)) return i;
          continue;
        }
        this.#state = Csv.Unquoted;
        this.#fieldByte(CR);
      }
      switch (this.#state) {
        case Csv.FieldStart:
          if (c === LF) {
            this.#endRecord();
            break;
          }
          this.#inRecord = true;
          if (c === QUOTE) this.#state = Csv.Quoted;
          else if (c === delim) this.#fieldIndex++;
          else if (c === CR) this.#pendingCR = true;
          else {
            this.#state = Csv.Unquoted;
            this.#fieldByte(c);
          }
          break;
        case Csv.Unquoted:
          if (c === delim) {
            this.#fieldIndex++;
            this.#state = Csv.FieldStart;
          } else if (c === LF) this.#endRecord();
          else if (c === CR) this.#pendingCR = true;
          else if (c === QUOTE) {
            if (this.#bad(`a quote inside unquoted field ${this.#fieldIndex + 1} (quote the whole field and double the quote)`)) return i;
          } else this.#fieldByte(c);
          break;
        case Csv.Quoted:
          if (c === QUOTE) this.#state = Csv.QuoteInQuoted;
          else {
            if (c === LF) {
              this.#line++;
              if (!this.#spanning) {
                this.#spanning = true;
                this.#raw.length = 0;
              }
            }
            this.#fieldByte(c);
          }
          break;
        case Csv.QuoteInQuoted:
          if (c === QUOTE) {
            this.#fieldByte(QUOTE);
            this.#state = Csv.Quoted;
          } else if (c === delim) {
            this.#fieldIndex++;
            this.#state = Csv.FieldStart;
          } else if (c === LF) this.#endRecord();
          else if (c === CR) this.#pendingCR = true;
          else if (this.#bad(`a character after the closing quote of field ${this.#fieldIndex + 1}`)) return i;
          break;
        case Csv.Bad:
          if (c === LF) {
            this.sink.problem(this.#recordLine, this.#badMessage);
            this.#nextRecord();
          }
          break;
      }
    }
    return -1;
  }

  /** Marks the record malformed; true where that rewound a multi-line record (resume at this byte). */
  #bad(message: string): boolean {
    if (this.#spanning) return this.#rewind(message, true);
    this.#badMessage = message;
    this.#state = Csv.Bad;
    return false;
  }

  /**
   * Reports a malformed multi-line record at its first line and replays everything after that
   * line's break as new records. `current` says the byte being scanned is the last one in `raw`:
   * it is left out of the replay, since the scan resumes at it.
   */
  #rewind(message: string, current: boolean): boolean {
    if (!this.#spanning) return false;
    this.sink.problem(this.#recordLine, `a quoted field that starts on this line is not closed properly (${message}); only this line is skipped, reading resumes on line ${this.#recordLine + 1}`);
    const replay = this.#raw.buf.slice(0, current ? this.#raw.length - 1 : this.#raw.length);
    const nextLine = this.#recordLine + 1;
    this.#resetRecord();
    this.#line = nextLine;
    this.#recordLine = nextLine;
    this.#stack.push({ bytes: replay, pos: 0, replay: true });
    return true;
  }

  #fieldByte(c: number): void {
    if (this.#header !== null) {
      while (this.#header.length <= this.#fieldIndex) this.#header.push(new Bytes(16));
      const f = this.#header[this.#fieldIndex];
      if (f.length < this.maxKeyBytes) f.push(c);
      return;
    }
    if (this.#fieldIndex !== this.#column) return;
    if (this.#field.length >= this.#fieldLimit) this.#keyTooLong = true;
    else this.#field.push(c);
  }

  #endRecord(): void {
    const line = this.#recordLine;
    if (!this.#inRecord) {
      this.sink.blank(line);
    } else if (this.#header !== null) {
      const dec = new TextDecoder();
      const names: string[] = [];
      for (let f = 0; f <= this.#fieldIndex; f++) {
        const b = this.#header[f];
        names.push(b ? dec.decode(b.buf.subarray(0, b.length)) : '');
      }
      this.#header = null;
      const at = names.indexOf(this.#headerName!);
      if (at < 0) {
        throw new AnalyzeInputError(
          `--column ${JSON.stringify(this.#headerName)}: no such column in the header on line ${line} (columns: ${names.map((s) => JSON.stringify(s)).join(', ')})`,
        );
      }
      this.#column = at;
    } else if (this.#fieldIndex < this.#column) {
      const n = this.#fieldIndex + 1;
      this.sink.problem(line, `the record has ${n} field${n === 1 ? '' : 's'}; column ${this.#column + 1} is missing`);
    } else if (this.#keyTooLong) {
      this.sink.problem(line, `the key in column ${this.#column + 1} is longer than the ${this.maxKeyBytes}-byte key limit`);
    } else {
      emitKey(this.sink, this.format, this.#field, this.#hex, line);
    }
    this.#nextRecord();
  }

  /** After a line break that ends a record: the next record starts on the next line. */
  #nextRecord(): void {
    this.#resetRecord();
    this.#line++;
    this.#recordLine = this.#line;
  }

  #resetRecord(): void {
    this.#state = Csv.FieldStart;
    this.#fieldIndex = 0;
    this.#field.length = 0;
    this.#keyTooLong = false;
    this.#pendingCR = false;
    this.#inRecord = false;
    this.#spanning = false;
    this.#raw.length = 0;
    if (this.#header !== null) this.#header = [];
  }
}

/** `auto` delimiter: a tab if the first line has more tabs than commas, else a comma. */
function sniffDelimiter(chunk: Uint8Array): number {
  let tabs = 0;
  let commas = 0;
  for (let i = 0; i < chunk.length && chunk[i] !== LF; i++) {
    if (chunk[i] === 0x09) tabs++;
    else if (chunk[i] === 0x2c) commas++;
  }
  return tabs > commas ? 0x09 : 0x2c;
}

/** An input that cannot be analysed at all (a CSV header without the named column). */
export class AnalyzeInputError extends Error {}

/**
 * JSON Lines: each non-blank line is a JSON object; the key is its top-level field `field`, a
 * string (or, for convenience, a safe integer, taken as its decimal text). With `hex` the field is
 * the key's bytes in hex. A line that is not JSON, not an object, or lacks the field is reported.
 */
export class JsonLinesKeyReader extends LineSplitter {
  readonly #decoder = new TextDecoder();
  readonly #encoder = new TextEncoder();
  readonly #hex = new Bytes();
  readonly #text = new Utf8Scratch();

  constructor(
    private readonly sink: KeySink,
    private readonly format: KeyFormat,
    private readonly field: string,
    private readonly maxKeyBytes: number = DEFAULT_MAX_KEY_BYTES,
  ) {
    // A JSON line holds the key escaped (up to 6 characters a byte) plus the rest of the object.
    super(8 * maxKeyBytes);
  }

  protected onLine(buf: Uint8Array, length: number, line: number, tooLong: boolean): void {
    if (tooLong) {
      this.sink.problem(line, 'the line is too long for a JSON object holding one key; skipped');
      return;
    }
    let blank = true;
    for (let i = 0; i < length; i++) {
      if (!isSpace(buf[i])) {
        blank = false;
        break;
      }
    }
    if (blank) {
      this.sink.blank(line);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(this.#decoder.decode(buf.subarray(0, length)));
    } catch (e) {
      this.sink.problem(line, `not valid JSON (${(e as Error).message})`);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.sink.problem(line, `not a JSON object (got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value})`);
      return;
    }
    if (!Object.prototype.hasOwnProperty.call(value, this.field)) {
      this.sink.problem(line, `no field ${JSON.stringify(this.field)}`);
      return;
    }
    let key = (value as Record<string, unknown>)[this.field];
    if (typeof key === 'number' && Number.isSafeInteger(key)) key = String(key);
    if (typeof key !== 'string') {
      const got = key === null ? 'null' : Array.isArray(key) ? 'an array' : typeof key;
      this.sink.problem(line, `field ${JSON.stringify(this.field)} is ${got}, not a string`);
      return;
    }
    if (this.format === 'hex') {
      const src = this.#encoder.encode(key);
      const err = decodeHex(src, 0, src.length, this.#hex);
      if (err !== null) this.sink.problem(line, err);
      else if (this.#hex.length > this.maxKeyBytes) this.sink.problem(line, `the key is longer than the ${this.maxKeyBytes}-byte key limit`);
      else this.sink.key(this.#hex.buf, this.#hex.length, null, line);
      return;
    }
    // The key is this string; its bytes are what Java's UTF-8 encoder writes for it.
    const n = this.#text.encode(key);
    if (n > this.maxKeyBytes) {
      this.sink.problem(line, `the key is longer than the ${this.maxKeyBytes}-byte key limit`);
      return;
    }
    this.sink.key(this.#text.bytes, n, key, line);
  }
}
