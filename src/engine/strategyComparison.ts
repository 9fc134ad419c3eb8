/**
 * One change, four Key_Shared strategies: for the same consumers (connected in the same order)
 * and the same join or leave, how much of the key hash space changes owner under AUTO_SPLIT hash
 * ranges, consistent hashing as 3.x and 4.x brokers do it, and STICKY, and how even the load is
 * before and after (max over mean of the consumers' shares of the key hash values).
 *
 * Each strategy is the real selector (`KeySharedSubscription` over `createSelector`), fed the same
 * history. STICKY is manual: consumers bring their own ranges, so it is computed only for the
 * ranges given, and a join without ranges is what the broker refuses.
 */
import { formatEvent, parseEvent, type TopologyEvent } from './events';
import { diffOwnership, measureSize, takeSnapshot, type RangesById } from './whatIf';
import { KeySharedSubscription, type SelectorConfig } from './pulsar/keyShared/subscription';
import { ConsumerAssignError, type BrokerVersion, type Consumer, type HashRange, type Segment, type StickyKeyConsumerSelector } from './pulsar/keyShared/selector';

export type StrategyId = 'autoSplit' | 'consistentHashing3' | 'consistentHashing4' | 'sticky';

export interface StrategyComparisonInput {
  /** The consumers connected before the change, in connection order (`ranges` for STICKY). */
  consumers: ReadonlyArray<{ name: string; ranges?: readonly HashRange[] }>;
  /** The change: `+NAME`, `+NAME:START-END,...` (ranges used by STICKY only), `-ID`. */
  event: TopologyEvent | string;
  /** Generation of the AUTO_SPLIT hash-range and STICKY selectors (same algorithm, different key values); default '4.0'. */
  brokerVersion?: BrokerVersion;
  /** Ring points per consumer for both consistent-hashing generations; default 100. */
  replicaPoints?: number;
  /** Range size of the hash-range selectors; default 65536. */
  hashRangeSize?: number;
}

export interface LoadFigures {
  /** Connected consumer id -> its share of the key hash values (0..1), in connection order. */
  shares: Record<string, number>;
  /** The largest share over the mean share of the connected consumers: 1 is perfectly even; null without consumers. */
  maxOverMean: number | null;
  /** Share of the key hash values that no consumer owns (STICKY gaps; everything without consumers). */
  unowned: number;
}

export interface StrategyResult {
  strategy: StrategyId;
  /** How the UI names it, e.g. "AUTO_SPLIT hash ranges (4.0)". */
  label: string;
  brokerVersion: BrokerVersion;
  /** The values a key's hash can take under this selector; shares and movedFraction are over these. */
  keyValues: [number, number];
  /** The broker's reason where it refuses the change; the figures then describe the unchanged layout. */
  error?: string;
  /** Consumers of the history this strategy refused (STICKY without ranges or with overlapping ones). */
  refused: Array<{ name: string; error: string }>;
  lost: RangesById;
  gained: RangesById;
  movedFraction: number;
  /** Consumers connected before the change that lost part of their share (each must drain it). */
  consumersLosing: number;
  before: LoadFigures;
  after: LoadFigures;
  note?: string;
}

export interface StrategyComparison {
  event: string;
  strategies: StrategyResult[];
}

interface Strategy {
  id: StrategyId;
  label: string;
  config: SelectorConfig;
}

function strategies(bv: BrokerVersion, replicaPoints: number, hashRangeSize: number): Strategy[] {
  const base = { replicaPoints, hashRangeSize };
  return [
    { id: 'autoSplit', label: `AUTO_SPLIT hash ranges (${bv})`, config: { ...base, brokerVersion: bv, keySharedMode: 'AUTO_SPLIT', consistentHashing: false } },
    { id: 'consistentHashing3', label: 'consistent hashing (3.0)', config: { ...base, brokerVersion: '3.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true } },
    { id: 'consistentHashing4', label: 'consistent hashing (4.0)', config: { ...base, brokerVersion: '4.0', keySharedMode: 'AUTO_SPLIT', consistentHashing: true } },
    { id: 'sticky', label: `STICKY (${bv}, manual ranges)`, config: { ...base, brokerVersion: bv, keySharedMode: 'STICKY', consistentHashing: false } },
  ];
}

/** Runs the change under each strategy. Throws `Error` for an unparsable event or a bad range size. */
export function compareStrategies(input: StrategyComparisonInput): StrategyComparison {
  const event = typeof input.event === 'string' ? parseEvent(input.event) : input.event;
  if (event.kind === 'partitions') {
    throw new Error('a partition count change is not a Key_Shared strategy question: every strategy starts fresh selectors for the new partitions');
  }
  const bv = input.brokerVersion ?? '4.0';
  return {
    event: formatEvent(event),
    strategies: strategies(bv, input.replicaPoints ?? 100, input.hashRangeSize ?? 65536).map((s) => runStrategy(s, input.consumers, event)),
  };
}

function runStrategy(s: Strategy, consumers: StrategyComparisonInput['consumers'], event: Exclude<TopologyEvent, { kind: 'partitions' }>): StrategyResult {
  let sub: KeySharedSubscription;
  try {
    sub = new KeySharedSubscription(s.config);
  } catch (e) {
    if (e instanceof ConsumerAssignError) throw new Error(`hashRangeSize: ${e.message}`);
    throw e;
  }
  const refused: StrategyResult['refused'] = [];
  for (const c of consumers) {
    const r = sub.connect(c.name, c.ranges);
    if (!r.ok) refused.push({ name: c.name, error: r.error });
  }
  const selector = sub.selector;
  const before = takeSnapshot(selector);
  const loadBefore = load(selector, sub.consumers);
  const r = event.kind === 'connect' ? sub.connect(event.name, event.ranges) : sub.disconnect(event.id);
  const after = takeSnapshot(selector);
  const d = diffOwnership(before, after, selector.keyValues);
  const out: StrategyResult = {
    strategy: s.id,
    label: s.label,
    brokerVersion: s.config.brokerVersion,
    keyValues: [selector.keyValues[0], selector.keyValues[1]],
    refused,
    lost: byId(d.lost),
    gained: byId(d.gained),
    movedFraction: d.movedSize / measureSize(selector.keyValues),
    consumersLosing: [...d.lost.keys()].filter((c) => !(event.kind === 'disconnect' && r.ok && c === r.value)).length,
    before: loadBefore,
    after: load(selector, sub.consumers),
  };
  if (!r.ok) out.error = r.error;
  if (s.id === 'sticky') {
    const missing = consumers.filter((c) => c.ranges === undefined).length + (event.kind === 'connect' && event.ranges === undefined ? 1 : 0);
    out.note =
      missing > 0
        ? 'STICKY is manual: each consumer names its hash ranges and nothing is reassigned for it. Without ranges the broker refuses a consumer, so this covers only the consumers and ranges given (+NAME:START-END,... for the joining one).'
        : `STICKY is manual: each consumer names its hash ranges; a join only takes what nobody owns${s.config.brokerVersion === '3.0' ? ' (or a gap between two ranges of one consumer, which is that consumer\'s on 3.x)' : ''}, a leave leaves its ranges unowned.`;
  }
  return out;
}

function byId(m: Map<Consumer, Array<[number, number]>>): RangesById {
  const out: RangesById = {};
  for (const [c, ranges] of m) out[c.id] = ranges;
  return out;
}

/** Hashes h in [0, x] with h % k === i. */
function upTo(x: number, k: number, i: number): number {
  return x < i ? 0 : Math.floor((x - i) / k) + 1;
}

/**
 * Each connected consumer's share of the key hash values. Where a 3.0 ring point is shared by
 * several consumers, a key goes to `list[hash % list.size]`, so each gets the hashes congruent to
 * its index.
 */
export function load(selector: StickyKeyConsumerSelector, live: readonly Consumer[]): LoadFigures {
  const [lo, hi] = selector.keyValues;
  const total = hi - lo + 1;
  const count = new Map<Consumer, number>(live.map((c) => [c, 0]));
  let owned = 0;
  for (const seg of selector.segments() as Segment[]) {
    const s = Math.max(seg.start, lo);
    const e = Math.min(seg.end, hi);
    if (e < s || seg.consumers.length === 0) continue;
    owned += e - s + 1;
    const k = seg.consumers.length;
    seg.consumers.forEach((c, i) => {
      const n = k === 1 ? e - s + 1 : upTo(e, k, i) - upTo(s - 1, k, i);
      count.set(c, (count.get(c) ?? 0) + n);
    });
  }
  const shares: Record<string, number> = {};
  for (const c of live) shares[c.id] = (count.get(c) ?? 0) / total;
  const values = Object.values(shares);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return {
    shares,
    maxOverMean: values.length === 0 || mean === 0 ? null : Math.max(...values) / mean,
    unowned: (total - owned) / total,
  };
}
