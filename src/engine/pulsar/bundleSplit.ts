/**
 * The broker's four bundle-split algorithms (`NamespaceBundleSplitAlgorithm`), as the 3.0 broker
 * has them. Each returns the split positions the load manager would pass to
 * `NamespaceBundleFactory.splitBundles`, or null for "no split".
 *
 * - `range_equally_divide`: lower + (upper - lower) / 2.
 * - `topic_count_equally_divide`: null with <= 1 owned topic; else, over the sorted topic hashes
 *   h[0..n), start = h[max(n/2 - 1, 0)], end = h[n/2], split at start + (end - start) / 2.
 * - `specified_positions_divide`: throws "SplitBoundaries can't be empty" for no positions (before
 *   looking at topics); null with <= 1 owned topic; else the positions sorted (duplicates kept),
 *   keeping those strictly inside (lower, upper); null if none is.
 * - `flow_or_qps_equally_divide` (PIP-169): per topic rate = msgRateIn + msgRateOut and
 *   throughput = msgThroughputIn + msgThroughputOut; topics with both <= 0 are skipped. Null with
 *   <= 1 owned topic, with fewer than 2 distinct hashes left, or when the bundle's summed rate is
 *   below maxMsgRate * (1 + p/100) and its summed throughput below maxMbytes * 2^20 * (1 + p/100).
 *   Otherwise it walks the hashes in order, and wherever adding the next topic would take the
 *   running rate above maxMsgRate or the running throughput above maxMbytes * 2^20 (no threshold
 *   here) it splits at prev + (next - prev) / 2 + 1 and restarts the running sums at that topic.
 *   The PIP-169 text says the example splits at 95; the code's "+ 1" makes it 96.
 *   Quirk kept: the per-topic figures live in a map keyed by hash, so when two topics share a hash
 *   the later one's figures stand for both entries of the sorted hash list.
 *
 * Arithmetic: hashes and positions are Java longs; here they are JS integers, exact because
 * every value stays far below 2^53, and `/ 2` of a non-negative difference truncates like Java's.
 * Rates and throughputs are doubles summed in the owned-topic order, as in Java.
 */
export const SPLIT_ALGORITHMS = [
  'range_equally_divide',
  'topic_count_equally_divide',
  'specified_positions_divide',
  'flow_or_qps_equally_divide',
] as const;
export type SplitAlgorithm = (typeof SPLIT_ALGORITHMS)[number];

/** A bundle's key range: [lower, upper), or [lower, 0xffffffff] for the last bundle. */
export interface BundleRange {
  lower: number;
  upper: number;
}

export interface TopicLoad {
  hash: number;
  msgRateIn: number;
  msgRateOut: number;
  msgThroughputIn: number;
  msgThroughputOut: number;
}

/** The broker settings `flow_or_qps_equally_divide` reads (Java ints). */
export interface FlowOrQpsLimits {
  /** `loadBalancerNamespaceBundleMaxMsgRate`, default 30000. */
  loadBalancerNamespaceBundleMaxMsgRate: number;
  /** `loadBalancerNamespaceBundleMaxBandwidthMbytes`, default 100. */
  loadBalancerNamespaceBundleMaxBandwidthMbytes: number;
  /** `flowOrQpsDifferenceThresholdPercentage`, default 10. */
  flowOrQpsDifferenceThresholdPercentage: number;
}

export const DEFAULT_FLOW_OR_QPS_LIMITS: FlowOrQpsLimits = {
  loadBalancerNamespaceBundleMaxMsgRate: 30000,
  loadBalancerNamespaceBundleMaxBandwidthMbytes: 100,
  flowOrQpsDifferenceThresholdPercentage: 10,
};

const MBYTES = 1024 * 1024;

/** What the broker throws (an `IllegalArgumentException`), with its message. */
export class SplitError extends Error {}

export function rangeEquallyDivide(bundle: BundleRange): number[] {
  return [bundle.lower + Math.floor((bundle.upper - bundle.lower) / 2)];
}

/** `hashes`: the hash of every owned topic of the bundle. */
export function topicCountEquallyDivide(hashes: readonly number[]): number[] | null {
  if (hashes.length <= 1) return null;
  const sorted = [...hashes].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  const start = sorted[Math.max(half - 1, 0)];
  const end = sorted[half];
  return [start + Math.floor((end - start) / 2)];
}

export function specifiedPositionsDivide(bundle: BundleRange, ownedTopics: number, positions: readonly number[] | null | undefined): number[] | null {
  if (!positions || positions.length === 0) throw new SplitError("SplitBoundaries can't be empty");
  const sorted = [...positions].sort((a, b) => a - b);
  if (ownedTopics <= 1) return null;
  const inside = sorted.filter((p) => p > bundle.lower && p < bundle.upper);
  return inside.length === 0 ? null : inside;
}

export function flowOrQpsEquallyDivide(topics: readonly TopicLoad[], limits: FlowOrQpsLimits = DEFAULT_FLOW_OR_QPS_LIMITS): number[] | null {
  if (topics.length <= 1) return null;
  const maxMsgRate = limits.loadBalancerNamespaceBundleMaxMsgRate;
  const diffThreshold = limits.flowOrQpsDifferenceThresholdPercentage / 100.0;
  const maxBytes = limits.loadBalancerNamespaceBundleMaxBandwidthMbytes * MBYTES;

  let bundleThroughput = 0;
  let bundleMsgRate = 0;
  const info = new Map<number, { msgRate: number; throughput: number }>();
  const hashes: number[] = [];
  for (const t of topics) {
    const msgRate = t.msgRateIn + t.msgRateOut;
    const throughput = t.msgThroughputIn + t.msgThroughputOut;
    if (msgRate <= 0 && throughput <= 0) continue;
    hashes.push(t.hash);
    info.set(t.hash, { msgRate, throughput });
    bundleThroughput += throughput;
    bundleMsgRate += msgRate;
  }
  if (info.size < 2 || (bundleMsgRate < maxMsgRate * (1 + diffThreshold) && bundleThroughput < maxBytes * (1 + diffThreshold))) {
    return null;
  }
  hashes.sort((a, b) => a - b);

  const out: number[] = [];
  let rateTmp = info.get(hashes[0])!.msgRate;
  let tputTmp = info.get(hashes[0])!.throughput;
  for (let i = 1; i < hashes.length; i++) {
    const { msgRate, throughput } = info.get(hashes[i])!;
    if (rateTmp + msgRate > maxMsgRate || tputTmp + throughput > maxBytes) {
      const start = hashes[i - 1];
      const end = hashes[i];
      out.push(start + Math.floor((end - start) / 2) + 1);
      rateTmp = msgRate;
      tputTmp = throughput;
    } else {
      rateTmp += msgRate;
      tputTmp += throughput;
    }
  }
  return out;
}

export interface SplitInput {
  bundle: BundleRange;
  /** The bundle's owned topics: their hashes and, for flow_or_qps, their load. */
  topics: readonly TopicLoad[];
  positions?: readonly number[] | null;
  limits?: FlowOrQpsLimits;
}

/** Runs one algorithm; null is "no split"; throws `SplitError` where the broker throws. */
export function splitBoundaries(algorithm: SplitAlgorithm, input: SplitInput): number[] | null {
  switch (algorithm) {
    case 'range_equally_divide':
      return rangeEquallyDivide(input.bundle);
    case 'topic_count_equally_divide':
      return topicCountEquallyDivide(input.topics.map((t) => t.hash));
    case 'specified_positions_divide':
      return specifiedPositionsDivide(input.bundle, input.topics.length, input.positions);
    case 'flow_or_qps_equally_divide':
      return flowOrQpsEquallyDivide(input.topics, input.limits ?? DEFAULT_FLOW_OR_QPS_LIMITS);
  }
}

/**
 * What `NamespaceBundleFactory.splitBundles` would then say about these positions, or null when
 * it accepts them: a bundle one hash wide cannot be split, and every position must lie strictly
 * inside the bundle. (The algorithms above do not check this themselves.)
 */
export function splitRefusal(bundle: BundleRange, positions: readonly number[]): string | null {
  if (bundle.upper - bundle.lower <= 1) return "the bundle can't be split further";
  const bad = positions.find((p) => !(p > bundle.lower && p < bundle.upper));
  if (bad !== undefined) return `split position ${bad} is not strictly inside the bundle; the broker requires the given fixed keys to lie between the bundle's key range`;
  return null;
}
