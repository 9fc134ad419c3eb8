/**
 * The Pulsar C++ client's `JavaStringHash`, a port of Java's `String.hashCode` that is not the same
 * function: `hash = 31 * hash + val[i]` in uint32 over the key's bytes (`std::string`, UTF-8 for
 * a text key), each byte read as `char`, which is signed on x86-64, so a byte >= 0x80 adds a
 * negative value; then `& INT32_MAX`. For ASCII keys it equals Java's; for other keys it does not
 * (Java hashes UTF-16 code units). On a platform with unsigned `char` (aarch64) it would differ again.
 */
import { LONG_STRING, hashScratch, isPairSequence, utf8Sequence } from '../bytes';
import { hashCodeOfCharWords, hashCodeStep4 } from './javaStringHash';

export function javaStringHashCpp(bytes: Uint8Array, length: number = bytes.length): number {
  return javaStringHashCppInt(bytes, length) & 0x7fffffff;
}

/** The sum before the mask, four bytes a step as `hashCodeStep4` folds them. */
function javaStringHashCppInt(bytes: Uint8Array, length: number): number {
  let h = 0;
  const blocks = length & ~3;
  let i = 0;
  for (; i < blocks; i += 4) h = hashCodeStep4(h, (bytes[i] << 24) >> 24, (bytes[i + 1] << 24) >> 24, (bytes[i + 2] << 24) >> 24, (bytes[i + 3] << 24) >> 24);
  for (; i < length; i++) h = (Math.imul(h, 31) + ((bytes[i] << 24) >> 24)) | 0;
  return h;
}

/**
 * `javaStringHashCpp` of a string key's UTF-8 bytes. On an ASCII key the bytes are the code units,
 * so a short key is hashed from them, four ASCII units at a time; from a non-ASCII unit on, unit by
 * unit, each non-ASCII unit (or surrogate pair) as the bytes `utf8Sequence` gives it, sign-extended
 * as the C++ client's `char`. A long key is encoded into the reused buffer and hashed from there
 * (LONG_STRING).
 */
export function javaStringHashCppOfString(s: string): number {
  const n = s.length;
  if (n > LONG_STRING) {
    // Encode first: a long key replaces the buffer that `bytes` returns.
    const length = hashScratch.encode(s);
    return hashCodeOfCharWords(hashScratch.words, hashScratch.bytes, length) & 0x7fffffff;
  }
  let h = 0;
  const blocks = n & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 0x7f) break;
    h = hashCodeStep4(h, c0, c1, c2, c3);
  }
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      h = (Math.imul(h, 31) + c) | 0;
      continue;
    }
    let w = utf8Sequence(s, i, c);
    if (isPairSequence(w)) i++;
    do {
      h = (Math.imul(h, 31) + ((w << 24) >> 24)) | 0;
      w >>>= 8;
    } while (w !== 0);
  }
  return h & 0x7fffffff;
}
