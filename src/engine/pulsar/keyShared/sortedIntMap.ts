/**
 * The part of Java's `TreeMap<Integer, V>` the STICKY selector uses (put, remove, ceiling, floor,
 * keys and values ascending). Keys live in a hash map; the ascending order is kept as two arrays,
 * sorted keys and the values at the same index, rebuilt lazily once after a batch of changes: one
 * sort rather than a tree insert per key, and a later small change merged into the order in one
 * linear pass (or, for a lookup, looked at beside it: `#nearest`).
 *
 * Values are shared, not copied, by `clone()` and by the arrays handed out: callers replace a
 * value with `set` rather than change it in place.
 */
export class SortedIntMap<V> {
  #map: Map<number, V>;
  /** Keys ascending, or null until asked for (then the order is built from the map). */
  #sortedKeys: Float64Array | null = null;
  #sortedValues: V[] | null = null;
  /** Keys added since `sortedKeys` was built, in no order (may repeat). */
  #added: number[] = [];
  /** Added keys the lookups have compared one by one since the order was built (`#nearest`). */
  #scanned = 0;
  /** A key of `sortedKeys` was deleted since it was built. */
  #deleted = false;
  /** A value of a key already in `sortedKeys` was replaced since `sortedValues` was built. */
  #replaced = false;

  constructor(from?: SortedIntMap<V>) {
    if (from === undefined) {
      this.#map = new Map();
      return;
    }
    this.#map = new Map(from.#map);
    // The arrays are never changed in place once built, so both maps can hold them.
    this.#sortedKeys = from.#sortedKeys;
    this.#sortedValues = from.#sortedValues;
    this.#added = from.#added.slice();
    this.#deleted = from.#deleted;
    this.#replaced = from.#replaced;
  }

  /** An independent copy: changes to either map do not show in the other. Values are shared. */
  clone(): SortedIntMap<V> {
    return new SortedIntMap(this);
  }

  get size(): number {
    return this.#map.size;
  }

  set(key: number, value: V): void {
    if (this.#map.has(key)) this.#replaced = true;
    else if (this.#sortedKeys !== null) this.#added.push(key);
    this.#map.set(key, value);
  }

  delete(key: number): void {
    if (this.#map.delete(key) && this.#sortedKeys !== null) this.#deleted = true;
  }

  /** Keys ascending. The array is shared: do not change it. */
  keys(): Float64Array {
    this.#order();
    return this.#sortedKeys!;
  }

  /** The values in key order (`values()[i]` belongs to `keys()[i]`). The array is shared: do not change it. */
  values(): readonly V[] {
    this.#order();
    return this.#sortedValues!;
  }

  /** Brings the sorted arrays up to date with the map. */
  #order(): void {
    const keys = this.#sortedKeys;
    if (keys !== null && this.#added.length === 0 && !this.#deleted && !this.#replaced && this.#sortedValues !== null) return;
    if (keys === null || this.#added.length * 8 > keys.length) {
      // Many changes (or the first order): sort all keys. A typed array sorts numbers natively.
      const all = new Float64Array(this.#map.size);
      let i = 0;
      for (const k of this.#map.keys()) all[i++] = k;
      all.sort();
      this.#setOrder(all, this.#valuesOf(all));
      return;
    }
    // Few changes: drop the deleted keys and merge the added ones (sorted, each once) in.
    let base = keys;
    if (this.#deleted) {
      const kept = new Float64Array(keys.length);
      let n = 0;
      for (let i = 0; i < keys.length; i++) if (this.#map.has(keys[i])) kept[n++] = keys[i];
      base = kept.subarray(0, n);
    }
    const adds = Float64Array.from(this.#added).sort();
    const merged = new Float64Array(this.#map.size);
    let n = 0;
    let a = 0;
    let prev = NaN;
    for (let b = 0; b <= base.length; b++) {
      const next = b < base.length ? base[b] : Infinity;
      while (a < adds.length && adds[a] < next) {
        const k = adds[a++];
        // An added key may repeat (added, deleted, added) or be gone again.
        if (k !== prev && this.#map.has(k)) merged[n++] = prev = k;
      }
      // An added key equal to a kept one (deleted and added back) is that key.
      while (a < adds.length && adds[a] === next) a++;
      if (b < base.length) merged[n++] = prev = next;
    }
    const sorted = n === merged.length ? merged : merged.slice(0, n);
    this.#setOrder(sorted, this.#valuesOf(sorted));
  }

  #valuesOf(keys: Float64Array): V[] {
    const values = new Array<V>(keys.length);
    for (let i = 0; i < keys.length; i++) values[i] = this.#map.get(keys[i])!;
    return values;
  }

  #setOrder(keys: Float64Array, values: V[]): void {
    this.#sortedKeys = keys;
    this.#sortedValues = values;
    this.#added = [];
    this.#scanned = 0;
    this.#deleted = false;
    this.#replaced = false;
  }

  /** The entry with the least key >= `key`, or undefined. */
  ceiling(key: number): [number, V] | undefined {
    return this.#nearest(key, false);
  }

  /** The entry with the greatest key <= `key`, or undefined. */
  floor(key: number): [number, V] | undefined {
    return this.#nearest(key, true);
  }

  /**
   * The floor or ceiling of `key`. The keys added since the order was built are looked at one by
   * one beside it rather than merged into it, until the lookups have compared 16 times as many
   * added keys as the order holds (a merge reads each key's value from the map, some 16 times the
   * cost of a comparison, so it then costs no more than the comparing did): a STICKY subscription
   * checks each consumer's ranges against the earlier consumers' (a ceiling and a floor) before
   * adding them, and a merge at each check made 2,000 consumers cost 2,000 passes over up to 4,000
   * keys (their topology took 100-170 ms in Node and was a 470 ms task in the panel). A fixed limit
   * of 64 keys beside the order still made 500 consumers of 20 ranges each take 100-150 ms.
   */
  #nearest(key: number, below: boolean): [number, V] | undefined {
    const sorted = this.#sortedKeys;
    const keys = sorted !== null && !this.#deleted && (this.#scanned += this.#added.length) <= 16 * sorted.length ? sorted : this.keys();
    // The floor is the entry before the ceiling of key + 1 (the keys are integers).
    const of = below ? key + 1 : key;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < of) lo = mid + 1;
      else hi = mid;
    }
    // NaN for none (an index outside the array reads undefined): no comparison holds for it, so
    // the first added key on the right side is taken.
    let best = keys[below ? lo - 1 : lo] ?? NaN;
    for (const k of this.#added) if (below ? k <= key && !(k < best) : k >= key && !(k > best)) best = k;
    // The map has every key's current value (one replaced since the order was built too).
    return best === best ? [best, this.#map.get(best)!] : undefined;
  }
}
