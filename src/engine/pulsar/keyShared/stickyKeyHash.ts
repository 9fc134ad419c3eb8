/**
 * `makeStickyKeyHash` per broker generation.
 *
 * 3.x: the static `Murmur3_32Hash.makeHash(bytes)`, the full 31-bit value; hash-range selectors
 * then look it up at `hash % rangeSize`.
 * 4.x (PIP-379): a per-selector method that reduces the hash into the selector's key hash range,
 * `hash % size + start`, and replaces 0 (`STICKY_KEY_HASH_NOT_SET`) with 1.
 */
import { murmur3Masked } from '../murmur3';
import type { HashRange } from './selector';

export const DEFAULT_RANGE_SIZE = 65536;
export const STICKY_KEY_HASH_NOT_SET = 0;

export function stickyKeyHash3(bytes: Uint8Array, length: number = bytes.length): number {
  return murmur3Masked(bytes, length);
}

export function reduceIntoRange(hash: number, range: HashRange): number {
  const h = (hash % (range[1] - range[0] + 1)) + range[0];
  return h === STICKY_KEY_HASH_NOT_SET ? 1 : h;
}

export function stickyKeyHash4(range: HashRange, bytes: Uint8Array, length: number = bytes.length): number {
  return reduceIntoRange(murmur3Masked(bytes, length), range);
}
