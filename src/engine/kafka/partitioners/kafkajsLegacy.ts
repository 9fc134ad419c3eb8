/**
 * `kafkajs-legacy`: kafkajs 1.x's default partitioner (2.x still ships it as
 * `Partitioners.LegacyPartitioner`): `toPositive(murmur2(key)) % n` over a murmur2 written with
 * JavaScript numbers, which is not Kafka's:
 * - `k *= M` and `h *= M` are double multiplications: products beyond 2^53 lose their low bits
 *   before the next `^` or `>>>` truncates them to 32 bits;
 * - the block loop runs while `i < length / 4`, a fractional bound, so a last partial block is
 *   mixed as a full block (the bytes past the end read as 0) and then mixed again as the tail.
 * The arithmetic below is kept in exactly that form (JavaScript doubles), so it computes the same
 * numbers bit for bit. The empty key is hashed.
 */
import { hashScratch } from '../../bytes';
import { maskedShare, type Partitioner } from './partitioner';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

/**
 * The byte at j, or 0 at or past `length`: `data` may be a reused buffer longer than the key, and
 * kafkajs reads `undefined & 0xff`, 0, past the end of its Buffer.
 */
function at(data: Uint8Array, j: number, length: number): number {
  return j < length ? data[j] : 0;
}

export function kafkajsLegacyMurmur2(data: Uint8Array, length: number = data.length): number {
  let h = SEED ^ length;
  const length4 = length / 4;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = at(data, i4, length) + (at(data, i4 + 1, length) << 8) + (at(data, i4 + 2, length) << 16) + (at(data, i4 + 3, length) << 24);
    k *= M;
    k ^= k >>> R;
    k *= M;
    h *= M;
    h ^= k;
  }
  const tail = length & ~3;
  switch (length % 4) {
    case 3:
      h ^= data[tail + 2] << 16;
    // falls through
    case 2:
      h ^= data[tail + 1] << 8;
    // falls through
    case 1:
      h ^= data[tail];
      h *= M;
  }
  h ^= h >>> 13;
  h *= M;
  h ^= h >>> 15;
  return h;
}

/**
 * `kafkajsLegacyMurmur2` of a string key's UTF-8 bytes (kafkajs: `Buffer.from(key)`), encoded into
 * the reused buffer: the double arithmetic costs far more than the encoding, so there is no
 * code-unit path.
 */
export function kafkajsLegacyMurmur2OfString(s: string): number {
  // Encode first: a long key replaces the buffer that `bytes` returns.
  const length = hashScratch.encode(s);
  return kafkajsLegacyMurmur2(hashScratch.bytes, length);
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
};
