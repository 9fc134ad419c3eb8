/**
 * CRC-32 as Guava's `Hashing.crc32()` computes it: the standard IEEE 802.3 / zlib CRC-32
 * (reflected polynomial 0xEDB88320, initial value and final xor 0xFFFFFFFF), which Guava takes from
 * `java.util.zip.CRC32`. The broker's `NamespaceBundleFactory` hashes topic names with it and
 * widens the 32 bits with `padToLong()`, i.e. unsigned; so this returns 0..0xffffffff.
 *
 * Computed 8 bytes at a time ("slicing-by-8"): table k holds the CRC of a byte followed by k zero
 * bytes, so the 8 lookups of a step are independent of each other and only one xor per 8 bytes
 * waits on the previous step, where the byte-at-a-time loop waits on a lookup per byte.
 */
import { LONG_STRING, hashScratch } from '../bytes';

/** Tables 0..7, 256 entries each: TABLES[k * 256 + b]. */
const TABLES = buildTables();

function buildTables(): Int32Array {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let k = 1; k < 8; k++) {
    for (let n = 0; n < 256; n++) {
      const prev = t[(k - 1) * 256 + n];
      t[k * 256 + n] = (prev >>> 8) ^ t[prev & 0xff];
    }
  }
  return t;
}

/** One byte into the running CRC `c`. */
function step1(c: number, b: number): number {
  return TABLES[(c ^ b) & 0xff] ^ (c >>> 8);
}

/** Four bytes, as a little-endian word `a`, into `c`. */
function step4(c: number, a: number): number {
  const t = TABLES;
  c ^= a;
  return t[0x300 + (c & 0xff)] ^ t[0x200 + ((c >>> 8) & 0xff)] ^ t[0x100 + ((c >>> 16) & 0xff)] ^ t[c >>> 24];
}

/** Eight bytes, as two little-endian words `a` (bytes 0-3) and `b` (bytes 4-7), into `c`. */
function step8(c: number, a: number, b: number): number {
  const t = TABLES;
  c ^= a;
  return (
    t[0x700 + (c & 0xff)] ^
    t[0x600 + ((c >>> 8) & 0xff)] ^
    t[0x500 + ((c >>> 16) & 0xff)] ^
    t[0x400 + (c >>> 24)] ^
    t[0x300 + (b & 0xff)] ^
    t[0x200 + ((b >>> 8) & 0xff)] ^
    t[0x100 + ((b >>> 16) & 0xff)] ^
    t[b >>> 24]
  );
}

/** CRC-32 of `bytes[0..length)`, unsigned. */
export function crc32(bytes: Uint8Array, length: number = bytes.length): number {
  return crc32Int(bytes, length) >>> 0;
}

// The loops return the CRC's 32 bits as a signed int, which V8 passes back unboxed where an
// unsigned value above 2^31 would be a fresh heap number per call; the exported functions are
// one-line wrappers that inline into their callers and take `>>> 0` there.

function crc32Int(bytes: Uint8Array, length: number): number {
  let c = -1;
  const blocks = length & ~7;
  let i = 0;
  for (; i < blocks; i += 8) {
    c = step8(c, bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24), bytes[i + 4] | (bytes[i + 5] << 8) | (bytes[i + 6] << 16) | (bytes[i + 7] << 24));
  }
  for (; i < length; i++) c = step1(c, bytes[i]);
  return ~c;
}

/** CRC-32 of `length` bytes read 4 at a time as little-endian words (`words` views `bytes`). */
function crc32Words(words: DataView, bytes: Uint8Array, length: number): number {
  let c = -1;
  const blocks = length & ~7;
  let i = 0;
  for (; i < blocks; i += 8) c = step8(c, words.getInt32(i, true), words.getInt32(i + 4, true));
  for (; i < length; i++) c = step1(c, bytes[i]);
  return ~c;
}

function crc32OfEncoded(s: string): number {
  const length = hashScratch.encode(s);
  return crc32Words(hashScratch.words, hashScratch.bytes, length);
}

/**
 * CRC-32 of a string's UTF-8 bytes (Java's `getBytes(UTF_8)`, as Guava's `hashString(s, UTF_8)`
 * and the clients that hash the key bytes). A short ASCII string is read from its code units, 4 to
 * a step (reading the units costs more than the lookups, and the smaller step leaves callers room
 * to inline the whole function), with no byte array; a long one, or one with a non-ASCII unit, is encoded into a reused
 * buffer and hashed from there (see LONG_STRING).
 */
export function crc32OfString(s: string): number {
  return crc32OfStringInt(s) >>> 0;
}

function crc32OfStringInt(s: string): number {
  const n = s.length;
  if (n > LONG_STRING) return crc32OfEncoded(s);
  let c = -1;
  const blocks = n & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 0x7f) return crc32OfEncoded(s);
    c = step4(c, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24));
  }
  for (; i < n; i++) {
    const u = s.charCodeAt(i);
    if (u > 0x7f) return crc32OfEncoded(s);
    c = step1(c, u);
  }
  return ~c;
}
