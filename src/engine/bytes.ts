/**
 * Bytes of a message key, as the Java clients produce them.
 *
 * The engine runs in Node, in a webview and in VS Code for the Web, so it uses only
 * TextEncoder/Uint8Array (never Node's Buffer).
 */

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * UTF-8 bytes of a string as Java's `String.getBytes(UTF_8)` gives them. Java replaces an unpaired
 * surrogate with '?' (0x3f) where TextEncoder writes U+FFFD, so such strings are mended first.
 */
export function utf8(s: string): Uint8Array {
  // Encoding into the reused buffer and copying the bytes out is several times cheaper than
  // `encoder.encode`, whose fresh off-heap buffer per call dominates the cost of short keys.
  const n = utf8Scratch.encode(s);
  return utf8Scratch.bytes.slice(0, n);
}

/** The string with each unpaired surrogate replaced by '?', as Java's UTF-8 encoder does. */
export function javaWellFormed(s: string): string {
  return s.isWellFormed() ? s : s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '?');
}

/**
 * An ASCII key up to this many UTF-16 units is written by a plain loop where a hash needs its bytes
 * in memory (boostWasm.ts): for short keys the call into `encodeInto` (and the result object it
 * returns) costs more than the copy; above it the native encoder is faster.
 */
export const SHORT_STRING = 24;

/**
 * Encodes keys into one reused buffer: `encode` allocates per call, `encodeInto` does not, and the
 * allocation costs more than any of the hashes on short keys.
 */
export class Utf8Scratch {
  #buf: Uint8Array;
  #view: DataView;

  /**
   * `room(bytes)`, when given, supplies the buffer (at least `bytes` long) instead of a fresh array:
   * a WebAssembly module's memory, which the hash then reads in place. Growing that memory detaches
   * the old buffer, whose length becomes 0, so the next `reserve` asks again.
   */
  constructor(private readonly room?: (bytes: number) => Uint8Array) {
    this.#buf = room ? room(256) : new Uint8Array(256);
    this.#view = new DataView(this.#buf.buffer, this.#buf.byteOffset, this.#buf.length);
  }

  /**
   * Returns the number of bytes written at the start of `bytes`. Valid until the next call. The
   * hashes call it for a key with a non-ASCII unit or a long one (see LONG_STRING): for those the
   * native encoder is faster than a plain loop at any length (non-ASCII keys of 6-24 units: 73 ns a
   * key against 95).
   */
  encode(s: string): number {
    const n = s.length;
    this.#reserve(n);
    // The native encoder writes Java's bytes except for an unpaired surrogate (U+FFFD, not '?'):
    // a string with non-ASCII units (more bytes than units) that is not well formed is encoded again.
    const written = encoder.encodeInto(s, this.#buf).written;
    if (written === n || s.isWellFormed()) return written;
    return encodeJavaUtf8(s, n, this.#buf);
  }

  /**
   * Writes `s` as `encode` does when it is all ASCII (one byte per unit) and says whether it was;
   * for any other string the bytes are not Java's and must not be used.
   */
  encodeAscii(s: string): boolean {
    const n = s.length;
    this.#reserve(n);
    // Every non-ASCII unit takes 2 or 3 bytes here (an unpaired surrogate 3: U+FFFD).
    return encoder.encodeInto(s, this.#buf).written === n;
  }

  /**
   * Writes `s` as TextEncoder and Node's `Buffer.from` do (an unpaired surrogate is U+FFFD, where
   * Java writes '?') and returns the number of bytes.
   */
  encodeReplacing(s: string): number {
    this.#reserve(s.length);
    return encoder.encodeInto(s, this.#buf).written;
  }

  /** Room for `units` UTF-16 units: each takes at most 3 UTF-8 bytes. */
  #reserve(units: number): void {
    if (units * 3 <= this.#buf.length) return;
    this.#buf = this.room ? this.room(units * 3) : new Uint8Array(Math.max(units * 3, this.#buf.length * 2));
    this.#view = new DataView(this.#buf.buffer, this.#buf.byteOffset, this.#buf.length);
  }

  get bytes(): Uint8Array {
    return this.#buf;
  }

  /** The same bytes, for reading 4 at a time as little-endian words. */
  get words(): DataView {
    return this.#view;
  }
}

const utf8Scratch = new Utf8Scratch();

/**
 * The scratch the string hashes (murmur2, CRC-32, a long key's murmur3, ...) encode a key into
 * when they do not hash it from its code units; shared, since each is done with it before it
 * returns. The byte-serial hashes (FNV-1a, BoostHash 1.80, the C++ JavaStringHash) and a short
 * key's murmur3 go on from a non-ASCII unit with its bytes (`utf8Sequence`) instead; murmur2, whose
 * seed takes the byte length, measured slower that way (the length counted first: 34.6 ns a key on
 * the nonAscii10 set against 32.5 encoded), and so did CRC-32, whose words are looked up 8 bytes a
 * step (byte by byte: 39.8 against 35.0).
 */
export const hashScratch = new Utf8Scratch();

/**
 * A block hash reads up to this many ASCII UTF-16 units with `charCodeAt`, four to a block, and
 * encodes longer strings into `hashScratch` to hash their bytes 4 at a time (a non-ASCII unit: see
 * `hashScratch`).
 * `charCodeAt` costs about a nanosecond a unit (V8 checks the string's representation on every
 * call), `encodeInto` a fixed 30-40 ns and then copies at native speed; on Node 20 the two paths
 * cross between 40 and 48 units.
 */
export const LONG_STRING = 40;

/** The last `rest` (0-3) bytes from `i` as the little-endian tail of a 4-byte block. */
export function bytesTail(b: Uint8Array, i: number, rest: number): number {
  return rest === 0 ? 0 : rest === 1 ? b[i] : rest === 2 ? b[i] | (b[i + 1] << 8) : b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
}

/**
 * The last `rest` (0-3) units of `s` from `i` as the little-endian bytes of a block's tail when
 * they are ASCII (each unit is then its byte), else -1. (The block loops read their four units
 * inline: a helper returning a block or -1 there costs a second branch per block, measured at
 * about 8% on UUID keys.)
 */
export function asciiTail(s: string, i: number, rest: number): number {
  if (rest === 0) return 0;
  const c0 = s.charCodeAt(i);
  const c1 = rest > 1 ? s.charCodeAt(i + 1) : 0;
  const c2 = rest > 2 ? s.charCodeAt(i + 2) : 0;
  return (c0 | c1 | c2) > 0x7f ? -1 : c0 | (c1 << 8) | (c2 << 16);
}

/**
 * The UTF-8 bytes Java's encoder writes for the non-ASCII unit `c` at `i` of `s`, packed
 * little-endian (the first byte lowest): 2 bytes below U+0800; 4 for a surrogate pair, whose first
 * byte is 0xf0-0xf4 and whose second unit the caller steps over; '?' (0x3f) for an unpaired
 * surrogate; else 3. None of the bytes is 0, so a caller takes bytes until what is left is 0.
 */
export function utf8Sequence(s: string, i: number, c: number): number {
  if (c < 0x800) return 0xc0 | (c >> 6) | ((0x80 | (c & 0x3f)) << 8);
  if (c < 0xd800 || c > 0xdfff) return 0xe0 | (c >> 12) | ((0x80 | ((c >> 6) & 0x3f)) << 8) | ((0x80 | (c & 0x3f)) << 16);
  const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
  if (c > 0xdbff || d < 0xdc00 || d > 0xdfff) return 0x3f;
  const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
  return 0xf0 | (cp >> 18) | ((0x80 | ((cp >> 12) & 0x3f)) << 8) | ((0x80 | ((cp >> 6) & 0x3f)) << 16) | ((0x80 | (cp & 0x3f)) << 24);
}

/** Whether a packed `utf8Sequence` is a surrogate pair's (two units). */
export function isPairSequence(w: number): boolean {
  return (w & 0xf8) === 0xf0;
}

/**
 * `s` in UTF-8 as Java's encoder writes it, into `out` (room for 3 bytes per unit): a surrogate pair
 * is one 4-byte code point, an unpaired surrogate is '?'. The same bytes as `utf8(s)`.
 */
function encodeJavaUtf8(s: string, n: number, out: Uint8Array): number {
  let j = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      out[j++] = c;
      continue;
    }
    let w = utf8Sequence(s, i, c);
    if (isPairSequence(w)) i++;
    do {
      out[j++] = w & 0xff;
      w >>>= 8;
    } while (w !== 0);
  }
  return j;
}

/** The string the bytes spell in UTF-8, or null where they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Parses hex (either case, no separators, even length) into bytes; throws with what is wrong: the
 * first character that is not a hex digit (a space in "75 73", not an odd count), else an odd count.
 */
export function parseHex(hex: string): Uint8Array {
  const bad = /[^\da-f]/i.exec(hex);
  if (bad) throw new Error(`invalid hex: ${JSON.stringify(bad[0])} at position ${bad.index}`);
  if (hex.length % 2 !== 0) throw new Error(`invalid hex: odd number of digits (${hex.length})`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = (hexDigit(hex.charCodeAt(2 * i)) << 4) | hexDigit(hex.charCodeAt(2 * i + 1));
  return out;
}

/** The bytes in lower-case hex, two digits each. */
export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
  return s;
}

/** The value of an ASCII hex digit (either case), or -1. */
export function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding, as `java.util.Base64.getEncoder()` writes it. */
export function base64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[n >>> 18] + B64[(n >>> 12) & 63] + B64[(n >>> 6) & 63] + B64[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += B64[n >>> 18] + B64[(n >>> 12) & 63] + '==';
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += B64[n >>> 18] + B64[(n >>> 12) & 63] + B64[(n >>> 6) & 63] + '=';
  }
  return out;
}
