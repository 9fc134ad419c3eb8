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
import { RING3_MAX } from './types';

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
    this.#table = this.brokerVersion === '4.0' ? table4(reported) : table3(reported);
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

function table4(reported: ReadonlyArray<{ consumer: Consumer; ranges: readonly HashRange[] }>): SegmentTable {
  let n = 0;
  for (const r of reported) n += r.ranges.length;
  if (n === 0) return EMPTY_TABLE;
  // The ranges by start, ties in report order, as one numeric sort of `start * n + i` (exact: a
  // start is at most 65536, so the keys stay far below 2^53). A 4.x ring of 1,000 x 100 points
  // reports 100,000 ranges; sorting objects with a comparator took 30-45 ms of the topology's build.
  const keys = new Float64Array(n);
  const ends = new Float64Array(n);
  const codes = new Int32Array(n);
  const b = new SegmentTableBuilder([], n);
  let i = 0;
  for (const r of reported) {
    if (r.ranges.length === 0) continue;
    const code = b.code(only(r.consumer));
    for (const [start, end] of r.ranges) {
      keys[i] = start * n + i;
      ends[i] = end;
      codes[i++] = code;
    }
  }
  keys.sort();
  for (const key of keys) {
    const start = Math.floor(key / n);
    const j = key - start * n;
    b.push(start, ends[j], codes[j]);
  }
  return b.build();
}

function table3(reported: ReadonlyArray<{ consumer: Consumer; ranges: readonly HashRange[] }>): SegmentTable {
  // One list per reported range (a point), consumers in the broker's order: by name, stable.
  let n = 0;
  for (const r of reported) n += r.ranges.length;
  if (n === 0) return EMPTY_TABLE;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const owners: Consumer[] = [];
  for (const r of reported) {
    for (const [start, end] of r.ranges) {
      starts[owners.length] = start;
      ends[owners.length] = end;
      owners.push(r.consumer);
    }
  }
  // The ranges by start, those of a shared point in report order. Typed arrays, not a Map by start:
  // a 3.x ring of 10,000 x 100 points took 1.6 s here in Node, 2.4 s as one task in the panel. And
  // as table4 does, one numeric sort of `start * n + i` where that is exact (starts are below 2^31,
  // so up to 2^22 ranges: a ring of 4,000,000 points reports no more); the comparator took 40-70 ms
  // of a what-if step on a ring of 1,000 x 100 points in the panel.
  const order =
    n > 2 ** 22
      ? new Uint32Array(n).map((_, i) => i).sort((a, b) => starts[a] - starts[b] || a - b)
      : Uint32Array.from(new Float64Array(n).map((_, i) => starts[i] * n + i).sort(), (key) => key % n);
  const b = new SegmentTableBuilder([], n + 1);
  let first: readonly Consumer[] | undefined;
  let i = 0;
  for (let k = 0; k < n; ) {
    i = order[k];
    const cs = [owners[i]];
    while (++k < n && starts[order[k]] === starts[i]) cs.push(owners[order[k]]);
    // Array.prototype.sort is stable, as Java's List.sort: same names keep connection order.
    const list = cs.length === 1 ? only(cs[0]) : Object.freeze(cs.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0)));
    first ??= list;
    b.pushList(starts[i], ends[i], list);
  }
  // Above the last point: the first point's consumers (not in the broker's report).
  if (ends[i] < RING3_MAX) b.pushList(ends[i] + 1, RING3_MAX, first!);
  return b.build();
}
