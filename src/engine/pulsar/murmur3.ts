/**
 * MurmurHash3 x86_32, seed 0, and Pulsar's `Murmur3_32Hash`, which masks the result to 31 bits.
 *
 * The product's reference implementation is `murmurhash3js-revisited`; `murmur3` below is a
 * specialised `Math.imul` loop that computes the same function several times faster on bulk
 * input. A unit test checks it against the library on every benchmark key set.
 */
import { LONG_STRING, asciiTail, bytesTail, hashScratch, isPairSequence, utf8Sequence } from '../bytes';

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** One 4-byte block `k` mixed into the state `h` (the body step of MurmurHash3 x86_32). */
export function mixBlock(h: number, k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** The 1-3 tail bytes `k` mixed into `h` (no rotation of `h` after them). */
export function mixTail(h: number, k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  return h ^ k;
}

/**
 * The final avalanche with the total byte length. Returns the 32 bits as a signed int: the hash
 * functions return that (a signed value fits V8's small integers where the unsigned one would be
 * boxed in a heap number on every call that is not inlined) and the exported ones take `>>> 0` or
 * the mask in a one-line wrapper that inlines into the caller.
 */
export function fmix(h: number, length: number): number {
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** MurmurHash3 x86_32 with seed 0 over `data[0..length)`, as an unsigned 32-bit number. */
export function murmur3(data: Uint8Array, length: number = data.length): number {
  return murmur3Int(data, length) >>> 0;
}

/** `murmur3` as a signed 32-bit int (see `fmix`). */
function murmur3Int(data: Uint8Array, length: number): number {
  let h = 0;
  const blocks = length & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    h = mixBlock(h, data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
  }
  let k = 0;
  switch (length & 3) {
    case 3:
      k ^= data[i + 2] << 16;
    // falls through
    case 2:
      k ^= data[i + 1] << 8;
    // falls through
    case 1:
      k ^= data[i];
      h = mixTail(h, k);
  }
  return fmix(h, length);
}

/** `murmur3` of `length` bytes read 4 at a time as little-endian words (`words` views `bytes`). */
function murmur3Words(words: DataView, bytes: Uint8Array, length: number): number {
  let h = 0;
  const blocks = length & ~3;
  let i = 0;
  for (; i < blocks; i += 4) h = mixBlock(h, words.getInt32(i, true));
  const rest = length & 3;
  return fmix(rest === 0 ? h : mixTail(h, bytesTail(bytes, i, rest)), length);
}

function murmur3OfEncoded(s: string): number {
  const length = hashScratch.encode(s);
  return murmur3Words(hashScratch.words, hashScratch.bytes, length);
}

/**
 * `murmur3` of a string key's UTF-8 bytes (Java's `getBytes(UTF_8)`), as a signed 32-bit int (see
 * `fmix`; `>>> 0` gives `murmur3`'s unsigned value, `& 0x7fffffff` Pulsar's). A short ASCII key's bytes
 * are its UTF-16 code units, so it is hashed straight from them, four units to a block, with no
 * byte array; from a block with a non-ASCII unit on, `murmur3FromUnit` goes on unit by unit. A long
 * key is encoded into a reused buffer and hashed from there (see LONG_STRING).
 */
export function murmur3OfString(s: string): number {
  const n = s.length;
  if (n > LONG_STRING) return murmur3OfEncoded(s);
  let h = 0;
  const blocks = n & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 0x7f) return murmur3FromUnit(s, i, h);
    h = mixBlock(h, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24));
  }
  const rest = n & 3;
  const k = asciiTail(s, i, rest);
  if (k < 0) return murmur3FromUnit(s, i, h);
  return fmix(rest === 0 ? h : mixTail(h, k), n);
}

/**
 * The rest of `murmur3OfString` from unit `i`, all ASCII before it and hashed into `h` (so `i` bytes
 * so far, a multiple of 4): each unit's UTF-8 bytes (`utf8Sequence`) are gathered into blocks. The
 * length, which MurmurHash3 takes only at the end, is counted on the way. Going on from the hashed
 * blocks instead of encoding the key again: the nonAscii10 set 33.5 -> 31.1 ns a key. A unit's
 * bytes go into the block at once, the ones that do not fit starting the next block (rather than
 * byte by byte, a branch each): its non-ASCII keys 77 -> 68 ns, the set 30.9 -> 30.0.
 */
function murmur3FromUnit(s: string, i: number, h: number): number {
  const n = s.length;
  let length = i;
  // The bytes of the block being gathered, and how far into it (in bits: 0, 8, 16 or 24).
  let block = 0;
  let shift = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    // The unit's bytes, packed first byte lowest, and how many bits they take.
    let w = c;
    let bits = 8;
    if (c >= 0x80) {
      w = utf8Sequence(s, i, c);
      bits = c < 0x800 ? 16 : isPairSequence(w) ? 32 : w === 0x3f ? 8 : 24;
      if (bits === 32) i++;
    }
    block |= w << shift;
    shift += bits;
    length += bits >> 3;
    if (shift >= 32) {
      h = mixBlock(h, block);
      shift -= 32;
      // The bytes that did not fit (a shift by 32 would leave w whole in JavaScript).
      block = shift === 0 ? 0 : w >>> (bits - shift);
    }
  }
  return fmix(shift === 0 ? h : mixTail(h, block), length);
}

/** Pulsar's `Murmur3_32Hash.makeHash(bytes)`: the raw hash masked with `Integer.MAX_VALUE`. */
export function murmur3Masked(data: Uint8Array, length: number = data.length): number {
  return murmur3Int(data, length) & 0x7fffffff;
}
