/**
 * Java's `String.hashCode()` of the string that UTF-8 bytes spell, computed straight from the bytes
 * (no string is built), together with the strict-UTF-8 verdict the engine's `bytesKey` uses to
 * decide between a string key and a byte key.
 *
 * Pulsar's producer routes a keyed message on `JavaStringHash(key)`, a hash over UTF-16 code units,
 * so the analyser would otherwise have to decode every key line into a string. Decoding code points
 * here and folding their UTF-16 units into the hash gives the same number without allocating.
 *
 * Validity follows the WHATWG decoder that `TextDecoder('utf-8', { fatal: true })` implements:
 * no overlong forms, no surrogate code points, nothing above U+10FFFF, no truncated sequence.
 * A BOM is an ordinary character (the engine decodes with `ignoreBOM: true`).
 */
import { hashCodeStep4 } from '../engine/pulsar/javaStringHash';

export class Utf8JavaHash {
  /** `String.hashCode()` (signed 32-bit) of the decoded string; meaningful only when `run` returned true. */
  hash = 0;

  /** Decodes `bytes[0..length)`; false where they are not valid UTF-8 (then `hash` is undefined). */
  run(bytes: Uint8Array, length: number): boolean {
    let h = 0;
    let i = 0;
    while (i < length) {
      // Four ASCII bytes are four code units: one step of the hash for all four.
      if (i + 4 <= length) {
        const a0 = bytes[i];
        const a1 = bytes[i + 1];
        const a2 = bytes[i + 2];
        const a3 = bytes[i + 3];
        if ((a0 | a1 | a2 | a3) < 0x80) {
          h = hashCodeStep4(h, a0, a1, a2, a3);
          i += 4;
          continue;
        }
      }
      const b0 = bytes[i];
      if (b0 < 0x80) {
        h = (Math.imul(h, 31) + b0) | 0;
        i++;
        continue;
      }
      if (b0 >= 0xc2 && b0 <= 0xdf) {
        if (i + 1 >= length) return false;
        const b1 = bytes[i + 1];
        if ((b1 & 0xc0) !== 0x80) return false;
        h = (Math.imul(h, 31) + (((b0 & 0x1f) << 6) | (b1 & 0x3f))) | 0;
        i += 2;
        continue;
      }
      if (b0 >= 0xe0 && b0 <= 0xef) {
        if (i + 2 >= length) return false;
        const b1 = bytes[i + 1];
        const b2 = bytes[i + 2];
        // The second byte's range excludes overlongs (E0) and the surrogates (ED).
        const lo = b0 === 0xe0 ? 0xa0 : 0x80;
        const hi = b0 === 0xed ? 0x9f : 0xbf;
        if (b1 < lo || b1 > hi || (b2 & 0xc0) !== 0x80) return false;
        h = (Math.imul(h, 31) + (((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f))) | 0;
        i += 3;
        continue;
      }
      if (b0 >= 0xf0 && b0 <= 0xf4) {
        if (i + 3 >= length) return false;
        const b1 = bytes[i + 1];
        const b2 = bytes[i + 2];
        const b3 = bytes[i + 3];
        // Overlongs (F0) and code points above U+10FFFF (F4 90..) are invalid.
        const lo = b0 === 0xf0 ? 0x90 : 0x80;
        const hi = b0 === 0xf4 ? 0x8f : 0xbf;
        if (b1 < lo || b1 > hi || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return false;
        const cp = ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
        // Java holds it as a surrogate pair: two code units in the hash.
        const v = cp - 0x10000;
        h = (Math.imul(h, 31) + (0xd800 | (v >> 10))) | 0;
        h = (Math.imul(h, 31) + (0xdc00 | (v & 0x3ff))) | 0;
        i += 4;
        continue;
      }
      return false;
    }
    this.hash = h;
    return true;
  }
}
