/**
 * The view model of one configured topic: its partitions with the keys' partitions, and for a
 * Pulsar Key_Shared subscription the owned segments of the key hash space (bar), the ring where
 * the selector is consistent hashing, and a marker per key at its sticky key hash.
 */
import type { MessageKey } from '../../engine/key';
import type { HashingScheme } from '../../engine/pulsar/producerRouting';
import { PARTITIONER_LABELS } from '../../engine/kafka/partitioners';
import type { StickyKeyConsumerSelector } from '../../engine/pulsar/keyShared/selector';
import { KafkaTopicState, PulsarTopicState, type RouteFields, type TopicState } from '../../engine/topology';
import { ColorMap, OwnerTable } from './owners';
import { arcOf, buildRing, isRingSelector, type RingArc, type RingModel } from './ring';
import { buildSegments, segmentIndexAt, type SegmentsModel } from './segments';

/** A key to show, with its number in the legend (1-based). */
export interface ShownKey {
  label: string;
  key: MessageKey;
}

export interface KeyMarker {
  /** 1-based number in the legend. */
  n: number;
  label: string;
  route: RouteFields;
  /** Pulsar: the slot the selector looks the key up at (the 3.x hash-range selectors: hash % rangeSize). */
  slot: number | null;
  /** Index of the segment holding the slot, or -1. */
  segment: number;
  /** Consistent hashing: the arc from the key's hash to its point. */
  arc: RingArc | null;
}

export interface PartitionsModel {
  count: number;
  /** How the producer picks: Kafka's murmur2 or the Pulsar client's hashing scheme. */
  scheme: string;
}

export interface TopicViewModel {
  name: string;
  system: 'kafka' | 'pulsar';
  /** Null for a non-partitioned Pulsar topic. */
  partitions: PartitionsModel | null;
  /** Pulsar with a Key_Shared subscription. */
  selector: {
    algorithm: StickyKeyConsumerSelector['algorithm'];
    brokerVersion: StickyKeyConsumerSelector['brokerVersion'];
    consumers: string[];
    segments: SegmentsModel;
    ring: RingModel | null;
  } | null;
  markers: KeyMarker[];
}

export function partitionScheme(topic: TopicState): string {
  if (topic instanceof KafkaTopicState) {
    const p = topic.config.partitioner;
    return p === 'java' ? 'murmur2 (Java client)' : `${p}: ${PARTITIONER_LABELS[p]}`;
  }
  const scheme: HashingScheme = (topic as PulsarTopicState).config.hashingScheme;
  return scheme;
}

/** The selector a panel shows for a topic (partition 0's, as `ranges` and `what-if` describe). */
export function shownSelector(topic: TopicState): StickyKeyConsumerSelector | undefined {
  return topic instanceof PulsarTopicState ? topic.subscription?.selector : undefined;
}

export function buildTopicView(topic: TopicState, keys: readonly ShownKey[], colors: ColorMap = new ColorMap()): TopicViewModel {
  const partitions = topic.partitions > 0 ? { count: topic.partitions, scheme: partitionScheme(topic) } : null;
  const selector = shownSelector(topic);
  let sel: TopicViewModel['selector'] = null;
  if (selector && topic instanceof PulsarTopicState && topic.subscription) {
    const table = new OwnerTable(colors);
    const live = topic.subscription.consumers;
    const segments = buildSegments(selector.segmentTable(), selector.keyHashRange, selector.keyValues, table, live);
    const ring = isRingSelector(selector) ? buildRing(selector, table) : null;
    sel = {
      algorithm: selector.algorithm,
      brokerVersion: selector.brokerVersion,
      consumers: live.map((c) => c.id),
      segments,
      ring,
    };
  }
  const markers = keys.map((k, i): KeyMarker => {
    const route = topic.route(k.key);
    let slot: number | null = null;
    let segment = -1;
    let arc: RingArc | null = null;
    if (route.system === 'pulsar' && route.stickyKeyHash !== undefined) {
      // The shown selector is partition 0's; the key's own partition may be served by a later
      // selector group only after a what-if adds partitions, and then its route says so.
      const s = selector ?? (topic instanceof PulsarTopicState ? topic.selectorFor(route.partition) : undefined);
      if (s) slot = s.slotOf(route.stickyKeyHash);
      if (sel && slot !== null) {
        segment = segmentIndexAt(sel.segments, slot);
        if (sel.ring) arc = arcOf(sel.ring, slot);
      }
    }
    return { n: i + 1, label: k.label, route, slot, segment, arc };
  });
  return { name: topic.name, system: topic instanceof KafkaTopicState ? 'kafka' : 'pulsar', partitions, selector: sel, markers };
}

// ---------------------------------------------------------------------------------------------
// Partitions row

/** A drawn cell: one partition, or a run of partitions when there are more than fit. */
export interface PartitionCell {
  first: number;
  last: number;
  x0: number;
  x1: number;
}

/** Cells for `count` partitions over `width` pixels, at least `minCell` pixels each. */
export function layoutPartitions(count: number, width: number, minCell = 6): PartitionCell[] {
  const cells = Math.max(1, Math.min(count, Math.floor(width / minCell)));
  const out: PartitionCell[] = [];
  for (let c = 0; c < cells; c++) {
    const first = Math.floor((c * count) / cells);
    const last = Math.floor(((c + 1) * count) / cells) - 1;
    out.push({ first, last, x0: (c * width) / cells, x1: ((c + 1) * width) / cells });
  }
  return out;
}

/** The cell holding a partition. */
export function cellOf(cells: readonly PartitionCell[], partition: number): number {
  let lo = 0;
  let hi = cells.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (partition < cells[mid].first) hi = mid - 1;
    else if (partition > cells[mid].last) lo = mid + 1;
    else return mid;
  }
  return -1;
}
