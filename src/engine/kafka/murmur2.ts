/**
 * Kafka's `Utils.murmur2`: MurmurHash2 with Kafka's seed, over the serialized key bytes.
 * Returns the signed 32-bit result, as Java's int.
 */
const SEED = 0x9747b28c;
const M = 0x5bd1e995;

export function murmur2(data: Uint8Array, length: number = data.length): number {
  let h = SEED ^ length;
  const blocks = length & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    let k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The tail falls through from 3 to 1; the multiply happens only when there is a tail.
  switch (length & 3) {
    case 3:
      h ^= data[i + 2] << 16;
    // falls through
    case 2:
      h ^= data[i + 1] << 8;
    // falls through
    case 1:
      h ^= data[i];
      h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's `Utils.toPositive`: a mask, not `Math.abs`, so `Integer.MIN_VALUE` becomes 0. */
export function toPositive(x: number): number {
  return x & 0x7fffffff;
}
