/**
 * The iteration order of Kafka's `org.apache.kafka.timeline.TimelineHashMap` (its `BaseHashTable`),
 * which the KIP-848 group coordinator keeps a consumer group's members in. The coordinator copies
 * the members into a `HashMap` for the assignor in this order, so it decides the order of member
 * ids that share a bucket there.
 *
 * The table is an array of slots (a power of two, at least 2, doubled when (size + 1) * 0.75
 * exceeds it); an element's slot is the top bits of its hash code times a Fibonacci constant (64-bit
 * arithmetic); a slot holds one element or an array in arrival order, and iteration walks the slots
 * in order, each slot's array from its end.
 */
import type { KeyType } from './javaHashMap';

const FIBONACCI = -7046029254386353131n;
const MASK64 = (1n << 64n) - 1n;

/** `BaseHashTable.findSlot`: the top log2(n) bits of `hashCode * -7046029254386353131L`. */
export function findSlot(hashCode: number, slots: number): number {
  const bits = 31 - Math.clz32(slots);
  if (bits === 0) return 0;
  const product = (BigInt(hashCode) * FIBONACCI) & MASK64;
  return Number(product >> BigInt(64 - bits));
}

/** `BaseHashTable.expectedSizeToCapacity`. */
function capacityFor(expectedSize: number): number {
  const min = Math.ceil(Math.fround(expectedSize) / 0.75);
  if (min <= 0) return 2;
  return Math.max(2, Math.min(1 << 30, 2 ** Math.ceil(Math.log2(min))));
}

export class TimelineHashMap<K, V> {
  #slots: Array<Array<[K, V]> | null>;
  #count = 0;
  readonly #index = new Map<string | number, [K, V]>();

  constructor(
    private readonly type: KeyType<K>,
    expectedSize = 0,
  ) {
    this.#slots = new Array(capacityFor(expectedSize)).fill(null);
  }

  get size(): number {
    return this.#count;
  }

  get(key: K): V | undefined {
    return this.#index.get(this.type.id(key))?.[1];
  }

  has(key: K): boolean {
    return this.#index.has(this.type.id(key));
  }

  /**
   * `put`: a present key keeps its place in its slot, a new one joins the end. The table may
   * double first either way: `baseAddOrReplace` checks the load before it looks for the key.
   */
  set(key: K, value: V): this {
    if ((this.#count + 1) * 0.75 > this.#slots.length && this.#slots.length < 1 << 30) this.#rehash(this.#slots.length * 2);
    const present = this.#index.get(this.type.id(key));
    if (present) {
      present[1] = value;
      return this;
    }
    const entry: [K, V] = [key, value];
    this.#place(this.#slots, entry);
    this.#index.set(this.type.id(key), entry);
    this.#count++;
    return this;
  }

  delete(key: K): boolean {
    const entry = this.#index.get(this.type.id(key));
    if (!entry) return false;
    const slot = findSlot(this.type.hashCode(key), this.#slots.length);
    const list = this.#slots[slot]!;
    list.splice(list.indexOf(entry), 1);
    if (list.length === 0) this.#slots[slot] = null;
    this.#index.delete(this.type.id(key));
    this.#count--;
    return true;
  }

  *entries(): IterableIterator<[K, V]> {
    for (const list of this.#slots) {
      if (!list) continue;
      for (let i = list.length - 1; i >= 0; i--) yield [list[i][0], list[i][1]];
    }
  }

  *keys(): IterableIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): IterableIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  #place(slots: Array<Array<[K, V]> | null>, entry: [K, V]): void {
    const slot = findSlot(this.type.hashCode(entry[0]), slots.length);
    const list = slots[slot];
    if (list) list.push(entry);
    else slots[slot] = [entry];
  }

  /** Slots in order, each in its arrival order, into the doubled table. */
  #rehash(size: number): void {
    const next: Array<Array<[K, V]> | null> = new Array(size).fill(null);
    for (const list of this.#slots) if (list) for (const entry of list) this.#place(next, entry);
    this.#slots = next;
  }
}
