/**
 * A consistent-hashing ring as the broker reported it, answering like a selector (read-only):
 * routes and `ranges` read the report itself, not the ring rebuilt from the consumers' names,
 * which can differ (see compare.ts).
 *
 * - 4.x: the report's ranges cover 1..65535, one consumer each; a key goes to the range holding
 *   its hash.
 * - 3.x: each consumer lists `[prevPoint + 1, point]` for every point it is on; consumers with
 *   the same range share that point, in the broker's list order (sorted by name; same names in
 *   connection order), and a key there goes to `list[hash % list.size()]`. The report leaves out
 *   the hashes above the last point: they wrap around to the first point's list.
 */
import {
  EMPTY_TABLE,
  type BrokerVersion,
  only,
  segmentsOfTable,
  SegmentTableBuilder,
  tableIndexAt,
  type Consumer,
  type HashRange,
  type Segment,
  type SegmentTable,
  type StickyKeyConsumerSelector,
} from '../pulsar/keyShared/selector';

export class ReportedRing implements StickyKeyConsumerSelector {
  readonly algorithm = 'consistentHashing';
  readonly brokerVersion: BrokerVersion;
  readonly keyHashRange: HashRange;
  readonly keyValues: HashRange;
  readonly #table: SegmentTable;
  #segmentsMemo: Segment[] | null = null;

  /**
   * `hashing` is a selector of the same kind, used only for its hash rules; `reported` pairs
   * each consumer with its reported ranges, in connection order.
   */
  constructor(
    private readonly hashing: StickyKeyConsumerSelector,
    reported: ReadonlyArray<{ consumer: Consumer; ranges: readonly HashRange[] }>,
  ) {
    this.brokerVersion = hashing.brokerVersion;
    this.keyHashRange = hashing.keyHashRange;
    this.keyValues = hashing.keyValues;
    this.#table = ringTable(reported, this.keyValues[1]);
  }

  makeStickyKeyHash(bytes: Uint8Array, length?: number): number {
    return this.hashing.makeStickyKeyHash(bytes, length);
  }

  slotOf(stickyKeyHash: number): number {
    return stickyKeyHash;
  }

  addConsumer(): void {
    throw new Error('a reported ring is read-only: events apply to the ring rebuilt from its consumers');
  }

  removeConsumer(): void {
    throw new Error('a reported ring is read-only: events apply to the ring rebuilt from its consumers');
  }

  select(stickyKeyHash: number): Consumer | null {
    const i = tableIndexAt(this.#table, stickyKeyHash);
    if (i < 0) return null;
    const list = this.#table.owners[this.#table.owner[i]];
    if (list.length === 0) return null;
    return this.brokerVersion === '4.0' ? list[0] : list[stickyKeyHash % list.length];
  }

  segmentTable(): SegmentTable {
    return this.#table;
  }

  snapshotTable(): SegmentTable {
    return this.#table;
  }

  segments(): Segment[] {
    return (this.#segmentsMemo ??= segmentsOfTable(this.#table));
  }

  snapshot(): Segment[] {
    return this.segments();
  }

  /** Never changes, so it is its own clone. */
  clone(): ReportedRing {
    return this;
  }
}

/**
 * The report as a segment table: its ranges by start, one list per reported range (a point) with
 * consumers in the broker's order (by name, stable), and above the last point, up to `max`, the
 * first point's consumers (3.x; a 4.x report shares no point and reaches its `max`, validate.ts).
 *
 * Each consumer's one-consumer list gets its code once (looked up for each range, with an array
 * made for each, it took half of this function's time). The order is one numeric sort of
 * `start * n + i`, ties in report order, exact while it stays below 2^53: starts are below 2^31,
 * so up to 2^22 ranges (a ring of 4,000,000 points reports no more); past that, a comparator. A
 * ring of 1,000 x 100 points reports 100,000 ranges: sorting objects with a comparator took 30-45
 * ms of a 4.x topology's build, and 40-70 ms of a what-if step on a 3.x ring in the panel; a Map by
 * start took 1.6 s for a 3.x ring of 10,000 x 100 points in Node.
 */
function ringTable(reported: ReadonlyArray<{ consumer: Consumer; ranges: readonly HashRange[] }>, max: number): SegmentTable {
  let n = 0;
  for (const r of reported) n += r.ranges.length;
  if (n === 0) return EMPTY_TABLE;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const codes = new Int32Array(n);
  // The consumer of each code.
  const consumers: Consumer[] = [];
  const b = new SegmentTableBuilder([], n + 1);
  let i = 0;
  for (const r of reported) {
    if (r.ranges.length === 0) continue;
    const code = b.code(only(r.consumer));
    consumers[code] = r.consumer;
    for (const [start, end] of r.ranges) {
      starts[i] = start;
      ends[i] = end;
      codes[i++] = code;
    }
  }
  // The indexes by start, ties in report order: the sort keys, then (in place) the indexes they
  // give; past 2^22 ranges the indexes, sorted by a comparator.
  const order = new Float64Array(n);
  const exact = n <= 2 ** 22;
  for (let j = 0; j < n; j++) order[j] = exact ? starts[j] * n + j : j;
  order.sort(exact ? undefined : (x, y) => starts[x] - starts[y] || x - y);
  if (exact) for (let j = 0; j < n; j++) order[j] %= n;
  let first = -1;
  for (let k = 0; k < n; ) {
    i = order[k];
    let code = codes[i];
    if (++k < n && starts[order[k]] === starts[i]) {
      const cs = [consumers[code]];
      do cs.push(consumers[codes[order[k]]]);
      while (++k < n && starts[order[k]] === starts[i]);
      // Array.prototype.sort is stable, as Java's List.sort: same names keep connection order.
      code = b.code(Object.freeze(cs.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))));
    }
    if (first < 0) first = code;
    b.push(starts[i], ends[i], code);
  }
  if (ends[i] < max) b.push(ends[i] + 1, max, first);
  return b.build();
}
