/**
 * Keys per partition for any partition count up to 2^31-1: a plain array up to DENSE_PARTITIONS
 * partitions, above that a map of the partitions that received keys (a topic of 2^31-1
 * partitions must not cost an array of 2^31 numbers). The skew counts every partition either way.
 */
import { skew, type Skew } from './figures';

/** Up to this many partitions every partition is counted and listed. */
export const DENSE_PARTITIONS = 100_000;

export class PartitionCounts {
  readonly #dense: Float64Array | null;
  readonly #sparse: Map<number, number> | null;

  constructor(readonly partitions: number) {
    const isDense = partitions <= DENSE_PARTITIONS;
    this.#dense = isDense ? new Float64Array(partitions) : null;
    this.#sparse = isDense ? null : new Map();
  }

  /** True where only the partitions with keys are held. */
  get isSparse(): boolean {
    return this.#sparse !== null;
  }

  add(p: number): void {
    if (this.#dense) this.#dense[p]++;
    else this.#sparse!.set(p, (this.#sparse!.get(p) ?? 0) + 1);
  }

  get(p: number): number {
    return this.#dense ? this.#dense[p] : (this.#sparse!.get(p) ?? 0);
  }

  /** [partition, keys] ascending: every partition (dense), or those with keys (sparse). */
  entries(): Array<[number, number]> {
    if (this.#dense) return Array.from(this.#dense, (keys, p) => [p, keys]);
    return [...this.#sparse!.entries()].sort((a, b) => a[0] - b[0]);
  }

  /** Skew over all partitions, those without keys included. */
  skew(): Skew | null {
    if (this.#dense) return skew(this.#dense);
    const n = this.partitions;
    const held = [...this.#sparse!.values()];
    let sum = 0;
    let max = 0;
    let min = Infinity;
    for (const c of held) {
      sum += c;
      if (c > max) max = c;
      if (c < min) min = c;
    }
    if (held.length < n) min = 0;
    const mean = sum / n;
    // Partitions without keys each add mean^2 to the sum of squared deviations.
    let sq = (n - held.length) * mean * mean;
    for (const c of held) sq += (c - mean) ** 2;
    const sd = Math.sqrt(sq / n);
    return { units: n, min, max, mean, maxOverMean: mean > 0 ? max / mean : null, cv: mean > 0 ? sd / mean : null };
  }
}
