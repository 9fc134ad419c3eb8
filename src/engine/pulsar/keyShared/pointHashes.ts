/**
 * The hashes of a consumer's ring point strings, `prefix + i` for i = 0, 1, ..., computed in one
 * go: the prefix is encoded to UTF-8 once, and MurmurHash3 runs over its whole 4-byte blocks once;
 * each point only continues from there with the prefix's last 0-3 bytes and the decimal digits of
 * `i`. The suffix is ASCII, so the bytes are exactly those of the whole string encoded (a
 * surrogate at the end of the prefix stays unpaired either way), as Java's `getBytes(UTF_8)` gives
 * them. The result equals `murmur3Masked(utf8(prefix + i))` (checked by a unit test).
 */
import { Utf8Scratch } from '../../bytes';
import { fmix, mixBlock, mixTail } from '../murmur3';
import { STICKY_KEY_HASH_NOT_SET } from './stickyKeyHash';

const scratch = new Utf8Scratch();

/**
 * `Murmur3_32Hash` (MurmurHash3 x86_32, seed 0, masked to 31 bits) of `UTF-8(prefix + i)`, i in
 * [0, count); with `range`, each reduced into it as `reduceIntoRange` does (4.x points).
 */
export function suffixedPointHashes(prefix: string, count: number, range?: readonly [number, number]): Int32Array {
  // As many points as a `for (i = 0; i < count; i++)` loop makes.
  const points = count > 0 ? Math.ceil(count) : 0;
  const out = new Int32Array(points);
  if (points === 0) return out;
  const n = scratch.encode(prefix);
  const bytes = scratch.bytes;
  // The state after the prefix's whole blocks, the same for every point.
  const whole = n & ~3;
  let h0 = 0;
  for (let i = 0; i < whole; i += 4) {
    h0 = mixBlock(h0, bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
  }
  // The rest of the prefix (0-3 bytes), then the digits of i (at most 10 for an int).
  const tail = new Uint8Array(16);
  const rest = n - whole;
  for (let j = 0; j < rest; j++) tail[j] = bytes[whole + j];
  // i in decimal, counted up in place: '0', '1', ..., '9', '10', ...
  tail[rest] = 48;
  let digits = 1;
  for (let i = 0; i < points; i++) {
    if (i > 0) {
      let j = rest + digits - 1;
      while (j >= rest && tail[j] === 57) tail[j--] = 48;
      if (j >= rest) tail[j]++;
      else {
        // 9...9 + 1: one digit more, 1 followed by zeros.
        tail[rest] = 49;
        tail[rest + digits] = 48;
        digits++;
      }
    }
    const len = rest + digits;
    let h = h0;
    const blocks = len & ~3;
    let j = 0;
    for (; j < blocks; j += 4) {
      h = mixBlock(h, tail[j] | (tail[j + 1] << 8) | (tail[j + 2] << 16) | (tail[j + 3] << 24));
    }
    const left = len & 3;
    if (left > 0) {
      let k = tail[j];
      if (left > 1) k ^= tail[j + 1] << 8;
      if (left > 2) k ^= tail[j + 2] << 16;
      h = mixTail(h, k);
    }
    out[i] = fmix(h, whole + len) & 0x7fffffff;
  }
  if (range) {
    const size = range[1] - range[0] + 1;
    for (let i = 0; i < points; i++) {
      // reduceIntoRange, inline (100,000 points): 0, "not set", becomes 1.
      const r = (out[i] % size) + range[0];
      out[i] = r === STICKY_KEY_HASH_NOT_SET ? 1 : r;
    }
  }
  return out;
}
