/**
 * The Node half of the panel bench (bundled on the fly by panel.mjs): the production-scale
 * topologies of issue 14, the host's `state` message for each exactly as the extension builds it
 * (`buildFrames` over the host's topology), encoded for the trip into the page (typed arrays as
 * base64, decoded there before the clock starts), and the engine-side figures in Node.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseSettings, type Settings } from '../../src/engine/settings';
import { Topology, type TopicState } from '../../src/engine/topology';
import { parseEvent } from '../../src/engine/events';
import { panelReports } from '../../src/shared/view/observedPanel';
import { packSettings } from '../../src/shared/packedSettings';
import { buildFrames } from '../../src/shared/view/frame';
import { toShownKey } from '../../src/shared/view/shownKeys';
import { buildTopicView, type ShownKey } from '../../src/shared/view/topicView';
import { buildWhatIf } from '../../src/shared/view/whatIfView';
import { orderingNote } from '../../src/shared/view/orderingNote';
import type { KeyInput } from '../../src/shared/protocol';

export interface ScaleCase {
  id: string;
  label: string;
  settings: unknown;
  topic: string;
  /** The view the panel opens on (unset: the one the panel opens a topic on). */
  view?: 'ring' | 'ranges' | 'partitions';
  /** Whether the what-if editor can add a consumer (Pulsar subscriptions). */
  consumers: boolean;
  /** Whether the what-if adds a member to the topic's consumer group (Kafka). */
  group?: boolean;
  /** On a STICKY subscription, the ranges of the consumers the what-if adds, in order (`freeRanges`). */
  stickyRanges?: string[];
}

/** A Key_Shared subscription; consumer `i` is named `consumerName(i)` (a string: all share it). */
function pulsar(name: string, consumers: number, brokerVersion: '3.0' | '4.0', consistentHashing: boolean, points = 100, consumerName?: string | ((i: number) => string)): unknown {
  return {
    name,
    system: 'pulsar',
    partitions: 0,
    brokerVersion,
    subscription: {
      name: 'sub',
      type: 'Key_Shared',
      keySharedMode: 'AUTO_SPLIT',
      consistentHashing,
      replicaPoints: points,
      consumers: Array.from({ length: consumers }, (_, i) => ({ name: typeof consumerName === 'function' ? consumerName(i) : (consumerName ?? `consumer-${i}`) })),
    },
  };
}

/**
 * A 4.0 STICKY subscription of `consumers` consumers with a range each, in order over the 65,536
 * slots, the last slot of each range's share left to nobody (the gaps the what-if's consumers take).
 */
function sticky(name: string, consumers: number): { subscription: { keySharedMode: string; consumers: Array<{ name: string; ranges: Array<[number, number]> }> } } {
  const t = pulsar(name, consumers, '4.0', false) as { subscription: { keySharedMode: string; consumers: Array<{ name: string }> } };
  const width = Math.floor(65_536 / consumers);
  const list = t.subscription.consumers.map((c, i) => ({ ...c, ranges: [[i * width, i * width + width - 2] as [number, number]] }));
  return { ...t, subscription: { ...t.subscription, keySharedMode: 'STICKY', consumers: list } };
}

/**
 * A 4.0 STICKY subscription of `consumers` consumers with `ranges` two-slot ranges each, the
 * consumers' ranges interleaved (range k is consumer k mod `consumers`'s) from slot 0 up; the
 * slots above them are left to nobody (the gaps the what-if's consumers take).
 */
function stickyInterleaved(name: string, consumers: number, ranges: number): unknown {
  const t = sticky(name, consumers);
  const list = t.subscription.consumers.map((c, i) => ({ ...c, ranges: Array.from({ length: ranges }, (_, r): [number, number] => [2 * (r * consumers + i), 2 * (r * consumers + i) + 1]) }));
  return { ...t, subscription: { ...t.subscription, consumers: list } };
}

/**
 * A 4.0 ring of `consumers` x 100 points on `partitions` partitions as `import pulsar-stats` writes
 * it: each partition's report holds the ranges the ring gives when the consumers connected in an
 * order of its own (rotated by 10 a partition) and two draining hashes per consumer (the starts of
 * two of its ranges, which differ from partition to partition).
 */
function reportedRing(name: string, consumers: number, partitions: number, version: '3.0' | '4.0' = '4.0'): unknown {
  const t = { ...(pulsar(name, consumers, version, true) as { subscription: { consumers: Array<{ name: string }> } }), partitions };
  const names = t.subscription.consumers.map((c) => c.name);
  const observedPartitions = Array.from({ length: partitions }, (_, p) => {
    const order = [...names.slice(p * 10), ...names.slice(0, p * 10)];
    const settings = parsedSettings({ 'keyRouting.topics': [{ ...t, subscription: { ...t.subscription, consumers: order.map((n) => ({ name: n })) } }] });
    const ranges = new Map<string, Array<[number, number]>>(names.map((n) => [n, []]));
    for (const s of (new Topology(settings, []).topic(name) as TopicState & { subscription: { selector: { segments(): Array<{ start: number; end: number; consumers: Array<{ id: string }> }> } } }).subscription.selector.segments()) {
      ranges.get(s.consumers[0].id)!.push([s.start, s.end]);
    }
    return {
      at: '2026-12-04T10:00:00Z',
      consumers: names.map((n) => {
        const r = ranges.get(n)!;
        // Draining hashes are 4.x's (PIP-379); a 3.x broker reports none.
        const draining = [r[p % r.length], r[(p + (r.length >> 1)) % r.length]].map(([start]) => ({ hash: Math.max(1, start), unackMsgs: 3, blockedAttempts: 0 }));
        return { name: n, ranges: r, drainingHashes: r.length > 1 && version === '4.0' ? draining : [] };
      }),
    };
  });
  return { ...t, subscription: { ...t.subscription, observedPartitions } };
}

export function scaleCases(): ScaleCase[] {
  const one = (t: unknown) => ({ 'keyRouting.topics': [t] });
  const members = Array.from({ length: 500 }, (_, i) => ({ id: `member-${i}` }));
  const stickyTopic = sticky('persistent://public/default/sticky', 2000);
  const stickyManyTopic = stickyInterleaved('persistent://public/default/sticky16', 2000, 16) as typeof stickyTopic;
  const cases: ScaleCase[] = [
    { id: 'ring30', label: 'ring 3.0, 1,000 consumers x 100 points', settings: one(pulsar('persistent://public/default/ring30', 1000, '3.0', true)), topic: 'persistent://public/default/ring30', view: 'ring', consumers: true },
    { id: 'ring40', label: 'ring 4.0, 1,000 consumers x 100 points', settings: one(pulsar('persistent://public/default/ring40', 1000, '4.0', true)), topic: 'persistent://public/default/ring40', view: 'ring', consumers: true },
    { id: 'split', label: 'AUTO_SPLIT 4.0, 2,000 consumers', settings: one(pulsar('persistent://public/default/split', 2000, '4.0', false)), topic: 'persistent://public/default/split', view: 'ranges', consumers: true },
    // The issue names no broker generation for AUTO_SPLIT: both are timed.
    { id: 'split30', label: 'AUTO_SPLIT 3.0, 2,000 consumers', settings: one(pulsar('persistent://public/default/split30', 2000, '3.0', false)), topic: 'persistent://public/default/split30', view: 'ranges', consumers: true },
    // Each consumer checked against the earlier ones' ranges as it connects, as the broker does.
    { id: 'sticky', label: 'STICKY 4.0, 2,000 consumers', settings: one(stickyTopic), topic: 'persistent://public/default/sticky', view: 'ranges', consumers: true, stickyRanges: freeRanges(stickyTopic.subscription.consumers, 65_536, 20) },
    // Consumers often declare several ranges: 16 each here, 64,000 map keys (a step clones the map).
    { id: 'stickyMany', label: 'STICKY 4.0, 2,000 consumers x 16 ranges', settings: one(stickyManyTopic), topic: 'persistent://public/default/sticky16', view: 'ranges', consumers: true, stickyRanges: freeRanges(stickyManyTopic.subscription.consumers, 65_536, 20) },
    // A subscription as most have one: few enough points for SVG charts, which a zoom draws again.
    // The instances of one service often connect under one consumer name: on a 3.x ring they then
    // share the name's 100 points (a list of 1,000 consumers at each), and every step changes them all.
    { id: 'ring30OneName', label: 'ring 3.0, 1,000 consumers of one name x 100 points', settings: one(pulsar('persistent://public/default/ring30one', 1000, '3.0', true, 100, 'orders-consumer')), topic: 'persistent://public/default/ring30one', view: 'ring', consumers: true },
    // Two instances per name (a service deployed twice): each of a name's points holds both, 50,000
    // lists of 500 contents, which the panel's views intern once per content.
    { id: 'ring30Pairs', label: 'ring 3.0, 1,000 consumers under 500 names x 100 points', settings: one(pulsar('persistent://public/default/ring30pairs', 1000, '3.0', true, 100, (i) => `orders-${i >> 1}`)), topic: 'persistent://public/default/ring30pairs', view: 'ring', consumers: true },
    // The same 100,000 points as 100 consumers x 1,000 (replicaPoints raised): a step moves a
    // thousand arcs, and a what-if's moved ranges gain a thousand at each step.
    { id: 'ring30Points', label: 'ring 3.0, 100 consumers x 1,000 points', settings: one(pulsar('persistent://public/default/ring30points', 100, '3.0', true, 1000)), topic: 'persistent://public/default/ring30points', view: 'ring', consumers: true },
    { id: 'ring30small', label: 'ring 3.0, 10 consumers x 100 points', settings: one(pulsar('persistent://public/default/ring30small', 10, '3.0', true)), topic: 'persistent://public/default/ring30small', view: 'ring', consumers: true },
    {
      id: 'kafka',
      label: 'Kafka, 10,000 partitions, a 500-member group',
      settings: {
        'keyRouting.topics': [{ name: 'kafka-big', system: 'kafka', partitions: 10_000 }],
        'keyRouting.kafkaGroups': [{ name: 'big', assignor: 'range', topics: ['kafka-big'], members }],
      },
      topic: 'kafka-big',
      view: 'partitions',
      consumers: false,
      group: true,
    },
    {
      // The same 10,000 partitions as 200 topics of 50 (a group subscribed by pattern, say): each
      // topic a frame of its own, and each rebalance every topic's subscribers.
      id: 'kafkaManyTopics',
      label: 'Kafka, 200 topics of 50 partitions, a 500-member group on all of them',
      settings: {
        'keyRouting.topics': Array.from({ length: 200 }, (_, i) => ({ name: `events-${i}`, system: 'kafka', partitions: 50 })),
        'keyRouting.kafkaGroups': [{ name: 'by-pattern', assignor: 'range', topics: Array.from({ length: 200 }, (_, i) => `events-${i}`), members }],
      },
      topic: 'events-0',
      view: 'partitions',
      consumers: false,
      group: true,
    },
    {
      // Members subscribing to different topics take the sticky assignor's general path, where
      // each rebalance weighs every partition against the members that could take it.
      id: 'kafkaMixed',
      label: 'Kafka, 3 topics of 10,000 partitions, 500 sticky members on 1-3 of them',
      settings: {
        'keyRouting.topics': [
          { name: 'orders', system: 'kafka', partitions: 4_000 },
          { name: 'payments', system: 'kafka', partitions: 3_000 },
          { name: 'refunds', system: 'kafka', partitions: 3_000 },
        ],
        'keyRouting.kafkaGroups': [
          {
            name: 'mixed',
            assignor: 'sticky',
            topics: ['orders', 'payments', 'refunds'],
            members: members.map((m, i) => ({ ...m, topics: [['orders', 'payments', 'refunds'], ['orders'], ['payments', 'refunds'], ['orders', 'refunds']][i % 4] })),
          },
        ],
      },
      topic: 'orders',
      view: 'partitions',
      consumers: false,
      group: true,
    },
  ];
  // Started from a live cluster's reports (what `key-routing import` writes), where the panel also
  // draws what the broker said: the group's owners as kafka-consumer-groups printed them for an
  // assignor that deals partitions round (a run of one partition each), and a partitioned ring
  // whose every partition reported its own connection order and draining hashes.
  const dealt = members.map((m) => m.id);
  cases.push(
    {
      id: 'kafkaReported',
      label: 'Kafka, 10,000 partitions, 500 members, owners as reported',
      settings: {
        'keyRouting.topics': [{ name: 'kafka-big', system: 'kafka', partitions: 10_000 }],
        'keyRouting.kafkaGroups': [
          { name: 'big', assignor: 'roundrobin', topics: ['kafka-big'], members, observed: { at: '2026-12-04T10:00:00Z', owners: { 'kafka-big': Array.from({ length: 10_000 }, (_, p) => dealt[(p + 1) % dealt.length]) } } },
        ],
      },
      topic: 'kafka-big',
      view: 'partitions',
      consumers: false,
      group: true,
    },
    { id: 'ringReported', label: 'ring 4.0, 1,000 x 100 points, 4 partitions as reported', settings: one(reportedRing('persistent://public/default/reported', 1000, 4)), topic: 'persistent://public/default/reported', view: 'ranges', consumers: true },
    // The 3.x report's layout is built another way (a point per range, shared points' lists).
    { id: 'ring30Reported', label: 'ring 3.0, 1,000 x 100 points, 4 partitions as reported', settings: one(reportedRing('persistent://public/default/reported30', 1000, 4, '3.0')), topic: 'persistent://public/default/reported30', view: 'ranges', consumers: true },
  );
  // A workspace holding all of it (the host builds every topic's frame for each state message):
  // the four large subscriptions, and the Kafka topic twice under one cooperative-sticky group.
  const topicsOf = (id: string) => (cases.find((c) => c.id === id)!.settings as { 'keyRouting.topics': unknown[] })['keyRouting.topics'];
  const kafka = topicsOf('kafka')[0] as { name: string };
  cases.push({
    id: 'all',
    label: 'every case in one workspace, on the 3.0 ring',
    settings: {
      'keyRouting.topics': [...['ring30', 'ring40', 'split', 'split30'].flatMap(topicsOf), kafka, { ...kafka, name: 'kafka-big2', partitioner: 'librdkafka' }],
      'keyRouting.kafkaGroups': [{ name: 'big', assignor: 'cooperative-sticky', topics: ['kafka-big', 'kafka-big2'], members }],
    },
    topic: 'persistent://public/default/ring30',
    view: 'ring',
    consumers: true,
  });
  return cases;
}

/** The 100 marked keys. */
export function benchKeys(n = 100): KeyInput[] {
  return Array.from({ length: n }, (_, i) => ({ format: 'utf8', value: `order-${i * 7919}` }));
}

export function parsedSettings(raw: unknown): Settings {
  const { settings, problems } = parseSettings(raw);
  if (problems.length) throw new Error(`bench settings: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  return settings;
}

/**
 * The `state` message the host sends (with frames, or without as an older host did) for the keys,
 * width and topic the panel told it (`panelView`), encoded for the page, and how long the host took to
 * build the frames on top of the topology it holds. With `packed` false the settings go as parsed
 * (a baseline webview from before `packSettings` would read packed ones as subscriptions without
 * consumers).
 */
export function stateMessage(raw: unknown, keys: KeyInput[], frames: boolean, width?: number, shown?: string, packed = frames): { json: string; hostFramesMs: number; hostTopologyMs: number } {
  const settings = parsedSettings(raw);
  const t0 = performance.now();
  // The host's topology, with every selector's assignment worked out (its settings lint reads it).
  const topology = new Topology(settings, []);
  for (const t of topology.topics) (t as TopicState & { subscription?: { selector: { segmentTable(): unknown } } }).subscription?.selector.segmentTable();
  const t1 = performance.now();
  const msg: Record<string, unknown> = { type: 'state', settings: packed ? packSettings(settings) : settings, stale: [], problems: [], keys: [] };
  if (frames) {
    msg.frames = buildFrames(topology, keys, width, { shown });
    // And the broker's reports, as the host adds them (src/extension/panel/routingPanel.ts).
    const observed = panelReports(topology);
    if (observed.length) msg.observed = observed;
  }
  const t2 = performance.now();
  return { json: encode(msg), hostTopologyMs: t1 - t0, hostFramesMs: frames ? t2 - t1 : 0 };
}

/** JSON with typed arrays as `{ "$typed": "Int32Array", "b64": ... }`. */
export function encode(value: unknown): string {
  return JSON.stringify(value, (_k, v) => {
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      return { $typed: v.constructor.name, b64: Buffer.from(bytes).toString('base64') };
    }
    return v;
  });
}

/** The engine's part of a what-if step in Node (warm: median of `runs`), for comparison with the page. */
export function nodeWhatIf(raw: unknown, topicName: string, keys: KeyInput[], runs = 5): { whatIfMs: number; noteMs: number } {
  const settings = parsedSettings(raw);
  const topic = new Topology(settings, []).topic(topicName)!;
  const shown = keys.map(toShownKey).flatMap((k) => (k.shown ? [k.shown] : [])) as ShownKey[];
  const before = buildTopicView(topic, shown);
  const w: number[] = [];
  const n: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const events = [parseEvent(`+extra-${i}`)];
    const t0 = performance.now();
    const model = buildWhatIf(settings, topicName, events, shown, undefined, before, topic, true)!;
    const t1 = performance.now();
    orderingNote(settings, topicName, events, shown, model, topic);
    const t2 = performance.now();
    if (i === 0) continue;
    w.push(t1 - t0);
    n.push(t2 - t1);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { whatIfMs: med(w), noteMs: med(n) };
}

/**
 * A case of the user's own (`panel.mjs --case FILE`): a JSON object with `settings` (as in
 * .vscode/settings.json), `topic` (the one the panel opens on), and optionally `label`, `view`
 * (ring, ranges or partitions; by default the panel's own first view of the topic) and `keys` (strings, or
 * `{ "format": "hex", "value": ... }` objects; by default the bench's 100 keys).
 */
export function caseFromFile(file: string): ScaleCase & { keys?: KeyInput[] } {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { settings?: unknown; topic?: unknown; label?: unknown; view?: unknown; keys?: unknown };
  if (typeof raw.topic !== 'string') throw new Error(`${file}: "topic" must name the topic the panel opens on`);
  const settings = parsedSettings(raw.settings);
  const t = settings.topics.find((x) => x.name === raw.topic);
  if (!t) throw new Error(`${file}: no topic ${JSON.stringify(raw.topic)} in its settings`);
  const sub = t.system === 'pulsar' ? t.subscription : undefined;
  const view = raw.view;
  if (view !== undefined && view !== 'ring' && view !== 'ranges' && view !== 'partitions') throw new Error(`${file}: "view" must be ring, ranges or partitions`);
  const keys = raw.keys === undefined ? undefined : (raw.keys as unknown[]).map((k): KeyInput => (typeof k === 'string' ? { format: 'utf8', value: k } : (k as KeyInput)));
  return {
    // Named by the file, so that the screenshots, profiles and traces of two files stay apart.
    id: basename(file).replace(/\.json$/, ''),
    label: typeof raw.label === 'string' ? raw.label : `${raw.topic} (${file})`,
    settings: raw.settings,
    topic: raw.topic,
    view,
    consumers: sub !== undefined,
    group: t.system === 'kafka' && (settings.kafkaGroups ?? []).some((g) => g.topics.includes(t.name)),
    keys,
    stickyRanges: sub?.keySharedMode === 'STICKY' ? freeRanges(sub.consumers, sub.hashRangeSize, 20) : undefined,
  };
}

/**
 * `n` free ranges for the consumers a step adds to a STICKY subscription, as the what-if editor
 * takes them ("a-b"): the gaps between its consumers' ranges, the widest halved until there are `n`
 * (a subscription that leaves one gap, or a few, still gets a range per step). Fewer only where the
 * gaps hold fewer than `n` hash values; none where the ranges cover the whole space.
 */
export function freeRanges(consumers: ReadonlyArray<{ ranges?: ReadonlyArray<readonly [number, number]> }>, size: number, n: number): string[] {
  const taken = consumers.flatMap((c) => c.ranges ?? []).sort((a, b) => a[0] - b[0]);
  const gaps: Array<[number, number]> = [];
  let next = 0;
  for (const [start, end] of [...taken, [size, size] as const]) {
    if (start > next) gaps.push([next, start - 1]);
    next = Math.max(next, end + 1);
  }
  while (gaps.length < n) {
    let w = 0;
    for (let i = 1; i < gaps.length; i++) if (gaps[i][1] - gaps[i][0] > gaps[w][1] - gaps[w][0]) w = i;
    const g = gaps[w];
    if (g === undefined || g[0] === g[1]) break;
    const mid = g[0] + Math.floor((g[1] - g[0]) / 2);
    gaps.splice(w, 1, [g[0], mid], [mid + 1, g[1]]);
  }
  return gaps.slice(0, n).map(([a, b]) => `${a}-${b}`);
}
