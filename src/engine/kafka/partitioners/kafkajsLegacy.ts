/**
 * `kafkajs-legacy`: kafkajs 1.x's default partitioner (2.x still ships it as
 * `Partitioners.LegacyPartitioner`): `toPositive(murmur2(key)) % n` over a murmur2 written with
 * JavaScript numbers, which is not Kafka's:
 * - `k *= M` and `h *= M` are double multiplications: products beyond 2^53 lose their low bits
 *   before the next `^` or `>>>` truncates them to 32 bits;
 * - the block loop runs while `i < length / 4`, a fractional bound, so a last partial block is
 *   mixed as a full block (the bytes past the end read as 0) and then mixed again as the tail.
 * The arithmetic below is kept in that form (JavaScript doubles), so it computes the same numbers
 * bit for bit; only the partial block is written out rather than found by the fractional bound.
 * The empty key is hashed.
 */
import { asciiTail, bytesTail, hashScratch } from '../../bytes';
import { maskedShare, type Partitioner } from './partitioner';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/**
 * One block mixed into `h`, in doubles as kafkajs does it. kafkajs adds the block's bytes
 * (`b0 + (b1 << 8) + ...`); the four terms have no bit in common, so that is the int32 `k` their
 * `|` gives.
 */
function mix(h: number, k: number): number {
  k *= M;
  k ^= k >>> R;
  k *= M;
  h *= M;
  return h ^ k;
}

/**
 * The 0-3 tail bytes `tail` (little-endian) and the final avalanche. The tail is first mixed as a
 * whole block (the bytes past the end read as 0, the fractional loop bound), then XORed in byte by
 * byte (its bytes do not overlap, so all at once) and multiplied.
 */
function finish(h: number, tail: number, rest: number): number {
  if (rest > 0) {
    h = mix(h, tail) ^ tail;
    h *= M;
  }
  h ^= h >>> 13;
  h *= M;
  h ^= h >>> 15;
  return h;
}

export function kafkajsLegacyMurmur2(data: Uint8Array, length: number = data.length): number {
  let h = SEED ^ length;
  const blocks = length & ~3;
  let i = 0;
  for (; i < blocks; i += 4) h = mix(h, data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
  const rest = length & 3;
  return finish(h, bytesTail(data, i, rest), rest);
}

function kafkajsLegacyMurmur2OfEncoded(s: string): number {
  // Encode first: a long key replaces the buffer that `bytes` returns.
  const length = hashScratch.encodeReplacing(s);
  return kafkajsLegacyMurmur2(hashScratch.bytes, length);
}

/**
 * `kafkajsLegacyMurmur2` of a string key's UTF-8 bytes as kafkajs writes them (`Buffer.from(key)`:
 * an unpaired surrogate is U+FFFD, not Java's '?'). An ASCII key
 * of any length is hashed from its code units (each is its byte), four to a block; one with a
 * non-ASCII unit is encoded into the reused buffer first. Unlike Kafka's murmur2 (LONG_STRING), long
 * keys are not encoded first: each block waits for the double multiply and truncation before it,
 * and that chain hides reading the units. Encoding first made the reads wait instead: 11-unit keys
 * 50 -> 21 ns a key, UUIDs 82 -> 48, 200 units 289 -> 254.
 */
export function kafkajsLegacyMurmur2OfString(s: string): number {
  const n = s.length;
  let h = SEED ^ n;
  const blocks = n & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) > 0x7f) return kafkajsLegacyMurmur2OfEncoded(s);
    h = mix(h, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24));
  }
  const rest = n & 3;
  const tail = asciiTail(s, i, rest);
  return tail < 0 ? kafkajsLegacyMurmur2OfEncoded(s) : finish(h, tail, rest);
}

export const kafkajsLegacy: Partitioner = {
  name: 'kafkajs-legacy',
  hashFunction: 'kafkajs-murmur2',
  hash: kafkajsLegacyMurmur2,
  hashes: () => true,
  partition: (hash, _length, n) => (hash & 0x7fffffff) % n,
  formula: (n) => `toPositive(kafkajs1Murmur2(key)) % ${n}`,
  randomNote: '',
  hashShare: maskedShare,
  textBytes: (text) => new TextEncoder().encode(text),
};
