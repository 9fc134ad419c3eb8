/**
 * `key-routing import pulsar-stats`: the JSON of `pulsar-admin topics stats` (REST `.../stats`,
 * a `TopicStatsImpl`) or of `partitioned-stats --per-partition` (a `PartitionedTopicStatsImpl`:
 * `metadata.partitions` and `partitions` keyed by `<topic>-partition-<i>`) into a settings entry
 * with the subscription's `observed` (or `observedPartitions`) block.
 *
 * What the stats say, field by field (`ConsumerStatsImpl`, `SubscriptionStatsImpl`):
 * - `consumers[]` in the dispatcher's order; `connectedSince` gives the connection order;
 * - 4.x (PIP-379) fills `keyHashRangeArrays` (`[[start, end], ...]`, each consumer's ranges
 *   merged) and `drainingHashes`; a 4.x broker in classic mode
 *   (`subscriptionKeySharedUseClassicPersistentImplementation`) and 2.x/3.x brokers fill
 *   `keyHashRanges` (`Range.toString()`: `"[0, 16383]"`). A 4.x broker is told apart by the
 *   draining fields every 4.x consumer entry carries;
 * - `keySharedMode` (AUTO_SPLIT or STICKY) on the subscription. Whether AUTO_SPLIT uses
 *   consistent hashing (a broker setting) is read off the ranges: the hash-range selector's
 *   ranges tile 0..65536, a 4.x ring's 1..65535, a 3.x ring's run over 31-bit points.
 * Settings the stats cannot show (the producers' hashing scheme, replicaPoints) are kept from the
 * settings the import adds to, or left at their defaults, and the notes say so.
 */
import { parseSettings, TOPICS } from '../engine/settings';
import { Topology, PulsarTopicState } from '../engine/topology';
import { parseTopicName, TopicNameError } from '../engine/pulsar/topicName';
import type { BrokerVersion, HashRange } from '../engine/pulsar/keyShared/selector';
import { layoutProblems } from '../engine/observed/validate';
import type { DrainingHash, ObservedConsumer, SelectorShape } from '../engine/observed/types';
import { connectionOrder } from './connectedSince';
import { fail, ImportError } from './errors';
import { parseJsonReport } from './jsonReport';
import { existingEntry, type Imported, type ImportOptions } from './options';
import { isObject } from '../engine/jsonObject';

const WHAT = 'pulsar-admin topics stats (or partitioned-stats --per-partition)';

/** One topic's stats (a partition's, or the non-partitioned topic's), with where it sits in the file. */
interface TopicStats {
  stats: Record<string, unknown>;
  /** Prefix of paths into the file: `` or `partitions["t-partition-2"].`. */
  at: string;
}

type RangeFormat = 'keyHashRangeArrays' | 'keyHashRanges';

interface ReportedConsumer extends ObservedConsumer {
  /** Index in the stats' list, and its path in the file. */
  listed: number;
  path: string;
  format?: RangeFormat;
  /** Carries fields only 4.x brokers write (`drainingHashesCount`, `drainingHashes`). */
  fourX: boolean;
}

export function importPulsarStats(text: string, opts: ImportOptions): Imported {
  const src = opts.source;
  const root = parseJsonReport(text, src, WHAT);
  const notes: string[] = [];
  const { name, parts, partitions } = topicParts(root, opts);
  const subName = pickSubscription(parts[0], src, opts.subscription);
  const perPart = parts.map((p) => {
    const subs = p.stats.subscriptions as Record<string, unknown>;
    const sub = subs[subName];
    if (!isObject(sub)) fail(src, `${p.at}subscriptions has no ${JSON.stringify(subName)}: every partition of the topic should report the subscription`);
    return { part: p, sub, consumers: readConsumers(sub, `${p.at}subscriptions[${JSON.stringify(subName)}]`, src) };
  });

  const all = perPart.flatMap((p) => p.consumers);
  const brokerVersion = generation(perPart.map((p) => ({ sub: p.sub, consumers: p.consumers })), src, opts, name, notes);
  const base = existingEntry(opts.base, TOPICS, name);
  if (base && base.system !== 'pulsar') fail(src, `holds Pulsar stats, but the settings have ${name} as a ${JSON.stringify(base.system)} topic; give the full Pulsar name with --topic`);
  const baseSub = isObject(base?.subscription) ? base.subscription : undefined;
  const mode = keySharedMode(perPart.map((p) => p.sub), baseSub, all, src, notes);
  const consistentHashing = mode === 'STICKY' ? undefined : ringOrRanges(all, brokerVersion, baseSub, src, notes);
  const hashRangeSize = typeof baseSub?.hashRangeSize === 'number' ? baseSub.hashRangeSize : 65536;
  const shape: SelectorShape = {
    algorithm: mode === 'STICKY' ? 'sticky' : consistentHashing ? 'consistentHashing' : 'autoSplit',
    brokerVersion,
    hashRangeSize,
  };
  if (shape.algorithm === 'consistentHashing' && all.some((c) => c.ranges.some((r) => r[1] > (brokerVersion === '4.0' ? 65535 : 0x7fffffff)))) {
    fail(src, 'holds a consistent-hashing ring with hashes above 65535 from a 4.x broker in classic mode (subscriptionKeySharedUseClassicPersistentImplementation=true), whose ring this version does not model');
  }

  // Each partition's consumers in connection order, checked against what the broker can report.
  const observed = perPart.map((p, i) => {
    const { order, unreadable } = connectionOrder(p.consumers, (c) => c.connectedSince);
    if (unreadable !== undefined) {
      notes.push(`${p.consumers[unreadable].path}.connectedSince is missing or not a time: the consumers keep the order the stats list them in (connection order for consumers of one priority level)`);
    }
    const sorted = order.map((j) => p.consumers[j]);
    for (const lp of layoutProblems(shape, sorted, (j) => `${sorted[j].path} (${JSON.stringify(sorted[j].name)})`)) {
      const c = sorted[lp.consumer];
      const field = lp.field === 'drainingHashes' ? 'drainingHashes' : (c.format ?? 'keyHashRanges');
      const where = lp.field ? `.${field}${lp.index !== undefined ? `[${lp.index}]` : ''}` : '';
      fail(src, `${c.path} (${JSON.stringify(c.name)})${where}: ${lp.message}`);
    }
    return { partition: i, consumers: sorted };
  });

  const block = (consumers: ReportedConsumer[]) => {
    const out: Record<string, unknown> = {};
    if (opts.at !== undefined) out.at = opts.at;
    out.consumers = consumers.map((c) => {
      const entry: Record<string, unknown> = { name: c.name, ranges: c.ranges.map((r) => [r[0], r[1]]) };
      if (c.drainingHashes.length > 0) entry.drainingHashes = c.drainingHashes.map((d) => ({ ...d }));
      return entry;
    });
    return out;
  };
  const alike = observed.every((o) => sameState(o.consumers, observed[0].consumers));
  const subscriptionConsumers = alike ? observed[0].consumers : unionInOrder(observed.map((o) => o.consumers));

  const subscription: Record<string, unknown> = { name: subName, type: 'Key_Shared', keySharedMode: mode };
  if (consistentHashing !== undefined) subscription.consistentHashing = consistentHashing;
  if (consistentHashing) {
    if (typeof baseSub?.replicaPoints === 'number') {
      subscription.replicaPoints = baseSub.replicaPoints;
      notes.push(`replicaPoints ${baseSub.replicaPoints} kept from the settings (the stats do not show the broker's subscriptionKeySharedConsistentHashingReplicaPoints)`);
    } else {
      notes.push("replicaPoints is left at 100, the broker's default (the stats do not show subscriptionKeySharedConsistentHashingReplicaPoints); set it if the broker's differs");
    }
  }
  if (hashRangeSize !== 65536) subscription.hashRangeSize = hashRangeSize;
  subscription.consumers = subscriptionConsumers.map((c) => (mode === 'STICKY' ? { name: c.name, ranges: c.ranges.map((r) => [r[0], r[1]]) } : { name: c.name }));
  if (alike) subscription.observed = block(observed[0].consumers);
  else subscription.observedPartitions = observed.map((o) => block(o.consumers));

  const topic: Record<string, unknown> = { name, system: 'pulsar' };
  if (partitions > 0) topic.partitions = partitions;
  if (typeof base?.hashingScheme === 'string') {
    topic.hashingScheme = base.hashingScheme;
    notes.push(`hashingScheme ${base.hashingScheme} kept from the settings (the producers' choice is not in the stats)`);
  }
  if (base?.producers !== undefined) topic.producers = base.producers;
  topic.brokerVersion = brokerVersion;
  topic.subscription = subscription;
  return { topics: [topic], groups: [], notes: [...notes, ...engineNotes(topic, src)] };
}

/** The topic's name and its stats: the partitions of per-partition stats, or the one topic. */
function topicParts(root: Record<string, unknown>, opts: ImportOptions): { name: string; parts: TopicStats[]; partitions: number } {
  const src = opts.source;
  if (isObject(root.metadata) || isObject(root.partitions)) {
    const meta = isObject(root.metadata) ? root.metadata : {};
    const n = meta.partitions;
    if (!Number.isInteger(n) || (n as number) < 1) fail(src, `metadata.partitions is ${JSON.stringify(n)}: partitioned stats of a topic with partitions should give their count`);
    const map = isObject(root.partitions) ? root.partitions : {};
    const keys = Object.keys(map);
    if (keys.length === 0) {
      fail(src, `holds partitioned-stats without --per-partition: the partitions' consumers are merged into one list, which loses their names and ranges; run "pulsar-admin topics partitioned-stats --per-partition" (REST: partitioned-stats?perPartition=true)`);
    }
    const byIndex = new Map<number, { key: string; stats: Record<string, unknown> }>();
    let baseName: string | undefined;
    for (const key of keys) {
      const m = /^(.*)-partition-(\d+)$/.exec(key);
      if (!m) fail(src, `partitions has the entry ${JSON.stringify(key)}, which is not a partition name (<topic>-partition-<n>)`);
      if (baseName !== undefined && m[1] !== baseName) fail(src, `partitions mixes topics ${JSON.stringify(baseName)} and ${JSON.stringify(m[1])}`);
      baseName = m[1];
      const stats = map[key];
      if (!isObject(stats) || !isObject(stats.subscriptions)) fail(src, `partitions[${JSON.stringify(key)}] is not a topic's stats (no "subscriptions")`);
      byIndex.set(Number(m[2]), { key, stats });
    }
    const missing: number[] = [];
    // The first six are named: all of a count of 2,147,483,647 ran out of memory.
    for (let i = 0; i < (n as number) && missing.length < 6; i++) if (!byIndex.has(i)) missing.push(i);
    if (missing.length > 0) fail(src, `metadata.partitions is ${n} but partitions has no stats for partition ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}`);
    const extra = [...byIndex.keys()].filter((i) => i >= (n as number));
    if (extra.length > 0) fail(src, `partitions has stats for partition ${extra[0]}, but metadata.partitions is ${n}`);
    const name = topicName(baseName!, opts);
    const parts = [...Array(n as number).keys()].map((i) => ({ stats: byIndex.get(i)!.stats, at: `partitions[${JSON.stringify(byIndex.get(i)!.key)}].` }));
    return { name, parts, partitions: n as number };
  }
  if (!isObject(root.subscriptions)) {
    const keys = Object.keys(root).slice(0, 6).join(', ');
    fail(src, `is not the JSON of ${WHAT}: it has no "subscriptions" (it has ${keys || 'no fields'})`);
  }
  if (opts.topic === undefined) throw new ImportError('--topic is required: the stats of one topic do not carry its name');
  return { name: opts.topic, parts: [{ stats: root, at: '' }], partitions: 0 };
}

/** The settings name: --topic where given (checked against the partitions' names), else theirs. */
function topicName(fromPartitions: string, opts: ImportOptions): string {
  if (opts.topic === undefined) return fromPartitions;
  let given: string;
  let found: string;
  try {
    given = parseTopicName(opts.topic).fullName;
    found = parseTopicName(fromPartitions).fullName;
  } catch (e) {
    if (e instanceof TopicNameError) throw new ImportError(`--topic: ${e.message}`);
    throw e;
  }
  if (given !== found) fail(opts.source, `holds the partitions of ${fromPartitions}, not of --topic ${opts.topic}`);
  return opts.topic;
}

function pickSubscription(part: TopicStats, src: string, wanted: string | undefined): string {
  const subs = part.stats.subscriptions as Record<string, unknown>;
  const typeOf = (s: unknown) => (isObject(s) && typeof s.type === 'string' ? s.type : 'unknown type');
  const listing = Object.keys(subs).map((k) => `${k} (${typeOf(subs[k])})`).join(', ') || 'none';
  if (wanted !== undefined) {
    if (!(wanted in subs)) fail(src, `has no subscription ${JSON.stringify(wanted)} (subscriptions: ${listing})`);
    if (typeOf(subs[wanted]) !== 'Key_Shared') fail(src, `subscription ${JSON.stringify(wanted)} is ${typeOf(subs[wanted])}, not Key_Shared`);
    return wanted;
  }
  const keyShared = Object.keys(subs).filter((k) => typeOf(subs[k]) === 'Key_Shared');
  if (keyShared.length === 0) fail(src, `has no Key_Shared subscription (subscriptions: ${listing})`);
  if (keyShared.length > 1) fail(src, `has ${keyShared.length} Key_Shared subscriptions (${keyShared.join(', ')}): pick one with --subscription`);
  return keyShared[0];
}

function readConsumers(sub: Record<string, unknown>, at: string, src: string): Array<ReportedConsumer & { connectedSince?: unknown }> {
  if (!Array.isArray(sub.consumers)) fail(src, `${at}.consumers is not a list of consumers`);
  return sub.consumers.map((c: unknown, i: number) => {
    const path = `${at}.consumers[${i}]`;
    if (!isObject(c)) fail(src, `${path} is not a consumer's stats`);
    if (typeof c.consumerName !== 'string') {
      fail(src, `${path} has no consumerName (partitioned-stats without --per-partition merge consumers and drop their names; use --per-partition)`);
    }
    let ranges: HashRange[] = [];
    let format: RangeFormat | undefined;
    if (c.keyHashRangeArrays !== undefined && c.keyHashRangeArrays !== null) {
      format = 'keyHashRangeArrays';
      if (!Array.isArray(c.keyHashRangeArrays)) fail(src, `${path}.keyHashRangeArrays is not a list of [start, end]`);
      ranges = c.keyHashRangeArrays.map((r: unknown, j: number) => {
        if (!Array.isArray(r) || r.length !== 2 || !r.every((x) => Number.isInteger(x))) fail(src, `${path}.keyHashRangeArrays[${j}] is ${JSON.stringify(r)}, not [start, end]`);
        return [r[0], r[1]] as HashRange;
      });
    } else if (c.keyHashRanges !== undefined && c.keyHashRanges !== null) {
      format = 'keyHashRanges';
      if (!Array.isArray(c.keyHashRanges)) fail(src, `${path}.keyHashRanges is not a list of "[start, end]" strings`);
      ranges = c.keyHashRanges.map((r: unknown, j: number) => {
        const m = typeof r === 'string' ? /^\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*$/.exec(r) : null;
        if (!m) fail(src, `${path}.keyHashRanges[${j}] is ${JSON.stringify(r)}, not a range "[start, end]" as the broker writes it`);
        return [Number(m[1]), Number(m[2])] as HashRange;
      });
    }
    const drainingHashes: DrainingHash[] = [];
    if (Array.isArray(c.drainingHashes)) {
      c.drainingHashes.forEach((d: unknown, j: number) => {
        const dp = `${path}.drainingHashes[${j}]`;
        if (!isObject(d) || !Number.isInteger(d.hash) || !Number.isInteger(d.unackMsgs)) fail(src, `${dp} is not {"hash", "unackMsgs", "blockedAttempts"}`);
        drainingHashes.push({ hash: d.hash as number, unackMsgs: d.unackMsgs as number, blockedAttempts: Number.isInteger(d.blockedAttempts) ? (d.blockedAttempts as number) : 0 });
      });
    }
    const fourX = 'drainingHashesCount' in c || 'drainingHashes' in c || format === 'keyHashRangeArrays';
    return { name: c.consumerName, ranges, drainingHashes, listed: i, path, format, fourX, connectedSince: c.connectedSince };
  });
}

/** 4.0 or 3.0, from the fields the broker wrote; the same for every partition. */
function generation(parts: Array<{ sub: Record<string, unknown>; consumers: ReportedConsumer[] }>, src: string, opts: ImportOptions, name: string, notes: string[]): BrokerVersion {
  const consumers = parts.flatMap((p) => p.consumers);
  const formats = new Set(consumers.map((c) => c.format).filter((f) => f !== undefined));
  if (formats.size > 1) {
    const a = consumers.find((c) => c.format === 'keyHashRangeArrays')!;
    const b = consumers.find((c) => c.format === 'keyHashRanges')!;
    fail(src, `mixes 4.x keyHashRangeArrays (${a.path}) and keyHashRanges strings (${b.path}); one broker writes one of them`);
  }
  const fourX = consumers.some((c) => c.fourX) || parts.some((p) => 'drainingHashesCount' in p.sub);
  if (fourX) {
    if (formats.has('keyHashRanges')) notes.push('a 4.x broker in classic mode (subscriptionKeySharedUseClassicPersistentImplementation=true) wrote these stats: its selectors follow the 4.x rules (brokerVersion "4.0"), its dispatcher the pre-4.0 ordering');
    return '4.0';
  }
  if (formats.has('keyHashRanges')) return '3.0';
  const base = existingEntry(opts.base, TOPICS, name);
  const kept = base?.brokerVersion === '3.0' || base?.brokerVersion === '4.0' ? (base.brokerVersion as BrokerVersion) : '4.0';
  notes.push(`no consumer lists hash ranges, so the broker generation cannot be told: brokerVersion ${kept}${base?.brokerVersion ? ' kept from the settings' : ' (the default)'}`);
  return kept;
}

function keySharedMode(subs: Array<Record<string, unknown>>, baseSub: Record<string, unknown> | undefined, all: ReportedConsumer[], src: string, notes: string[]): 'AUTO_SPLIT' | 'STICKY' {
  const modes = new Set(subs.map((s) => s.keySharedMode).filter((m) => m !== undefined && m !== null));
  for (const m of modes) if (m !== 'AUTO_SPLIT' && m !== 'STICKY') fail(src, `keySharedMode is ${JSON.stringify(m)}, not AUTO_SPLIT or STICKY`);
  if (modes.size > 1) fail(src, 'the partitions report different keySharedMode values');
  if (modes.size === 1) return [...modes][0] as 'AUTO_SPLIT' | 'STICKY';
  if (baseSub?.keySharedMode === 'AUTO_SPLIT' || baseSub?.keySharedMode === 'STICKY') {
    notes.push(`the stats do not give keySharedMode (brokers before 2.8): ${baseSub.keySharedMode} kept from the settings`);
    return baseSub.keySharedMode;
  }
  // Before 2.8 the stats have no mode: an AUTO_SPLIT layout covers the whole space, STICKY's need not.
  const mode = all.length > 0 && looksAutoSplit(all) ? 'AUTO_SPLIT' : all.length > 0 && !looksRing(all) ? 'STICKY' : 'AUTO_SPLIT';
  notes.push(`the stats do not give keySharedMode (brokers before 2.8): ${mode} read off the ranges`);
  return mode;
}

/** Hash ranges tiling 0..65536 one per consumer (AUTO_SPLIT without consistent hashing). */
function looksAutoSplit(all: ReportedConsumer[]): boolean {
  return all.every((c) => c.ranges.length === 1) && Math.max(...all.map((c) => c.ranges[0][1])) === 65536 && Math.min(...all.map((c) => c.ranges[0][0])) === 0;
}

function looksRing(all: ReportedConsumer[]): boolean {
  // some(), not Math.max(...ends): a ring's 130,000 range ends overflowed the stack as arguments.
  return all.some((c) => c.ranges.length > 1 || c.ranges.some((r) => r[1] > 65536));
}

/** Whether an AUTO_SPLIT subscription's broker uses consistent hashing, read off the ranges. */
function ringOrRanges(all: ReportedConsumer[], version: BrokerVersion, baseSub: Record<string, unknown> | undefined, src: string, notes: string[]): boolean {
  const ranges = all.flatMap((c) => c.ranges);
  if (ranges.length === 0) {
    const kept = typeof baseSub?.consistentHashing === 'boolean' ? baseSub.consistentHashing : true;
    notes.push(`no consumer lists hash ranges, so whether the broker uses consistent hashing cannot be told: consistentHashing ${kept}${typeof baseSub?.consistentHashing === 'boolean' ? ' kept from the settings' : ' (the broker default)'}`);
    return kept;
  }
  let ring: boolean;
  if (version === '4.0') ring = !ranges.some((r) => r[0] === 0 || r[1] === 65536);
  else ring = !(all.every((c) => c.ranges.length <= 1) && ranges.every((r) => r[1] <= 65536));
  if (typeof baseSub?.consistentHashing === 'boolean' && baseSub.consistentHashing !== ring) {
    notes.push(`the ranges are those of ${ring ? 'a consistent-hashing ring' : 'AUTO_SPLIT hash ranges'}: consistentHashing ${ring} replaces ${baseSub.consistentHashing} from the settings`);
  }
  void src;
  return ring;
}

function sameState(a: ReportedConsumer[], b: ReportedConsumer[]): boolean {
  const key = (cs: ReportedConsumer[]) => JSON.stringify(cs.map((c) => [c.name, c.ranges, c.drainingHashes]));
  return key(a) === key(b);
}

/** Every consumer any partition names (as often as the most any partition names it), first seen first. */
function unionInOrder(lists: ReportedConsumer[][]): ReportedConsumer[] {
  const out: ReportedConsumer[] = [];
  const have = new Map<string, number>();
  for (const list of lists) {
    const here = new Map<string, number>();
    for (const c of list) {
      const k = (here.get(c.name) ?? 0) + 1;
      here.set(c.name, k);
      if (k > (have.get(c.name) ?? 0)) {
        have.set(c.name, k);
        out.push(c);
      }
    }
  }
  return out;
}

/** The engine's reading of the imported entry: its settings check, and the rebuilt-ring note. */
function engineNotes(topic: Record<string, unknown>, src: string): string[] {
  const { settings, problems } = parseSettings({ [TOPICS]: [topic] });
  if (problems.length > 0) fail(src, `gives settings the engine refuses: ${problems[0].path.replace(`${TOPICS}[0].`, '')}: ${problems[0].message}`);
  const state = new Topology(settings, []).topics[0];
  const note = state instanceof PulsarTopicState ? state.observed?.note() : undefined;
  return note ? [note] : [];
}

/**
 * What to ask before importing stats (for the extension's pickers): whether they are a
 * partitioned topic's (which names itself) and the Key_Shared subscriptions of the first
 * partition. Undefined where the text is not stats at all (the import then says why).
 */
export function describePulsarStats(text: string): { partitioned: boolean; keyShared: string[] } | undefined {
  let root: unknown;
  try {
    root = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (!isObject(root)) return undefined;
  const partitions = isObject(root.partitions) ? Object.values(root.partitions) : [];
  const first = partitions.length > 0 ? partitions[0] : root;
  const subs = isObject(first) && isObject(first.subscriptions) ? first.subscriptions : undefined;
  if (!subs) return undefined;
  const keyShared = Object.keys(subs).filter((k) => isObject(subs[k]) && subs[k].type === 'Key_Shared');
  return { partitioned: partitions.length > 0, keyShared };
}
