/**
 * The analysis result: plain, JSON-serialisable data (what the CLI prints, what the worker posts,
 * what the panel charts), and the statistics it is made of.
 */

/** How uneven a distribution of keys over units (partitions, consumers, bundles) is. */
export interface Skew {
  units: number;
  min: number;
  max: number;
  /** Keys per unit. */
  mean: number;
  /** max / mean: 1 is perfectly even; null with no keys. */
  maxOverMean: number | null;
  /** Coefficient of variation: population standard deviation / mean; null with no keys. */
  cv: number | null;
}

export function skew(counts: ArrayLike<number>): Skew | null {
  const n = counts.length;
  if (n === 0) return null;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const c = counts[i];
    sum += c;
    if (c < min) min = c;
    if (c > max) max = c;
  }
  const mean = sum / n;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (counts[i] - mean) ** 2;
  const sd = Math.sqrt(sq / n);
  return { units: n, min, max, mean, maxOverMean: mean > 0 ? max / mean : null, cv: mean > 0 ? sd / mean : null };
}

export interface PartitionFigure {
  partition: number;
  keys: number;
  /** keys / all keys analysed. */
  keyShare: number;
  /**
   * The share of the client's hash values that map to this partition (for the Java client's
   * `(hash & 0x7fffffff) % partitions`, of the 31-bit values): what evenly spread keys would give.
   */
  hashShare: number;
}

export interface ConsumerFigure {
  id: string;
  keys: number;
  keyShare: number;
  /**
   * The consumer's share of the key hash space: the slot values it owns over the values a key's
   * slot can take (`keyValues`), averaged over the partitions' selectors.
   */
  hashShare: number;
}

export interface BundleFigure {
  bundle: string;
  /** The topic's partitions (or the topic) in this bundle. */
  partitions: number[];
  keys: number;
  keyShare: number;
}

/** The figures of one topic under one topology. */
export interface TopologyFigures {
  /** Partition count; 0 for a non-partitioned Pulsar topic. */
  partitions: number;
  /**
   * Keys per partition: every partition, or where `sparsePartitions` (more than 100,000
   * partitions) only the partitions that received keys. Ascending.
   */
  partitionKeys?: PartitionFigure[];
  sparsePartitions?: true;
  /** Over every partition, those without keys included. */
  partitionSkew?: Skew | null;
  /** Kafka: keys the client puts on no fixed partition (librdkafka's empty key, kafka-go's round-robin). */
  randomKeys?: number;
  /** Keys the topic's key serializer cannot take (`abc` for an int key): how many, and the first ones. */
  keyErrors?: { count: number; first: Problem[] };
  /**
   * Topics that list `producers`: the keys on which two of them pick different partitions (or one
   * picks none), and their share of all keys.
   */
  producers?: { names: string[]; disagreeKeys: number; disagreeShare: number };
  /** Pulsar topics with a Key_Shared subscription: connected consumers in connection order. */
  consumers?: ConsumerFigure[];
  /** Keys whose hash nobody owns (STICKY gaps, or no consumer connected). */
  unowned?: number;
  consumerSkew?: Skew | null;
  /** Where a namespace layout is known: keys per namespace bundle. */
  bundles?: BundleFigure[];
  bundleSkew?: Skew | null;
}

export interface TopicFigures extends TopologyFigures {
  topic: string;
  system: 'kafka' | 'pulsar';
  keys: number;
  /** Under the what-if events: the same figures, and how many keys changed partition or consumer. */
  after?: TopologyFigures & { movedKeys: number; movedShare: number };
}

export interface HeavyKey {
  /** The key as text (UTF-8 input that decodes), or its bytes in hex (see `format`). */
  key: string;
  format: 'utf8' | 'hex';
  /** Length of the key in bytes. */
  bytes: number;
  /** Only the first bytes are kept (and shown) for very long keys. */
  truncated?: boolean;
  /** Exact where `exact`; otherwise a lower bound. */
  count: number;
  exact: boolean;
  /** Upper bound where not exact. */
  maxCount?: number;
  keyShare: number;
  /** Where it goes, per topic: partition and consumer (before and after a what-if). */
  routes?: Array<{ topic: string; partition: number | null; consumer?: string | null; error?: string; after?: { partition: number | null; consumer?: string | null } }>;
}

export interface HeavyKeysFigures {
  /** 'misra-gries': one pass with bounds; 'misra-gries+exact-pass': candidates recounted exactly. */
  method: 'misra-gries' | 'misra-gries+exact-pass';
  /** Candidates held (the memory bound). */
  capacity: number;
  /** Every count below is exact. */
  exact: boolean;
  /**
   * The list provably holds the heaviest keys: no key left out occurs more often than the last
   * one listed (ties with it aside).
   */
  complete: boolean;
  /** No key missing from the list occurs more than this many times. */
  unlistedMax: number;
  keys: HeavyKey[];
}

export interface Problem {
  line: number;
  message: string;
}

export type InputKind = 'lines' | 'csv' | 'jsonl';

export interface AnalysisResult {
  /** 'partial' while running; 'cancelled' if stopped before the end. */
  status: 'complete' | 'partial' | 'cancelled';
  input: {
    kind: InputKind;
    keyFormat: 'utf8' | 'hex';
    column?: number | string;
    field?: string;
    delimiter?: string;
    bytes: number;
    lines: number;
    keys: number;
    /** Empty lines skipped (CSV and JSON Lines; in one-key-per-line input an empty line is the empty key). */
    blankLines: number;
  };
  /** Lines that gave no key: how many, and the first ones with their line numbers. */
  problems: { count: number; first: Problem[] };
  /** Configured consumers the broker would refuse (they are left out, as everywhere). */
  configProblems: Array<{ path: string; message: string }>;
  whatIf?: { events: Array<{ event: string; topic: string; error?: string }> };
  topics: TopicFigures[];
  heavyKeys: HeavyKeysFigures;
  elapsedMs: number;
}
