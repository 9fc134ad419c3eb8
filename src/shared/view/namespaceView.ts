/**
 * A Pulsar topic's namespace bundles on the 32-bit hash ring: where the topic (each partition is
 * its own topic to the broker) hashes, which bundle holds it, and where each split algorithm would
 * cut that bundle.
 */
import {
  NamespaceBundles,
  topicHash,
  type Bundle,
} from '../../engine/pulsar/namespaceBundles';
import {
  SPLIT_ALGORITHMS,
  SplitError,
  splitBoundaries,
  splitRefusal,
  type SplitAlgorithm,
} from '../../engine/pulsar/bundleSplit';
import { parseTopicName, TopicNameError } from '../../engine/pulsar/topicName';
import { namespaceBundles, type Settings } from '../../engine/settings';

/** The broker's `defaultNumberOfNamespaceBundles`, used where the namespace is not configured. */
export const DEFAULT_BUNDLES = 4;
/** Partition topics marked at most (a key's partitions are always among them). */
export const MAX_MARKS = 512;
/**
 * Topic names hashed at most to find the focus bundle's topics. Partition counts go up to
 * 2^31-1, and hashing that many names would freeze the panel; a namespace past this is summarised
 * (see `NamespaceViewModel.unhashed`), never counted from a part of its topics.
 */
export const MAX_HASHED_TOPICS = 100_000;

export interface TopicMark {
  /** The name the broker hashes (a partition is `name-partition-i`). */
  name: string;
  partition: number | null;
  hash: number;
  bundle: number;
  /** 1-based numbers of the shown keys routed to this partition. */
  keys: number[];
}

export interface SplitPreview {
  algorithm: SplitAlgorithm;
  /** The positions the algorithm returns; null is "no split". */
  positions: number[] | null;
  /** The broker's exception, where it throws. */
  error?: string;
  /** Why it was not computed (the namespace too large to hash here); positions is then null. */
  skipped?: string;
  /** What `splitBundles` would say about the positions, where it refuses them. */
  refusal?: string;
  /** Why, in a sentence, for the help text. */
  note: string;
}

export interface NamespaceViewModel {
  namespace: string;
  /** False where the namespace is not in `keyRouting.pulsarNamespaces` (the broker default is shown). */
  configured: boolean;
  layout: NamespaceBundles;
  /** The resolved topic name. */
  topic: string;
  marks: TopicMark[];
  /** Partition topics not marked because there are more than MAX_MARKS. */
  unmarked: number;
  /** The bundle shown in detail: the first key's partition's, else the topic's (partition 0). */
  focus: Bundle;
  /** Hashes of the configured topics (and partitions) of this namespace inside the focus bundle. */
  owned: Array<{ name: string; hash: number }>;
  /**
   * Configured topics whose partitions were not hashed because the namespace has more than
   * MAX_HASHED_TOPICS partition topics: `owned` lacks theirs, so the splits that count topics
   * are not computed.
   */
  unhashed: Array<{ topic: string; partitions: number }>;
  splits: SplitPreview[];
}

/** The algorithms whose answer depends on the bundle's topics (all but the middle of the range). */
const COUNTS_TOPICS: ReadonlySet<SplitAlgorithm> = new Set(['topic_count_equally_divide', 'specified_positions_divide', 'flow_or_qps_equally_divide']);

const NOTES: Record<SplitAlgorithm, string> = {
  range_equally_divide: 'the middle of the bundle: lower + (upper - lower) / 2',
  topic_count_equally_divide:
    'halfway between the two middle topic hashes; here the owned topics are the configured topics and partitions of this namespace in the bundle (the broker counts every topic it serves there); no split with one topic or none',
  specified_positions_divide: 'the positions given to the split command that lie strictly inside the bundle; no split with one topic or none',
  flow_or_qps_equally_divide:
    'PIP-169: walks the topics in hash order and cuts where the running message rate or throughput would pass the bundle maximum, at prev + (next - prev) / 2 + 1. The +1 is in the code: the PIP-169 example splits at 96, not 95 as the proposal says. It needs each topic\'s load from the broker; with no load given the broker does not split',
};

export function buildNamespaceView(
  settings: Settings,
  topicName: string,
  partitions: number,
  keyPartitions: ReadonlyArray<number | null>,
  positions: number[] | null,
): NamespaceViewModel | { error: string } {
  let topic;
  try {
    topic = parseTopicName(topicName);
  } catch (e) {
    if (e instanceof TopicNameError) return { error: e.message };
    throw e;
  }
  const ns = settings.namespaces.find((n) => n.name === topic.namespace);
  const layout = ns ? namespaceBundles(ns) : NamespaceBundles.equal(DEFAULT_BUNDLES);
  const partitionName = (p: number | null) => (p === null ? topic.fullName : `${topic.fullName}-partition-${p}`);

  // Which partitions to mark: the keys' first, then the rest in order up to the cap.
  const wanted: Array<number | null> = [];
  const seen = new Set<number | null>();
  const want = (p: number | null) => {
    if (!seen.has(p)) {
      seen.add(p);
      wanted.push(p);
    }
  };
  for (const p of keyPartitions) want(partitions > 0 ? p : null);
  if (partitions === 0) want(null);
  for (let p = 0; p < partitions && wanted.length < MAX_MARKS; p++) want(p);
  const marks: TopicMark[] = wanted
    .map((p) => {
      const name = partitionName(p);
      const hash = topicHash(name);
      const keys = keyPartitions.flatMap((kp, i) => ((partitions > 0 ? kp : null) === p ? [i + 1] : []));
      return { name, partition: p, hash, bundle: layout.indexOf(hash), keys };
    })
    .sort((a, b) => (a.partition ?? -1) - (b.partition ?? -1));
  const focusMark = marks.find((m) => m.keys.length > 0) ?? marks.find((m) => m.partition === null || m.partition === 0) ?? marks[0];
  const focus = layout.bundle(focusMark.bundle);

  // The namespace's configured topics, every partition a topic of its own.
  const owned: Array<{ name: string; hash: number }> = [];
  const unhashed: Array<{ topic: string; partitions: number }> = [];
  let hashed = 0;
  for (const t of settings.topics) {
    if (t.system !== 'pulsar') continue;
    let tn;
    try {
      tn = parseTopicName(t.name);
    } catch {
      continue;
    }
    if (tn.namespace !== topic.namespace) continue;
    const count = Math.max(1, t.partitions);
    if (hashed + count > MAX_HASHED_TOPICS) {
      unhashed.push({ topic: tn.fullName, partitions: t.partitions });
      continue;
    }
    hashed += count;
    for (let i = 0; i < count; i++) {
      const name = t.partitions > 0 ? `${tn.fullName}-partition-${i}` : tn.fullName;
      const hash = topicHash(name);
      if (layout.indexOf(hash) === focus.index) owned.push({ name, hash });
    }
  }

  const bundle = { lower: focus.lower, upper: focus.upper };
  const topics = owned.map((o) => ({ hash: o.hash, msgRateIn: 0, msgRateOut: 0, msgThroughputIn: 0, msgThroughputOut: 0 }));
  const splits = SPLIT_ALGORITHMS.map((algorithm): SplitPreview => {
    const out: SplitPreview = { algorithm, positions: null, note: NOTES[algorithm] };
    if (unhashed.length > 0 && COUNTS_TOPICS.has(algorithm)) {
      out.skipped = `not computed: the namespace has more than ${MAX_HASHED_TOPICS.toLocaleString('en-US')} partition topics (${unhashed.map((u) => `${u.topic}: ${u.partitions.toLocaleString('en-US')}`).join(', ')}), too many to hash here`;
      return out;
    }
    try {
      out.positions = splitBoundaries(algorithm, { bundle, topics, positions });
    } catch (e) {
      if (!(e instanceof SplitError)) throw e;
      out.error = e.message;
    }
    if (out.positions) {
      const r = splitRefusal(bundle, out.positions);
      if (r) out.refusal = r;
    }
    return out;
  });
  return {
    namespace: topic.namespace,
    configured: ns !== undefined,
    layout,
    topic: topic.fullName,
    marks,
    unmarked: Math.max(0, partitions - marks.filter((m) => m.partition !== null).length),
    focus,
    owned,
    unhashed,
    splits,
  };
}
