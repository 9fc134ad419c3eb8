/**
 * A broker's topic stats for a known connection history, for the import tests: the history is
 * replayed on the engine's selectors (each checked against the real Pulsar classes, see
 * selectors.test.ts), and the per-consumer ranges are reported the way each broker class reports
 * them, into JSON shaped field by field like `TopicStatsImpl` / `SubscriptionStatsImpl` /
 * `ConsumerStatsImpl` as Jackson writes them (null fields left out):
 * - AUTO_SPLIT hash ranges: `[prevKey + 1, key]` per map entry, the top ending at 65536;
 * - 3.x ring (`getConsumerKeyHashRanges`): `[prevPoint + 1, point]` for every point and every
 *   consumer on it, not merged, nothing above the last point;
 * - 4.x (`ConsumerHashAssignmentsSnapshot.getRangesByConsumer`): the snapshot's ranges per
 *   consumer with overlapping and adjacent ones merged (the ring's wrap-around part included);
 * - STICKY: each consumer's ranges, ascending (3.x), merged where adjacent (4.x).
 * 3.x and 4.x classic mode write `keyHashRanges` strings (`Range.toString()`), 4.x
 * `keyHashRangeArrays`; 4.x consumers always carry the draining fields.
 */
import { parseEvent } from '../../src/engine/events';
import { AutoSplitHashRangeSelector } from '../../src/engine/pulsar/keyShared/autoSplitHashRange';
import { ConsistentHashing3Selector } from '../../src/engine/pulsar/keyShared/consistentHashing3';
import type { Consumer, HashRange, StickyKeyConsumerSelector } from '../../src/engine/pulsar/keyShared/selector';
import { KeySharedSubscription, type SelectorConfig } from '../../src/engine/pulsar/keyShared/subscription';
import { ringPoints } from './helpers';

export type StatsFormat = '3.0' | '4.0' | '4.0-classic';

/** Replays `+NAME`, `+NAME:S-E,...` and `-ID` events on a fresh subscription; every event must succeed. */
export function replay(cfg: SelectorConfig, history: readonly string[]): KeySharedSubscription {
  const sub = new KeySharedSubscription(cfg);
  for (const text of history) {
    const e = parseEvent(text);
    const r = e.kind === 'connect' ? sub.connect(e.name, e.ranges) : e.kind === 'disconnect' ? sub.disconnect(e.id) : undefined;
    if (!r?.ok) throw new Error(`history event ${text}: ${r ? r.error : 'not a consumer event'}`);
  }
  return sub;
}

/** Each live consumer's ranges as the broker's stats list them. */
export function reportedRanges(selector: StickyKeyConsumerSelector, consumers: readonly Consumer[]): Map<Consumer, HashRange[]> {
  const out = new Map<Consumer, HashRange[]>(consumers.map((c) => [c, []]));
  const add = (c: Consumer, r: HashRange) => out.get(c)!.push(r);
  if (selector instanceof AutoSplitHashRangeSelector) {
    let prev = -1;
    for (const [upper, c] of selector.entries()) {
      add(c, [prev + 1, upper]);
      prev = upper;
    }
    return out;
  }
  if (selector instanceof ConsistentHashing3Selector) {
    let start = 0;
    for (const [point, list] of ringPoints(selector)) {
      for (const c of list) add(c, [start, point]);
      start = point + 1;
    }
    return out;
  }
  if (selector.algorithm === 'sticky') {
    for (const c of consumers) out.set(c, [...(c.ranges ?? [])].sort((a, b) => a[0] - b[0]).map((r) => [r[0], r[1]] as HashRange));
    if (selector.brokerVersion === '4.0') for (const [c, rs] of out) out.set(c, mergeAdjacent(rs));
    return out;
  }
  // 4.x ring: the snapshot (one consumer per segment), merged per consumer.
  for (const s of selector.snapshot()) add(s.consumers[0], [s.start, s.end]);
  for (const [c, rs] of out) out.set(c, mergeAdjacent(rs));
  return out;
}

function mergeAdjacent(ranges: HashRange[]): HashRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && last[1] >= s - 1) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

export interface ConsumerReport {
  name: string;
  ranges: HashRange[];
  connectedSince: string;
  draining?: Array<{ hash: number; unackMsgs: number; blockedAttempts: number }>;
}

/** `ConsumerStatsImpl` as a broker of `format` writes it. */
export function consumerStats(format: StatsFormat, c: ConsumerReport, i: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    msgRateOut: 12.4 + i,
    msgThroughputOut: 1240.5 + 10 * i,
    bytesOutCounter: 1560 * (i + 1),
    msgOutCounter: 30 * (i + 1),
    msgRateRedeliver: 0.0,
    messageAckRate: 12.1 + i,
    chunkedMessageRate: 0.0,
    consumerName: c.name,
    availablePermits: 1000 - 30 * i,
    unackedMessages: c.draining?.reduce((n, d) => n + d.unackMsgs, 0) ?? 0,
    avgMessagesPerEntry: 1,
    blockedConsumerOnUnackedMsgs: false,
  };
  if (format === '3.0') out.readPositionWhenJoining = `${100 + i}:${7 * i}`;
  if (format !== '3.0') {
    const d = c.draining ?? [];
    out.drainingHashesCount = d.length;
    out.drainingHashesClearedTotal = 3 * i;
    out.drainingHashesUnackedMessages = d.reduce((n, x) => n + x.unackMsgs, 0);
    out.drainingHashes = d.map((x) => ({ hash: x.hash, unackMsgs: x.unackMsgs, blockedAttempts: x.blockedAttempts }));
  }
  out.address = `/10.0.${i >> 8}.${(i & 0xff) + 1}:${50000 + i}`;
  out.connectedSince = c.connectedSince;
  out.clientVersion = format === '3.0' ? 'Pulsar-Java-v3.0.7' : 'Pulsar-Java-v4.0.3';
  out.lastAckedTimestamp = 1733047190000 + i;
  out.lastConsumedTimestamp = 1733047191000 + i;
  out.lastConsumedFlowTimestamp = 1733047189000 + i;
  if (format === '4.0') out.keyHashRangeArrays = c.ranges.map((r) => [r[0], r[1]]);
  else out.keyHashRanges = c.ranges.map((r) => `[${r[0]}, ${r[1]}]`);
  out.metadata = {};
  out.lastAckedTime = '2024-12-01T10:39:50.000Z';
  out.lastConsumedTime = '2024-12-01T10:39:51.000Z';
  return out;
}

/** `SubscriptionStatsImpl` of a Key_Shared subscription. */
export function subscriptionStats(format: StatsFormat, mode: 'AUTO_SPLIT' | 'STICKY', consumers: Array<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    msgRateOut: 40.2,
    msgThroughputOut: 4021.0,
    bytesOutCounter: 98000,
    msgOutCounter: 1900,
    msgRateRedeliver: 0.0,
    messageAckRate: 39.8,
    chunkedMessageRate: 0,
    msgBacklog: 12,
    backlogSize: -1,
    earliestMsgPublishTimeInBacklog: 0,
    msgBacklogNoDelayed: 12,
    blockedSubscriptionOnUnackedMsgs: false,
    msgDelayed: 0,
    unackedMessages: consumers.reduce((n, c) => n + (c.unackedMessages as number), 0),
    type: 'Key_Shared',
    msgRateExpired: 0.0,
    totalMsgExpired: 0,
    lastExpireTimestamp: 0,
    lastConsumedFlowTimestamp: 1733047189000,
    lastConsumedTimestamp: 1733047191000,
    lastAckedTimestamp: 1733047190000,
    lastMarkDeleteAdvancedTimestamp: 1733047190000,
    consumers,
    isDurable: true,
    isReplicated: false,
    allowOutOfOrderDelivery: false,
    keySharedMode: mode,
    consumersAfterMarkDeletePosition: {},
  };
  if (format !== '3.0') {
    out.drainingHashesCount = consumers.reduce((n, c) => n + (c.drainingHashesCount as number), 0);
    out.drainingHashesClearedTotal = 0;
    out.drainingHashesUnackedMessages = consumers.reduce((n, c) => n + (c.drainingHashesUnackedMessages as number), 0);
  }
  Object.assign(out, {
    nonContiguousDeletedMessagesRanges: 0,
    nonContiguousDeletedMessagesRangesSerializedSize: 0,
    delayedMessageIndexSizeInBytes: 0,
    subscriptionProperties: {},
    filterProcessedMsgCount: 0,
    filterAcceptedMsgCount: 0,
    filterRejectedMsgCount: 0,
    filterRescheduledMsgCount: 0,
    durable: true,
    replicated: false,
  });
  return out;
}

/** `TopicStatsImpl` with the given subscriptions. */
export function topicStats(subscriptions: Record<string, unknown>): Record<string, unknown> {
  return {
    msgRateIn: 40.5,
    msgThroughputIn: 4051.2,
    msgRateOut: 40.2,
    msgThroughputOut: 4021.0,
    bytesInCounter: 99000,
    msgInCounter: 1912,
    bytesOutCounter: 98000,
    msgOutCounter: 1900,
    averageMsgSize: 100.0,
    msgChunkPublished: false,
    storageSize: 99000,
    backlogSize: 1200,
    publishRateLimitedTimes: 0,
    earliestMsgPublishTimeInBacklogs: 0,
    offloadedStorageSize: 0,
    lastOffloadLedgerId: 0,
    lastOffloadSuccessTimeStamp: 0,
    lastOffloadFailureTimeStamp: 0,
    publishers: [],
    waitingPublishers: 0,
    subscriptions,
    replication: {},
    deduplicationStatus: 'Disabled',
    nonContiguousDeletedMessagesRanges: 0,
    nonContiguousDeletedMessagesRangesSerializedSize: 0,
  };
}

/** A broker's stats for the subscription `sub` of the live consumers of `subscription`. */
export function statsOf(
  format: StatsFormat,
  subscription: KeySharedSubscription,
  opts: { sub?: string; mode?: 'AUTO_SPLIT' | 'STICKY'; partition?: number; draining?: Map<string, ConsumerReport['draining']>; listOrder?: number[]; others?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const selector = subscription.selectorAt(opts.partition ?? 0);
  const ranges = reportedRanges(selector, subscription.consumers);
  const reports = subscription.consumers.map((c, i) => ({
    name: c.name,
    ranges: ranges.get(c)!,
    // One connection a second, with microseconds and an offset, as 4.x writes them.
    connectedSince: `2024-12-01T12:${String(10 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String(123456 + i).padStart(6, '0')}+02:00`,
    draining: opts.draining?.get(c.id),
  }));
  // The dispatcher's list can differ from connection order (priority levels): listOrder permutes it.
  const order = opts.listOrder ?? reports.map((_, i) => i);
  const consumers = order.map((i) => consumerStats(format, reports[i], i));
  const mode = opts.mode ?? (selector.algorithm === 'sticky' ? 'STICKY' : 'AUTO_SPLIT');
  return topicStats({ ...(opts.others ?? {}), [opts.sub ?? 'sub']: subscriptionStats(format, mode, consumers) });
}
