/**
 * The key-population analyser: feed it bytes, get per-topic figures (keys per partition, consumer
 * and bundle, hash-space share against key share, skew), the heaviest keys, malformed lines, and
 * the same figures under a what-if.
 *
 * Per key it hashes once (murmur2 for Kafka, murmur3 for Pulsar's sticky key and the heavy-key
 * table, Java's String.hashCode for Pulsar's producer routing, as the topics need), then every topic
 * reads its partition and owner from tables built once (topicRouting.ts). Nothing is allocated per
 * key on that path. No Node import: this runs in a worker thread, a web worker or the CLI.
 */
import { decodeUtf8, toHex } from '../engine/bytes';
import { formatEvent, type TopologyEvent } from '../engine/events';
import { bytesKey } from '../engine/key';
import { murmur2 } from '../engine/kafka/murmur2';
import { murmur3 } from '../engine/pulsar/murmur3';
import type { Settings } from '../engine/settings';
import { PulsarTopicState, Topology, type TopicState } from '../engine/topology';
import {
  skew,
  type AnalysisResult,
  type BundleFigure,
  type HeavyKey,
  type HeavyKeysFigures,
  type InputKind,
  type Problem,
  type TopicFigures,
  type TopologyFigures,
} from './figures';
import { DEFAULT_CAPACITY, HeavyKeys, type Candidate, type Verifier } from './heavyKeys';
import {
  AnalyzeInputError,
  CsvKeyReader,
  JsonLinesKeyReader,
  LineKeyReader,
  DEFAULT_MAX_KEY_BYTES,
  type CsvColumn,
  type CsvDelimiter,
  type KeyFormat,
  type KeyReader,
  type KeySink,
} from './readers';
import { TopicCounter } from './topicRouting';
import { KeyHasher, noNeeds } from './keyHashes';
import { settingsBundleResolver } from './bundles';

export type InputSpec =
  | { kind: 'lines' }
  | { kind: 'csv'; column: CsvColumn; delimiter?: CsvDelimiter }
  | { kind: 'jsonl'; field: string };

/**
 * Maps a topic name (a partition's, `NAME-partition-i`, or a non-partitioned topic's) to the name
 * of its namespace bundle, or null where no layout covers it. The hook for the namespace-bundle
 * module: pass it where that module is available and the figures gain keys per bundle.
 */
export type BundleResolver = (topicName: string) => string | null;

export interface AnalyzeOptions {
  settings: Settings;
  /** Analyse this topic only (default: every configured topic). */
  topic?: string;
  /** What-if: events applied, in order, to a copy of the topology; figures are given before and after. */
  events?: TopologyEvent[];
  input?: InputSpec;
  keyFormat?: KeyFormat;
  /** How many heaviest keys to report (default 20; 0 for none). */
  topKeys?: number;
  /** Candidates the heavy-key summary holds (default 4096): memory, and the accuracy of one pass. */
  heavyKeyCapacity?: number;
  /** How many problem lines to keep with their messages (default 100; all are counted). */
  maxProblems?: number;
  /** Longest key accepted, in bytes (default 1 MiB); longer lines are reported and skipped. */
  maxKeyBytes?: number;
  /**
   * Bundle of a topic name; default: the layouts of `settings.namespaces` (bundles.ts). Give
   * `null` to leave bundles out.
   */
  bundleOf?: BundleResolver | null;
}

const DEFAULT_TOP_KEYS = 20;
const DEFAULT_MAX_PROBLEMS = 100;

/** Events that cannot be applied as asked (a partition change without a topic). */
export { AnalyzeInputError };

interface EventOutcome {
  event: string;
  topic: string;
  error?: string;
}

/** Which topics an event applies to: the selected one, or every topic with a subscription. */
function targets(topics: TopicState[], event: TopologyEvent, selected: boolean): TopicState[] {
  if (selected) return topics;
  if (event.kind === 'partitions') {
    throw new AnalyzeInputError(`${formatEvent(event)} needs a topic: name the topic whose partition count changes`);
  }
  return topics.filter((t) => t instanceof PulsarTopicState && t.subscription !== undefined);
}

export class KeyAnalyzer implements KeySink {
  readonly options: AnalyzeOptions;
  readonly #reader: KeyReader;
  /** The topics' counters, and under the what-if (the tests read where each key went from them). */
  readonly before: TopicCounter[];
  readonly after: TopicCounter[] | null;
  /** Per topic: before-consumer index -> after-consumer index (by id), for moved keys. */
  readonly #consumerMap: Int32Array[] = [];
  readonly #moved: Float64Array;
  readonly #heavy: HeavyKeys | null;
  readonly #topK: number;
  /** The hashes every topic reads (typed Kafka keys hash their own serialized bytes). */
  readonly #hasher: KeyHasher;
  /** The heavy-key table's hash: murmur3 where it is computed anyway, else murmur2. */
  readonly #heavyUsesMurmur3: boolean;
  readonly #maxProblems: number;
  readonly configProblems: Array<{ path: string; message: string }> = [];
  readonly eventOutcomes: EventOutcome[] = [];
  readonly #topicStates: TopicState[];
  readonly #afterStates: TopicState[] | null;
  bytes = 0;
  keys = 0;
  blankLines = 0;
  problemCount = 0;
  readonly problems: Problem[] = [];
  #verifier: Verifier | null = null;
  readonly #started = Date.now();
  readonly #bundleOf: BundleResolver | undefined;

  constructor(options: AnalyzeOptions) {
    this.options = options;
    const { settings } = options;
    const topology = new Topology(settings, this.configProblems);
    this.#topicStates = selectTopics(topology, options.topic);
    if (options.events && options.events.length > 0) {
      const copy = new Topology(settings, []);
      this.#afterStates = selectTopics(copy, options.topic);
      for (const event of options.events) {
        for (const t of targets(this.#afterStates, event, options.topic !== undefined)) {
          const r = t.apply(event);
          this.eventOutcomes.push(r.ok ? { event: formatEvent(event), topic: t.name } : { event: formatEvent(event), topic: t.name, error: r.error });
        }
      }
    } else {
      this.#afterStates = null;
    }
    const hexInput = options.keyFormat === 'hex';
    const maxProblems = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
    this.before = this.#topicStates.map((t) => new TopicCounter(t, hexInput, maxProblems));
    this.after = this.#afterStates ? this.#afterStates.map((t) => new TopicCounter(t, hexInput, maxProblems)) : null;
    if (this.after) {
      this.before.forEach((b, i) => {
        const ids = new Map(this.after![i].consumers.map((c, j) => [c.id, j] as const));
        this.#consumerMap.push(Int32Array.from(b.consumers, (c) => ids.get(c.id) ?? -2));
      });
    }
    this.#moved = new Float64Array(this.before.length);
    const all = [...this.before, ...(this.after ?? [])];
    const needs = noNeeds();
    for (const c of all) for (const k of Object.keys(needs) as Array<keyof typeof needs>) needs[k] ||= c.needs[k];
    this.#topK = options.topKeys ?? DEFAULT_TOP_KEYS;
    // The heavy-key table needs a hash of every key: murmur3 where Pulsar topics compute it, or
    // where no topic computes murmur2 either.
    this.#heavyUsesMurmur3 = needs.murmur3 || !needs.murmur2;
    if (this.#topK > 0) {
      if (this.#heavyUsesMurmur3) needs.murmur3 = true;
      else needs.murmur2 = true;
    }
    this.#hasher = new KeyHasher(needs);
    this.#heavy = this.#topK > 0 ? new HeavyKeys(Math.max(options.heavyKeyCapacity ?? DEFAULT_CAPACITY, 2 * this.#topK)) : null;
    this.#maxProblems = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
    this.#bundleOf = options.bundleOf === null ? undefined : (options.bundleOf ?? settingsBundleResolver(settings));
    this.#reader = makeReader(this, options);
  }

  /** Feeds the next bytes of the input (split anywhere). */
  feed(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    this.#reader.feed(chunk);
  }

  /** The input is over. */
  end(): void {
    this.#reader.end();
  }

  get lines(): number {
    return this.#reader.lines;
  }

  // KeySink ---------------------------------------------------------------------------------------

  key(bytes: Uint8Array, length: number, text: string | null, line: number): void {
    this.keys++;
    this.#hasher.fill(bytes, length, text);
    const h = this.#hasher.hashes;
    const before = this.before;
    for (let i = 0; i < before.length; i++) before[i].add(h, bytes, length, text, line);
    if (this.after !== null) {
      const after = this.after;
      for (let i = 0; i < after.length; i++) {
        const a = after[i];
        a.add(h, bytes, length, text, line);
        const b = before[i];
        if (a.partition !== b.partition || (b.consumer < 0 ? a.consumer >= 0 : this.#consumerMap[i][b.consumer] !== a.consumer)) this.#moved[i]++;
      }
    }
    if (this.#heavy !== null) this.#heavy.add(bytes, length, this.#heavyUsesMurmur3 ? h.murmur3Raw : h.murmur2);
  }

  problem(line: number, message: string): void {
    this.problemCount++;
    if (this.problems.length < this.#maxProblems) this.problems.push({ line, message });
  }

  blank(): void {
    this.blankLines++;
  }

  // Exact pass ------------------------------------------------------------------------------------

  /** Whether a second pass over the same input would make the heavy-key counts exact. */
  get wantsExactPass(): boolean {
    return this.#heavy !== null && !this.#heavy.exact;
  }

  /** A reader for the second pass: it counts the heavy-key candidates exactly. */
  exactPass(): KeyReader {
    if (this.#heavy === null) throw new Error('no heavy keys to count');
    const verifier = this.#heavy.verifier(this.#topK);
    const useM3 = this.#heavyUsesMurmur3;
    const sink: KeySink = {
      key: (bytes, length) => verifier.add(bytes, length, useM3 ? murmur3(bytes, length) : murmur2(bytes, length)),
      problem: () => {},
      blank: () => {},
    };
    const reader = makeReader(sink, this.options);
    return {
      feed: (chunk) => reader.feed(chunk),
      end: () => {
        reader.end();
        this.#verifier = verifier;
      },
      get lines() {
        return reader.lines;
      },
    };
  }

  // Results ---------------------------------------------------------------------------------------

  result(status: AnalysisResult['status'] = 'complete'): AnalysisResult {
    const o = this.options;
    const input = o.input ?? { kind: 'lines' as const };
    const kind: InputKind = input.kind;
    const out: AnalysisResult = {
      status,
      input: {
        kind,
        keyFormat: o.keyFormat ?? 'utf8',
        ...(input.kind === 'csv' ? { column: 'index' in input.column ? input.column.index : input.column.name, delimiter: (this.#reader as CsvKeyReader).delimiterUsed ?? undefined } : {}),
        ...(input.kind === 'jsonl' ? { field: input.field } : {}),
        bytes: this.bytes,
        lines: this.#reader.lines,
        keys: this.keys,
        blankLines: this.blankLines,
      },
      problems: { count: this.problemCount, first: this.problems.slice() },
      configProblems: this.configProblems.slice(),
      topics: this.before.map((c, i) => this.#topicFigures(c, i)),
      heavyKeys: this.#heavyFigures(),
      elapsedMs: Date.now() - this.#started,
    };
    if (this.after) out.whatIf = { events: this.eventOutcomes.slice() };
    return out;
  }

  #topicFigures(c: TopicCounter, i: number): TopicFigures {
    const out: TopicFigures = { topic: c.topic.name, system: c.system, keys: this.keys, ...this.#topologyFigures(c) };
    if (this.after) {
      const moved = this.#moved[i];
      out.after = { ...this.#topologyFigures(this.after[i]), movedKeys: moved, movedShare: this.keys > 0 ? moved / this.keys : 0 };
    }
    return out;
  }

  #topologyFigures(c: TopicCounter): TopologyFigures {
    const total = this.keys;
    const share = (k: number): number => (total > 0 ? k / total : 0);
    const out: TopologyFigures = { partitions: c.partitions };
    const counts = c.partitionKeys;
    if (c.partitions > 0) {
      out.partitionKeys = counts.entries().map(([p, keys]) => ({ partition: p, keys, keyShare: share(keys), hashShare: c.partitionHashShare(p) }));
      if (counts.isSparse) out.sparsePartitions = true;
      out.partitionSkew = counts.skew();
    }
    if (c.system === 'kafka' && c.randomKeys > 0) out.randomKeys = c.randomKeys;
    if (c.keyErrors > 0) out.keyErrors = { count: c.keyErrors, first: c.firstKeyErrors.slice() };
    if (c.producerNames !== null) {
      out.producers = { names: c.producerNames.slice(), disagreeKeys: c.disagreeKeys, disagreeShare: share(c.disagreeKeys) };
    }
    if (c.hasConsumers) {
      const hashShares = c.consumerHashShares();
      out.consumers = c.consumers.map((con, j) => ({ id: con.id, keys: c.consumerKeys[j], keyShare: share(c.consumerKeys[j]), hashShare: hashShares[j] }));
      out.unowned = c.unowned;
      out.consumerSkew = skew(c.consumerKeys);
    }
    if (c.system === 'pulsar' && this.#bundleOf) {
      const bundles = new Map<string, BundleFigure>();
      // Every partition, or above DENSE_PARTITIONS those that received keys (the others add none).
      const listed: number[] = c.partitions === 0 ? [0] : counts.isSparse ? counts.entries().map(([p]) => p) : Array.from({ length: c.partitions }, (_, p) => p);
      for (const p of listed) {
        const bundle = this.#bundleOf!(c.partitions > 0 ? `${c.topic.name}-partition-${p}` : c.topic.name);
        if (bundle === null) continue;
        let f = bundles.get(bundle);
        if (!f) bundles.set(bundle, (f = { bundle, partitions: [], keys: 0, keyShare: 0 }));
        f.partitions.push(p);
        f.keys += c.partitions > 0 ? counts.get(p) : total;
      }
      if (bundles.size > 0) {
        // Bundle names sort by their lower bound (fixed-width hex).
        out.bundles = [...bundles.values()].sort((a, b) => (a.bundle < b.bundle ? -1 : a.bundle > b.bundle ? 1 : 0));
        for (const b of out.bundles) b.keyShare = share(b.keys);
        out.bundleSkew = skew(out.bundles.map((b) => b.keys));
      }
    }
    return out;
  }

  #heavyFigures(): HeavyKeysFigures {
    const heavy = this.#heavy;
    if (heavy === null) return { method: 'misra-gries', capacity: 0, exact: true, complete: true, unlistedMax: 0, keys: [] };
    const k = this.#topK;
    let listed: Candidate[];
    let exact: boolean;
    let complete: boolean;
    let unlistedMax: number;
    if (this.#verifier !== null) {
      // Exact counts of every candidate that could be in the top k; any other key occurred at
      // most `outsideMax` times (pass 1's bound).
      const all = this.#verifier.results();
      listed = all.slice(0, k);
      exact = true;
      const last = listed.length > 0 ? listed[listed.length - 1].count : 0;
      const nextVerified = all.length > k ? all[k].count : 0;
      unlistedMax = Math.max(this.#verifier.outsideMax, nextVerified);
      complete = listed.length < k ? this.#verifier.outsideMax === 0 : this.#verifier.outsideMax <= last;
    } else {
      const all = heavy.candidates();
      listed = all.slice(0, k);
      exact = listed.every((c) => c.err === 0);
      const last = listed.length > 0 ? listed[listed.length - 1].count : 0;
      let rest = heavy.offset;
      for (let j = k; j < all.length; j++) rest = Math.max(rest, all[j].count + all[j].err);
      unlistedMax = rest;
      complete = listed.length < k ? heavy.offset === 0 : rest <= last;
    }
    const total = this.keys;
    const keys: HeavyKey[] = listed.map((c) => this.#heavyKey(c, total));
    return {
      method: this.#verifier !== null ? 'misra-gries+exact-pass' : 'misra-gries',
      capacity: heavy.capacity,
      exact,
      complete,
      unlistedMax,
      keys,
    };
  }

  #heavyKey(c: Candidate, total: number): HeavyKey {
    // Text where the bytes are UTF-8 and the input gave text; hex otherwise (as the input did, or
    // for a byte key). A truncated key may end inside a character: lossy text then.
    const decoded = c.truncated ? lossyDecoder.decode(c.bytes) : decodeUtf8(c.bytes);
    const asText = decoded !== null && this.options.keyFormat !== 'hex';
    const key = asText ? decoded : toHex(c.bytes);
    const format = asText ? 'utf8' : 'hex';
    const out: HeavyKey = { key, format, bytes: c.length, count: c.count, exact: c.err === 0, keyShare: total > 0 ? c.count / total : 0 };
    if (c.truncated) out.truncated = true;
    if (c.err !== 0) out.maxCount = c.count + c.err;
    if (!c.truncated) {
      const mk = bytesKey(c.bytes, this.options.keyFormat === 'hex');
      out.routes = this.#topicStates.map((t, i) => {
        const r = t.route(mk);
        const route: NonNullable<HeavyKey['routes']>[number] = { topic: t.name, partition: r.partition };
        if (r.error !== undefined) route.error = r.error;
        if ('consumer' in r) route.consumer = r.consumer ?? null;
        if (this.#afterStates) {
          const a = this.#afterStates[i].route(mk);
          route.after = { partition: a.partition, ...('consumer' in a ? { consumer: a.consumer ?? null } : {}) };
        }
        return route;
      });
    }
    return out;
  }
}

const lossyDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

function selectTopics(topology: Topology, name: string | undefined): TopicState[] {
  if (name === undefined) return topology.topics;
  const t = topology.topic(name);
  if (!t) {
    const names = topology.topics.map((x) => JSON.stringify(x.name)).join(', ') || 'none';
    throw new AnalyzeInputError(`no topic named ${JSON.stringify(name)} (topics: ${names})`);
  }
  return [t];
}

function makeReader(sink: KeySink, o: AnalyzeOptions): KeyReader {
  const format = o.keyFormat ?? 'utf8';
  const max = o.maxKeyBytes ?? DEFAULT_MAX_KEY_BYTES;
  const input = o.input ?? { kind: 'lines' };
  switch (input.kind) {
    case 'lines':
      return new LineKeyReader(sink, format, max);
    case 'csv':
      return new CsvKeyReader(sink, format, input.column, input.delimiter ?? 'auto', max);
    case 'jsonl':
      return new JsonLinesKeyReader(sink, format, input.field, max);
  }
}
