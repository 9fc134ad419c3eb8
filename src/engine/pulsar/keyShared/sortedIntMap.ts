/**
 * The part of Java's `TreeMap<Integer, V>` the ring selectors use (get, put, remove, ceiling,
 * first, ascending iteration). Keys are kept in a hash map and sorted lazily, once after a batch
 * of changes, so adding 1,000 consumers x 100 points costs one sort rather than 100,000 inserts.
 */
export class SortedIntMap<V> {
  private readonly map = new Map<number, V>();
  private sorted: number[] | null = [];

  get size(): number {
    return this.map.size;
  }

  get(key: number): V | undefined {
    return this.map.get(key);
  }

  set(key: number, value: V): void {
    if (!this.map.has(key)) this.sorted = null;
    this.map.set(key, value);
  }

  delete(key: number): void {
    if (this.map.delete(key)) this.sorted = null;
  }

  /** Keys ascending. */
  keys(): number[] {
    if (this.sorted === null) this.sorted = [...this.map.keys()].sort((a, b) => a - b);
    return this.sorted;
  }

  /** The entry with the least key >= `key`, or undefined. */
  ceiling(key: number): [number, V] | undefined {
    const keys = this.keys();
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < keys.length ? [keys[lo], this.map.get(keys[lo])!] : undefined;
  }

  /** The entry with the greatest key <= `key`, or undefined. */
  floor(key: number): [number, V] | undefined {
    const keys = this.keys();
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? [keys[lo - 1], this.map.get(keys[lo - 1])!] : undefined;
  }

  first(): [number, V] | undefined {
    const keys = this.keys();
    return keys.length > 0 ? [keys[0], this.map.get(keys[0])!] : undefined;
  }

  *entries(): IterableIterator<[number, V]> {
    for (const k of this.keys()) yield [k, this.map.get(k)!];
  }
}
