/**
 * The heaviest keys of a stream in bounded memory, with exact counts where that can be proved.
 *
 * Pass 1 is a Misra-Gries summary with the "purge by median" step Apache DataSketches uses for its
 * frequent-items sketch: at most `capacity` candidate keys are held; when a new key finds the table
 * full, the median weight is subtracted from every candidate, those at zero or below are dropped,
 * and the subtracted amount is added to `offset`. Amortised O(1) per key, memory fixed up front.
 *
 * What it proves, per candidate: `count`, the occurrences since it last entered the table, is exact;
 * the occurrences before that are at most `err` (the offset when it entered). So the true frequency
 * lies in [count, count + err], and is exact where err is 0 (it entered before the first purge). A
 * key that is not a candidate at the end occurred at most `offset` times.
 *
 * Exact counts for the reported keys in general need a second look at the input: `verifier()`
 * returns a table of the candidates that could belong in the top K (upper bound at least the K-th
 * lower bound); counting them exactly over a second pass gives exact counts, and the list is then
 * provably complete when the K-th exact count is at least `offset` (no key left out can occur more
 * often). A one-pass input (a pipe) reports the bounds instead.
 *
 * Keys are compared by their bytes. Keys longer than `maxStoredKeyBytes` keep only that prefix; they
 * are told apart by length, prefix and two independent 32-bit hashes (murmur2 and murmur3 of the
 * whole key), so two such keys could in theory be merged (about 2^-64 per pair).
 */
import { murmur2 } from '../engine/kafka/murmur2';
import { murmur3 } from '../engine/pulsar/murmur3';

/**
 * 8,192 candidates x 256 stored bytes: 2 MiB, whatever the input. Misra-Gries subtracts at most
 * 2N/capacity in all, so over 10 million keys every key seen more than ~2,400 times (0.024%) is
 * certain to be a candidate at the end.
 */
export const DEFAULT_CAPACITY = 8192;
export const DEFAULT_MAX_STORED_KEY_BYTES = 256;

export interface Candidate {
  /** The key's bytes (its first `maxStoredKeyBytes` where `truncated`). */
  bytes: Uint8Array;
  /** Full length of the key in bytes. */
  length: number;
  truncated: boolean;
  /** Lower bound (exact occurrences since it entered the table). */
  count: number;
  /** Upper bound minus lower bound. */
  err: number;
}

/** Open-addressing table of keys with fixed-size byte slots; the part both passes share. */
class KeyTable {
  readonly capacity: number;
  readonly stride: number;
  readonly slab: Uint8Array;
  readonly len: Int32Array;
  readonly hash: Int32Array;
  /** For long keys: murmur2 and murmur3 of the whole key (0 otherwise). */
  readonly fp2: Int32Array;
  readonly fp3: Int32Array;
  /** Slot -> entry + 1 (0 = empty). */
  readonly slots: Int32Array;
  readonly mask: number;

  constructor(capacity: number, stride: number) {
    this.capacity = capacity;
    this.stride = stride;
    this.slab = new Uint8Array(capacity * stride);
    this.len = new Int32Array(capacity);
    this.hash = new Int32Array(capacity);
    this.fp2 = new Int32Array(capacity);
    this.fp3 = new Int32Array(capacity);
    let size = 4;
    while (size < capacity * 2) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
  }

  /** The entry holding the key, or -1. Returns also the free slot to insert at via `lastSlot`. */
  lastSlot = 0;
  find(bytes: Uint8Array, length: number, h: number): number {
    const stride = this.stride;
    const slab = this.slab;
    let s = h & this.mask;
    for (;;) {
      const e = this.slots[s] - 1;
      if (e < 0) {
        this.lastSlot = s;
        return -1;
      }
      if (this.hash[e] === (h | 0) && this.len[e] === length) {
        const n = length < stride ? length : stride;
        const base = e * stride;
        let same = true;
        for (let i = 0; i < n; i++) {
          if (slab[base + i] !== bytes[i]) {
            same = false;
            break;
          }
        }
        if (same && length > stride) same = this.fp2[e] === murmur2(bytes, length) && this.fp3[e] === (murmur3(bytes, length) | 0);
        if (same) return e;
      }
      s = (s + 1) & this.mask;
    }
  }

  /** Writes the key into entry `e` and links it at `slot` (from the `find` that missed). */
  put(e: number, slot: number, bytes: Uint8Array, length: number, h: number): void {
    const stride = this.stride;
    const n = length < stride ? length : stride;
    const base = e * stride;
    const slab = this.slab;
    for (let i = 0; i < n; i++) slab[base + i] = bytes[i];
    this.len[e] = length;
    this.hash[e] = h | 0;
    if (length > stride) {
      this.fp2[e] = murmur2(bytes, length);
      this.fp3[e] = murmur3(bytes, length) | 0;
    } else {
      this.fp2[e] = 0;
      this.fp3[e] = 0;
    }
    this.slots[slot] = e + 1;
  }

  /** Re-links the given entries after removals (open addressing has no cheap delete). */
  relink(live: Int32Array, count: number): void {
    this.slots.fill(0);
    for (let j = 0; j < count; j++) {
      const e = live[j];
      let s = this.hash[e] & this.mask;
      while (this.slots[s] !== 0) s = (s + 1) & this.mask;
      this.slots[s] = e + 1;
    }
  }

  keyBytes(e: number): Uint8Array {
    const n = Math.min(this.len[e], this.stride);
    return this.slab.slice(e * this.stride, e * this.stride + n);
  }
}

export class HeavyKeys {
  readonly #table: KeyTable;
  /** Occurrences since the key entered the table (exact). */
  readonly #count: Float64Array;
  /** The Misra-Gries counter: `count` minus what purges subtracted since. */
  readonly #weight: Float64Array;
  /** `offset` when the key entered: a bound on the occurrences before. */
  readonly #err: Float64Array;
  readonly #live: Int32Array;
  readonly #freeList: Int32Array;
  readonly #scratch: Float64Array;
  #liveCount = 0;
  #freeCount: number;
  /** Total subtracted by purges: a bound on the frequency of any key that is not a candidate. */
  offset = 0;
  total = 0;
  purges = 0;

  constructor(
    readonly capacity: number = DEFAULT_CAPACITY,
    readonly maxStoredKeyBytes: number = DEFAULT_MAX_STORED_KEY_BYTES,
  ) {
    if (!(capacity >= 2)) throw new Error('the heavy-key capacity must be at least 2');
    this.#table = new KeyTable(capacity, maxStoredKeyBytes);
    this.#count = new Float64Array(capacity);
    this.#weight = new Float64Array(capacity);
    this.#err = new Float64Array(capacity);
    this.#live = new Int32Array(capacity);
    this.#freeList = new Int32Array(capacity);
    this.#scratch = new Float64Array(capacity);
    for (let i = 0; i < capacity; i++) this.#freeList[i] = capacity - 1 - i;
    this.#freeCount = capacity;
  }

  /** Counts one occurrence of `bytes[0..length)`; `h` is any 32-bit hash of the whole key. */
  add(bytes: Uint8Array, length: number, h: number): void {
    this.total++;
    const t = this.#table;
    let e = t.find(bytes, length, h);
    if (e >= 0) {
      this.#count[e]++;
      this.#weight[e]++;
      return;
    }
    if (this.#freeCount === 0) {
      this.#purge();
      t.find(bytes, length, h); // a fresh free slot after the relink
    }
    e = this.#freeList[--this.#freeCount];
    t.put(e, t.lastSlot, bytes, length, h);
    this.#count[e] = 1;
    this.#weight[e] = 1;
    this.#err[e] = this.offset;
    this.#live[this.#liveCount++] = e;
  }

  /** Subtracts the median weight from every candidate and drops those left at zero or below. */
  #purge(): void {
    const n = this.#liveCount;
    const w = this.#scratch;
    for (let j = 0; j < n; j++) w[j] = this.#weight[this.#live[j]];
    // The lower median is at least the smallest weight, so at least one candidate goes.
    const median = select(w, n, (n - 1) >> 1);
    let kept = 0;
    for (let j = 0; j < n; j++) {
      const e = this.#live[j];
      const left = this.#weight[e] - median;
      if (left > 0) {
        this.#weight[e] = left;
        this.#live[kept++] = e;
      } else {
        this.#freeList[this.#freeCount++] = e;
      }
    }
    this.#liveCount = kept;
    this.offset += median;
    this.purges++;
    this.#table.relink(this.#live, kept);
  }

  /** Every candidate, heaviest lower bound first (ties: larger upper bound, then bytes). */
  candidates(): Candidate[] {
    const out: Candidate[] = [];
    for (let j = 0; j < this.#liveCount; j++) {
      const e = this.#live[j];
      out.push({
        bytes: this.#table.keyBytes(e),
        length: this.#table.len[e],
        truncated: this.#table.len[e] > this.maxStoredKeyBytes,
        count: this.#count[e],
        err: this.#err[e],
      });
    }
    return out.sort(compareCandidates);
  }

  /** True where every candidate's count is exact (no purge happened). */
  get exact(): boolean {
    return this.offset === 0;
  }

  /**
   * The candidates that could be among the top `k` (upper bound at least the k-th largest lower
   * bound), to be counted exactly over a second pass.
   */
  verifier(k: number): Verifier {
    const all = this.candidates();
    const kth = all.length >= k ? all[k - 1].count : 0;
    const picked: number[] = [];
    let outsideMax = this.offset;
    for (let j = 0; j < this.#liveCount; j++) {
      const e = this.#live[j];
      const upper = this.#count[e] + this.#err[e];
      if (upper >= kth) picked.push(e);
      else outsideMax = Math.max(outsideMax, upper);
    }
    return new Verifier(this.#table, picked, outsideMax, this.maxStoredKeyBytes);
  }
}

/** The k-th smallest of `a[0..n)` (Hoare's quickselect; reorders `a`). */
export function select(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

function compareCandidates(a: Candidate, b: Candidate): number {
  if (a.count !== b.count) return b.count - a.count;
  if (a.err !== b.err) return b.err - a.err;
  const n = Math.min(a.bytes.length, b.bytes.length);
  for (let i = 0; i < n; i++) if (a.bytes[i] !== b.bytes[i]) return a.bytes[i] - b.bytes[i];
  return a.length - b.length;
}

/** Exact counting of a fixed set of keys over a second pass. */
export class Verifier {
  readonly #table: KeyTable;
  readonly #counts: Float64Array;
  readonly #size: number;

  constructor(
    from: KeyTable,
    entries: number[],
    /** The pass-1 bound on the count of any key not being verified. */
    readonly outsideMax: number,
    readonly maxStoredKeyBytes: number,
  ) {
    this.#size = entries.length;
    this.#table = new KeyTable(Math.max(2, entries.length), from.stride);
    this.#counts = new Float64Array(Math.max(2, entries.length));
    entries.forEach((e, j) => {
      const t = this.#table;
      t.slab.set(from.slab.subarray(e * from.stride, (e + 1) * from.stride), j * t.stride);
      t.len[j] = from.len[e];
      t.hash[j] = from.hash[e];
      t.fp2[j] = from.fp2[e];
      t.fp3[j] = from.fp3[e];
    });
    const idx = new Int32Array(entries.length);
    for (let j = 0; j < entries.length; j++) idx[j] = j;
    this.#table.relink(idx, entries.length);
  }

  /** Counts the key if it is one being verified. */
  add(bytes: Uint8Array, length: number, h: number): void {
    const e = this.#table.find(bytes, length, h);
    if (e >= 0) this.#counts[e]++;
  }

  /** The verified keys with exact counts, heaviest first. */
  results(): Candidate[] {
    const out: Candidate[] = [];
    for (let e = 0; e < this.#size; e++) {
      out.push({
        bytes: this.#table.keyBytes(e),
        length: this.#table.len[e],
        truncated: this.#table.len[e] > this.maxStoredKeyBytes,
        count: this.#counts[e],
        err: 0,
      });
    }
    return out.sort(compareCandidates);
  }
}
