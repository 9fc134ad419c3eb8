/**
 * `key-routing split --algorithm ALG --input FILE`: the split positions the broker's bundle-split
 * algorithm returns for a bundle, as `{"splitPositions": [...]}` or `{"splitPositions": null}` for
 * "no split". Where the algorithm throws (no positions for `specified_positions_divide`) it exits 2
 * with the broker's reason. Unset broker settings take the broker's defaults.
 */
import { isObject } from '../engine/jsonObject';
import { required, UsageError, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { readJsonFile } from './io';
import { array, fail, finiteNumber, javaInt, record, string } from './inputCheck';
import { show } from '../engine/settings';
import {
  DEFAULT_FLOW_OR_QPS_LIMITS,
  SPLIT_ALGORITHMS,
  SplitError,
  splitBoundaries,
  splitRefusal,
  type BundleRange,
  type FlowOrQpsLimits,
  type SplitAlgorithm,
  type TopicLoad,
} from '../engine/pulsar/bundleSplit';
import { FULL_UPPER_BOUND, javaLongDecode, parseBundleRange, topicHash } from '../engine/pulsar/namespaceBundles';
import { parseTopicName, TopicNameError } from '../engine/pulsar/topicName';
import type { CommandSpec } from './command';

const LOAD_FIELDS = ['msgRateIn', 'msgRateOut', 'msgThroughputIn', 'msgThroughputOut'] as const;
const LIMIT_FIELDS = Object.keys(DEFAULT_FLOW_OR_QPS_LIMITS) as (keyof FlowOrQpsLimits)[];

export function splitCommand(args: ParsedArgs, write: (s: string) => void, io: CliIo): void {
  const algorithm = parseAlgorithm(required(args, 'algorithm'));
  const file = required(args, 'input');
  const input = readJsonFile(io, file, '--input');
  if (!isObject<unknown>(input)) throw new UsageError(`--input ${file}: must be a JSON object {"bundle", "topics", ...} (got ${show(input)})`);

  const needsBundle = algorithm === 'range_equally_divide' || algorithm === 'specified_positions_divide';
  let bundle: BundleRange | undefined;
  if (input.bundle !== undefined) bundle = parseBundle(input.bundle);
  else if (needsBundle) fail('bundle', `is required for ${algorithm}, e.g. "0x00000000_0x40000000"`);

  const needsTopics = algorithm !== 'range_equally_divide';
  const flow = algorithm === 'flow_or_qps_equally_divide';
  let topics: TopicLoad[] = [];
  if (input.topics !== undefined) topics = parseTopics(input.topics, flow);
  else if (needsTopics) fail('topics', `is required for ${algorithm}: the bundle's owned topics, e.g. [{"name": "persistent://public/default/t1"}]`);

  let positions: number[] | null = null;
  if (input.positions !== undefined && input.positions !== null) positions = parsePositions(input.positions);

  const limits: FlowOrQpsLimits = { ...DEFAULT_FLOW_OR_QPS_LIMITS };
  for (const f of LIMIT_FIELDS) if (input[f] !== undefined) limits[f] = javaInt(input[f], f);

  let result: number[] | null;
  try {
    result = splitBoundaries(algorithm, { bundle: bundle ?? { lower: 0, upper: FULL_UPPER_BOUND }, topics, positions, limits });
  } catch (e) {
    if (e instanceof SplitError) throw new UsageError(`${algorithm}: ${e.message} (the broker throws IllegalArgumentException)`);
    throw e;
  }
  if (result && bundle) {
    const refusal = splitRefusal(bundle, result);
    if (refusal) io.stderr.write(`key-routing: note: NamespaceBundleFactory.splitBundles would refuse this split: ${refusal}\n`);
  }
  write(JSON.stringify({ splitPositions: result }) + '\n');
}

function parseAlgorithm(v: string): SplitAlgorithm {
  if ((SPLIT_ALGORITHMS as readonly string[]).includes(v)) return v as SplitAlgorithm;
  throw new UsageError(`--algorithm must be one of ${SPLIT_ALGORITHMS.join(', ')} (got ${JSON.stringify(v)})`);
}

function parseBundle(v: unknown): BundleRange {
  const text = string(v, 'bundle');
  try {
    return parseBundleRange(text);
  } catch (e) {
    return fail('bundle', (e as Error).message);
  }
}

function parseTopics(v: unknown, flow: boolean): TopicLoad[] {
  return array(v, 'topics', 'of {"name", "hash", "msgRateIn", ...}').map((t, i) => {
    const path = `topics[${i}]`;
    const o = record(t, path, 'with "name" or "hash"');
    let hash: number;
    if (o.hash !== undefined) hash = hashValue(o.hash, `${path}.hash`);
    else if (o.name !== undefined) {
      const name = string(o.name, `${path}.name`);
      try {
        hash = topicHash(parseTopicName(name).fullName);
      } catch (e) {
        if (!(e instanceof TopicNameError)) throw e;
        return fail(`${path}.name`, e.message);
      }
    } else return fail(path, 'needs a "name" (hashed as the broker hashes it) or a "hash"');
    if (o.name !== undefined) string(o.name, `${path}.name`);
    const load: TopicLoad = { hash, msgRateIn: 0, msgRateOut: 0, msgThroughputIn: 0, msgThroughputOut: 0 };
    for (const f of LOAD_FIELDS) {
      if (o[f] !== undefined || flow) load[f] = finiteNumber(o[f], `${path}.${f}`);
    }
    return load;
  });
}

/** A topic hash: an integer in 0..0xffffffff, or a string `Long.decode` reads. */
function hashValue(v: unknown, path: string): number {
  let n: number;
  if (typeof v === 'number' && Number.isInteger(v)) n = v;
  else if (typeof v === 'string') {
    const d = javaLongDecode(v);
    if (typeof d === 'string') return fail(path, `must be an integer or a hex string like "0x0000000a" (got ${show(v)}: ${d})`);
    n = d < 0n || d > BigInt(FULL_UPPER_BOUND) ? -1 : Number(d);
  } else return fail(path, `must be an integer from 0 to ${FULL_UPPER_BOUND} (got ${show(v)})`);
  if (!(n >= 0 && n <= FULL_UPPER_BOUND)) fail(path, `must lie in 0..${FULL_UPPER_BOUND} (0x00000000..0xffffffff), the topic hash space (got ${show(v)})`);
  return n;
}

/** Split positions are Java longs: integers, or strings `Long.decode` reads. */
function parsePositions(v: unknown): number[] {
  return array(v, 'positions', 'of split positions, e.g. [1073741824]').map((p, i) => {
    const path = `positions[${i}]`;
    if (typeof p === 'number') {
      if (!Number.isSafeInteger(p)) fail(path, `must be an integer (got ${show(p)})`);
      return p;
    }
    if (typeof p === 'string') {
      const d = javaLongDecode(p);
      if (typeof d === 'string') fail(path, `must be an integer or a hex string (got ${show(p)}: ${d})`);
      return Number(d);
    }
    return fail(path, `must be an integer (got ${show(p)})`);
  });
}

export const splitSpec: CommandSpec = {
  name: 'split',
  summary: "Where the broker's bundle-split algorithm splits a namespace bundle.",
  options: [
    { name: 'algorithm', value: 'ALG', required: true, description: `One of ${SPLIT_ALGORITHMS.join(', ')}.` },
    { name: 'input', value: 'FILE', required: true, description: 'The bundle (JSON): {"bundle", "topics": [{"name", "hash", "msgRateIn", ...}], "positions", limits}.' },
  ],
  details: ['JSON: {"splitPositions": [...]}, or {"splitPositions": null} where the broker would not split.'],
  examples: ['key-routing split --algorithm topic_count_equally_divide --input bundle.json'],
  run: splitCommand,
};
