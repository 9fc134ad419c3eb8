/**
 * The settings' `observed` and `observedPartitions` blocks of a Pulsar subscription (CONTRACT.md
 * section 4), read as data like the rest of the settings: each problem is reported at its path,
 * and makes the topic's entry invalid as any other problem does.
 *
 * `observed.consumers` names the subscription's consumers in the same order. An entry of
 * `observedPartitions` (index = partition) names consumers of the subscription in that partition's
 * own connection order; a consumer missing there is one the partition did not report.
 */
import { consumerId, type HashRange } from '../pulsar/keyShared/selector';
import type { PulsarTopicConfig, Problem } from '../settings';
import { show } from '../settings';
import { shapeOf, type DrainingHash, type ObservedConsumer, type ObservedState } from './types';
import { layoutProblems, sameLayout } from './validate';
import { isObject } from '../jsonObject';

const JAVA_INT_MAX = 0x7fffffff;

/** Reads the blocks of `raw` (the subscription's settings object) into `topic.subscription`. */
export function attachObserved(raw: unknown, topic: PulsarTopicConfig, path: string, problems: Problem[]): void {
  const sub = topic.subscription;
  if (!sub || typeof raw !== 'object' || raw === null) return;
  const r = raw as Record<string, unknown>;
  if (r.observed === undefined && r.observedPartitions === undefined) return;
  if (r.observed !== undefined && r.observedPartitions !== undefined) {
    problems.push({ path, message: 'give "observed" (every partition reports the same) or "observedPartitions" (one entry per partition), not both' });
    return;
  }
  const shape = shapeOf({ ...sub, brokerVersion: topic.brokerVersion });
  const configured = sub.consumers.map((c) => c.name);
  // The last report whose layout had no problem: a partition reporting the same has none either
  // (every partition reports alike where consumers subscribe to all of them), and checking a ring's
  // 100,000 ranges again for each was most of reading such settings.
  let sound: ObservedState | undefined;
  const read = (v: unknown, p: string, sameOrder: boolean): ObservedState | undefined => {
    const before = problems.length;
    const state = parseState(v, p, problems);
    if (!state) return undefined;
    const names = state.consumers.map((c) => c.name);
    const mismatch = sameOrder ? orderMismatch(names, configured) : subsetMismatch(names, configured);
    if (mismatch) problems.push({ path: `${p}.consumers`, message: mismatch });
    const found = sound && sameLayout(sound, state, true) ? [] : layoutProblems(shape, state.consumers);
    if (found.length === 0) sound = state;
    for (const lp of found) {
      const at = `${p}.consumers[${lp.consumer}]${lp.field ? `.${lp.field}` : ''}${lp.index !== undefined ? `[${lp.index}]` : ''}`;
      problems.push({ path: at, message: lp.message });
    }
    return problems.length > before ? undefined : state;
  };
  if (r.observed !== undefined) {
    sub.observed = read(r.observed, `${path}.observed`, true);
    return;
  }
  const p = `${path}.observedPartitions`;
  if (!Array.isArray(r.observedPartitions)) {
    problems.push({ path: p, message: 'must be an array with one {"consumers": [...]} per partition (index = partition)' });
    return;
  }
  if (topic.partitions === 0 || r.observedPartitions.length !== topic.partitions) {
    problems.push({
      path: p,
      message:
        topic.partitions === 0
          ? 'applies to partitioned topics; a non-partitioned topic takes "observed"'
          : `has ${r.observedPartitions.length} entries; the topic has ${topic.partitions} partitions, and each needs its entry`,
    });
    return;
  }
  const states = r.observedPartitions.map((v, i) => read(v, `${p}[${i}]`, false));
  if (states.some((s) => s === undefined)) return;
  if (sub.keySharedMode === 'STICKY') {
    // A STICKY consumer sends the same ranges to every partition.
    const first = new Map<string, { ranges: string; at: number }>();
    for (let i = 0; i < states.length; i++) {
      for (const [k, c] of occurrences(states[i]!.consumers)) {
        const ranges = JSON.stringify(c.ranges);
        const seen = first.get(k);
        if (!seen) first.set(k, { ranges, at: i });
        else if (seen.ranges !== ranges) {
          problems.push({ path: `${p}[${i}].consumers`, message: `${c.name} reports ranges ${ranges} here and ${seen.ranges} in partition ${seen.at}; a STICKY consumer asks every partition for the same ranges` });
          return;
        }
      }
    }
  }
  sub.observedPartitions = states as ObservedState[];
}

/** Each consumer keyed by its name and occurrence (`C`, `C#2`, ...), as ids are made. */
export function occurrences(consumers: readonly ObservedConsumer[]): Array<[string, ObservedConsumer]> {
  const counts = new Map<string, number>();
  return consumers.map((c) => {
    const k = (counts.get(c.name) ?? 0) + 1;
    counts.set(c.name, k);
    return [consumerId(c.name, k), c];
  });
}

function orderMismatch(names: string[], configured: string[]): string | undefined {
  for (let i = 0; i < Math.max(names.length, configured.length); i++) {
    if (names[i] !== configured[i]) {
      return `must name the subscription's consumers in the same order (consumers[${i}] is ${show(configured[i])}, observed.consumers[${i}] is ${show(names[i])}); write both from the same report, as "key-routing import" does`;
    }
  }
  return undefined;
}

function subsetMismatch(names: string[], configured: string[]): string | undefined {
  const left = new Map<string, number>();
  for (const n of configured) left.set(n, (left.get(n) ?? 0) + 1);
  for (const n of names) {
    const k = left.get(n) ?? 0;
    if (k === 0) return `names ${show(n)} more often than the subscription's consumers do; every observed consumer must be one of subscription.consumers`;
    left.set(n, k - 1);
  }
  return undefined;
}

function parseState(v: unknown, path: string, problems: Problem[]): ObservedState | undefined {
  if (!isObject(v)) {
    problems.push({ path, message: 'must be an object {"at": "...", "consumers": [{"name", "ranges"}, ...]}' });
    return undefined;
  }
  const before = problems.length;
  let at: string | undefined;
  if (v.at !== undefined) {
    if (typeof v.at !== 'string' || Number.isNaN(Date.parse(v.at))) problems.push({ path: `${path}.at`, message: `must be a date and time such as "2026-12-01T10:00:00Z" (got ${show(v.at)})` });
    else at = v.at;
  }
  const consumers: ObservedConsumer[] = [];
  if (!Array.isArray(v.consumers)) {
    problems.push({ path: `${path}.consumers`, message: 'must be an array of {"name", "ranges"} in connectedSince order' });
  } else {
    v.consumers.forEach((c: unknown, i: number) => {
      const cp = `${path}.consumers[${i}]`;
      if (!isObject(c) || typeof c.name !== 'string') {
        problems.push({ path: cp, message: 'must be an object with a string "name"' });
        return;
      }
      const ranges = c.ranges === undefined ? [] : parseRanges(c.ranges, `${cp}.ranges`, problems);
      const draining = c.drainingHashes === undefined ? [] : parseDraining(c.drainingHashes, `${cp}.drainingHashes`, problems);
      consumers.push({ name: c.name, ranges: ranges ?? [], drainingHashes: draining ?? [] });
    });
  }
  if (problems.length > before) return undefined;
  return at === undefined ? { consumers, path } : { at, consumers, path };
}

function parseRanges(raw: unknown, path: string, problems: Problem[]): HashRange[] | undefined {
  if (!Array.isArray(raw)) {
    problems.push({ path, message: 'must be an array of [start, end] pairs' });
    return undefined;
  }
  const out: HashRange[] = [];
  raw.forEach((r: unknown, i: number) => {
    if (!Array.isArray(r) || r.length !== 2 || !r.every((x) => Number.isInteger(x) && x >= 0 && x <= JAVA_INT_MAX)) {
      problems.push({ path: `${path}[${i}]`, message: `must be [start, end] with integers from 0 to ${JAVA_INT_MAX} (got ${show(r)})` });
      return;
    }
    out.push([r[0], r[1]]);
  });
  return out;
}

function parseDraining(raw: unknown, path: string, problems: Problem[]): DrainingHash[] | undefined {
  if (!Array.isArray(raw)) {
    problems.push({ path, message: 'must be an array of {"hash", "unackMsgs", "blockedAttempts"}' });
    return undefined;
  }
  const out: DrainingHash[] = [];
  raw.forEach((d: unknown, i: number) => {
    const dp = `${path}[${i}]`;
    if (!isObject(d)) {
      problems.push({ path: dp, message: 'must be an object {"hash", "unackMsgs", "blockedAttempts"}' });
      return;
    }
    const int = (k: string, fallback?: number): number | undefined => {
      const x = d[k] ?? fallback;
      if (Number.isInteger(x) && (x as number) >= 0 && (x as number) <= JAVA_INT_MAX) return x as number;
      problems.push({ path: `${dp}.${k}`, message: `must be an integer from 0 to ${JAVA_INT_MAX} (got ${show(d[k])})` });
      return undefined;
    };
    const hash = int('hash');
    const unackMsgs = int('unackMsgs');
    const blockedAttempts = int('blockedAttempts', 0);
    if (hash !== undefined && unackMsgs !== undefined && blockedAttempts !== undefined) out.push({ hash, unackMsgs, blockedAttempts });
  });
  return out;
}

