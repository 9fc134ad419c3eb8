/**
 * The part of Java's `TreeMap<Integer, V>` the STICKY selector uses (put, remove, ceiling, floor,
 * keys and values ascending), its keys int32 as Java's are. The map is an ordered base, two arrays
 * (sorted keys and the values at the same index) that are never changed once built, and the
 * changes made since: a key's new value, or `DELETED`. The changes are merged into a new base when
 * the order is next read: one sort of the changed keys and one linear merge, rather than a tree
 * insert per key.
 *
 * A clone shares the base and copies only the changes. A what-if step clones the selector, adds a
 * consumer and reads the order: with the map itself copied, a subscription of 2,000 consumers x 16
 * ranges (64,000 keys) spent 17 ms of a 26 ms step (Node) in the copy.
 *
 * Values are shared, not copied, by `clone()` and by the arrays handed out: callers replace a
 * value with `set` rather than change it in place.
 */
import { ceilingIndex } from './ringPoints';

const DELETED: unique symbol = Symbol('deleted');

/**
 * Changes a clone copies rather than merging them first (for both to share): a what-if step's are
 * one consumer's keys.
 */
const COPIED_CHANGES = 64;

export class SortedIntMap<V> {
  /** Keys ascending as of the last merge, and their values: shared by clones, never changed. */
  #keys: Int32Array = new Int32Array(0);
  #values: readonly V[] = [];
  /** Changes since the merge: a key's value, or DELETED for a key of the base that is gone. */
  #changes = new Map<number, V | typeof DELETED>();
  /**
   * Keys set since the merge that the base does not hold (`#nearest` looks them up beside it): the
   * latest few in no order, the others in a sorted run (never changed in place: clones share it).
   * Either may repeat a key that was deleted and set again; a delete merges before any lookup.
   */
  #added: number[] = [];
  #run: Int32Array = new Int32Array(0);
  /** A key was deleted since the merge. */
  #deleted = false;
  #size = 0;

  /** The map of `keys` (ascending, distinct) to the `values` at the same index; it keeps both arrays (do not change them). */
  constructor(keys?: Int32Array, values?: readonly V[]) {
    if (keys && values) {
      this.#keys = keys;
      this.#values = values;
      this.#size = keys.length;
    }
  }

  /** An independent copy: changes to either map do not show in the other. Values are shared. */
  clone(): SortedIntMap<V> {
    if (this.#changes.size > COPIED_CHANGES) this.#order();
    const c = new SortedIntMap<V>();
    c.#keys = this.#keys;
    c.#values = this.#values;
    c.#changes = new Map(this.#changes);
    c.#added = this.#added.slice();
    c.#run = this.#run;
    c.#deleted = this.#deleted;
    c.#size = this.#size;
    return c;
  }

  get size(): number {
    return this.#size;
  }

  set(key: number, value: V): void {
    const changes = this.#changes;
    if (!changes.has(key)) {
      if (this.#baseIndex(key) < 0) {
        this.#added.push(key);
        this.#size++;
      }
    } else if (changes.get(key) === DELETED) this.#size++;
    changes.set(key, value);
  }

  delete(key: number): void {
    const changes = this.#changes;
    const had = changes.has(key);
    if (had && changes.get(key) === DELETED) return;
    const inBase = this.#baseIndex(key) >= 0;
    if (!had && !inBase) return;
    if (inBase) changes.set(key, DELETED);
    else changes.delete(key);
    this.#size--;
    this.#deleted = true;
  }

  /** Keys ascending. The array is shared: do not change it. */
  keys(): Int32Array {
    this.#order();
    return this.#keys;
  }

  /** The values in key order (`values()[i]` belongs to `keys()[i]`). The array is shared: do not change it. */
  values(): readonly V[] {
    this.#order();
    return this.#values;
  }

  /** The index of `key` in the base, or -1. */
  #baseIndex(key: number): number {
    const keys = this.#keys;
    const i = ceilingIndex(keys, key);
    return i < keys.length && keys[i] === key ? i : -1;
  }

  /** Merges the changes into a new base: the changed keys sorted, then one pass beside the base's. */
  #order(): void {
    const changes = this.#changes;
    if (changes.size === 0) return;
    const changed = Int32Array.from(changes.keys()).sort();
    const base = this.#keys;
    const baseValues = this.#values;
    const keys = new Int32Array(this.#size);
    const values = new Array<V>(this.#size);
    let n = 0;
    let i = 0;
    for (let j = 0; j < changed.length; j++) {
      const k = changed[j];
      while (i < base.length && base[i] < k) {
        keys[n] = base[i];
        values[n++] = baseValues[i++];
      }
      // A changed key of the base: its new value, or gone.
      if (i < base.length && base[i] === k) i++;
      const v = changes.get(k)!;
      if (v !== DELETED) {
        keys[n] = k;
        values[n++] = v;
      }
    }
    while (i < base.length) {
      keys[n] = base[i];
      values[n++] = baseValues[i++];
    }
    this.#keys = keys;
    this.#values = values;
    this.#changes = new Map();
    this.#added = [];
    this.#run = new Int32Array(0);
    this.#deleted = false;
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
   * The floor or ceiling of `key`: the base's, the run's, or one of the latest keys'. A STICKY
   * subscription checks each consumer's ranges against the earlier consumers' (a ceiling and a
   * floor) before adding them: merging into the base at each check made 2,000 consumers cost 2,000
   * passes over up to 4,000 keys, and comparing every key added since the last merge made 2,000
   * consumers of 16 ranges each take 120 ms (Node). Here the latest keys go into the run in
   * batches, and the run into the base once it is longer than sqrt(128 x the base): a run's merge
   * costs its length, a base's the whole map. After a delete the base may hold keys that are
   * gone: it is merged first.
   */
  #nearest(key: number, below: boolean): [number, V] | undefined {
    if (this.#deleted) this.#order();
    else if (this.#added.length > LATEST_KEYS) {
      this.#run = mergeSorted(this.#run, Int32Array.from(this.#added).sort());
      this.#added = [];
      if (this.#run.length ** 2 > 128 * this.#keys.length) this.#order();
    }
    // The floor is the entry before the ceiling of key + 1 (the keys are integers).
    const of = below ? key + 1 : key;
    const keys = this.#keys;
    const run = this.#run;
    // NaN for none (an index outside the array reads undefined): no comparison holds for it, so
    // the first candidate on the right side is taken.
    const i = ceilingIndex(keys, of) - (below ? 1 : 0);
    const atBase = keys[i] ?? NaN;
    let best = atBase;
    const r = run[ceilingIndex(run, of) - (below ? 1 : 0)];
    if (r !== undefined && (below ? !(r < best) : !(r > best))) best = r;
    for (const k of this.#added) if (below ? k <= key && !(k < best) : k >= key && !(k > best)) best = k;
    if (best !== best) return undefined;
    // The base's value unless changed since (a key from the run or the latest ones is a change):
    // read at the index found rather than searched again, as on 64,000 keys a search is a few
    // cache misses.
    const changed = this.#changes.get(best);
    return [best, changed !== undefined ? (changed as V) : this.#values[i]];
  }
}

/** Keys set since a lookup that the next lookup compares one by one, before sorting them into the run. */
const LATEST_KEYS = 32;

/** Two ascending arrays as one (repeats kept), sorted natively: a run holds a few thousand keys. */
function mergeSorted(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out.sort();
}
