/**
 * Whether a reported layout is one the broker could have produced, per selector:
 * - AUTO_SPLIT hash ranges: one range per consumer, together exactly 0..rangeSize (the top range
 *   ends at the bookkeeping key rangeSize, as `[prevKey + 1, key]` reports it);
 * - 4.x ring: disjoint ranges covering 1..65535 (a consumer whose points all collided has none);
 * - 3.x ring: `[prevPoint + 1, point]` per point and consumer, so ranges are equal (a shared
 *   point) or disjoint and cover 0..lastPoint; the part above the last point is not reported;
 * - STICKY: ranges of different consumers never overlap (the broker refuses such a consumer);
 * - draining hashes only from 4.x, each hash held by one consumer.
 * Problems name the consumer and range (indexes into the report) and what is wrong; the caller
 * turns them into a setting path or a place in the report file.
 */
import type { HashRange } from '../pulsar/keyShared/selector';
import { RING3_MAX, RING4_RANGE, type ObservedConsumer, type ObservedState, type SelectorShape } from './types';

export interface LayoutProblem {
  /** Index of the consumer in the report. */
  consumer: number;
  /** `ranges` or `drainingHashes`, and the index in it where one entry is at fault. */
  field?: 'ranges' | 'drainingHashes';
  index?: number;
  message: string;
}

interface Placed {
  start: number;
  end: number;
  consumer: number;
  index: number;
}

const span = (r: { start: number; end: number }) => `[${r.start}, ${r.end}]`;

/** The slots a report's ranges may use. */
export function reportBounds(shape: SelectorShape): HashRange {
  if (shape.algorithm === 'consistentHashing') return shape.brokerVersion === '4.0' ? RING4_RANGE : [0, RING3_MAX];
  // AUTO_SPLIT reports the top key rangeSize; a STICKY client may ask for 65536 too.
  return [0, shape.algorithm === 'autoSplit' ? shape.hashRangeSize : Math.max(shape.hashRangeSize, 65536)];
}

/**
 * The problems of a reported layout. `name(i)` says which consumer `i` is in a message (by default
 * `consumer NAME (i)`).
 */
export function layoutProblems(shape: SelectorShape, consumers: readonly ObservedConsumer[], name?: (i: number) => string): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const [lo, hi] = reportBounds(shape);
  const placed: Placed[] = [];
  consumers.forEach((c, ci) => {
    c.ranges.forEach(([start, end], index) => {
      const at = { consumer: ci, field: 'ranges' as const, index };
      if (start > end) problems.push({ ...at, message: `[${start}, ${end}] starts after it ends` });
      else if (start < lo || end > hi) problems.push({ ...at, message: `[${start}, ${end}] reaches outside ${lo}..${hi}, the slots this selector reports` });
      else placed.push({ start, end, consumer: ci, index });
    });
  });
  if (problems.length > 0) return problems;
  placed.sort((a, b) => a.start - b.start || a.end - b.end);
  const who = (p: Placed) => (name ? name(p.consumer) : `consumer ${consumers[p.consumer].name} (${p.consumer})`);
  switch (shape.algorithm) {
    case 'autoSplit':
      consumers.forEach((c, ci) => {
        if (c.ranges.length !== 1) {
          problems.push({ consumer: ci, field: 'ranges', message: `has ${c.ranges.length} ranges; every consumer of an AUTO_SPLIT hash-range selector holds exactly one` });
        }
      });
      if (problems.length === 0) tile(placed, 0, shape.hashRangeSize, 'an AUTO_SPLIT hash-range selector always covers 0..' + shape.hashRangeSize, who, problems);
      break;
    case 'consistentHashing':
      if (shape.brokerVersion === '4.0') {
        if (placed.length > 0) tile(placed, RING4_RANGE[0], RING4_RANGE[1], 'a 4.x ring gives every hash from 1 to 65535 to a consumer', who, problems);
      } else {
        // Equal ranges are one shared point; otherwise ranges meet end to end from 0.
        const distinct: Placed[] = [];
        for (const p of placed) {
          const last = distinct[distinct.length - 1];
          if (last && last.start === p.start && last.end === p.end) {
            if (last.consumer === p.consumer) problems.push({ consumer: p.consumer, field: 'ranges', index: p.index, message: `lists ${span(p)} twice` });
            continue;
          }
          distinct.push(p);
        }
        if (problems.length === 0 && distinct.length > 0) {
          const lastPoint = distinct.reduce((m, d) => Math.max(m, d.end), 0);
          tile(distinct, 0, lastPoint, 'a 3.x ring reports every hash from 0 to its last point', who, problems);
        }
      }
      break;
    case 'sticky':
      for (let i = 1; i < placed.length; i++) {
        const a = placed[i - 1];
        const b = placed[i];
        if (b.start <= a.end) {
          problems.push({
            consumer: b.consumer,
            field: 'ranges',
            index: b.index,
            message:
              a.consumer === b.consumer
                ? `${span(b)} overlaps its own ${span(a)}`
                : `${span(b)} overlaps ${span(a)} of ${who(a)}; the broker refuses a STICKY consumer whose ranges overlap another's, so no broker reported this`,
          });
        }
      }
      consumers.forEach((c, ci) => {
        if (c.ranges.length === 0) problems.push({ consumer: ci, field: 'ranges', message: 'has no range; a STICKY consumer always connects with its ranges' });
      });
      break;
  }
  drainingProblems(shape, consumers, problems, name);
  return problems;
}

/**
 * Whether two reports list the same consumers, in the same order, with the same ranges (and, with
 * `draining`, the same draining hashes: then their layout problems are the same).
 */
export function sameLayout(a: ObservedState, b: ObservedState, draining = false): boolean {
  return (
    a.consumers.length === b.consumers.length &&
    a.consumers.every((c, i) => {
      const d = b.consumers[i];
      return (
        c.name === d.name &&
        c.ranges.length === d.ranges.length &&
        c.ranges.every((r, j) => r[0] === d.ranges[j][0] && r[1] === d.ranges[j][1]) &&
        (!draining || JSON.stringify(c.drainingHashes) === JSON.stringify(d.drainingHashes))
      );
    })
  );
}

/** Ranges (ascending) must cover lo..hi end to end: each overlap and each gap is a problem. */
function tile(placed: Placed[], lo: number, hi: number, rule: string, who: (p: Placed) => string, problems: LayoutProblem[]): void {
  let next = lo;
  let prev: Placed | undefined;
  for (const p of placed) {
    if (p.start > next) problems.push({ consumer: p.consumer, field: 'ranges', index: p.index, message: `leaves [${next}, ${p.start - 1}] to nobody before ${span(p)}, but ${rule}` });
    else if (p.start < next && prev) {
      problems.push({ consumer: p.consumer, field: 'ranges', index: p.index, message: `${span(p)} overlaps ${span(prev)} of ${who(prev)}, but ${rule} once` });
    }
    if (p.end + 1 > next) {
      next = p.end + 1;
      prev = p;
    }
  }
  if (next <= hi && prev) problems.push({ consumer: prev.consumer, field: 'ranges', index: prev.index, message: `the ranges stop at ${next - 1}, leaving [${next}, ${hi}] to nobody, but ${rule}` });
}

function drainingProblems(shape: SelectorShape, consumers: readonly ObservedConsumer[], problems: LayoutProblem[], name?: (i: number) => string): void {
  const holder = new Map<number, number>();
  consumers.forEach((c, ci) => {
    c.drainingHashes.forEach((d, index) => {
      const at = { consumer: ci, field: 'drainingHashes' as const, index };
      if (shape.brokerVersion !== '4.0') {
        problems.push({ ...at, message: 'draining hashes come only from 4.x brokers (PIP-379); set "brokerVersion": "4.0" or remove them' });
        return;
      }
      if (d.hash < RING4_RANGE[0] || d.hash > RING4_RANGE[1]) {
        problems.push({ ...at, message: `hash ${d.hash} is not a 4.x sticky key hash (1..65535)` });
        return;
      }
      const other = holder.get(d.hash);
      if (other !== undefined && other !== ci) {
        problems.push({ ...at, message: `hash ${d.hash} is also draining at ${name ? name(other) : `consumer ${consumers[other].name} (${other})`}; the broker keeps one consumer per draining hash` });
      } else if (other === ci) {
        problems.push({ ...at, message: `lists hash ${d.hash} twice` });
      }
      holder.set(d.hash, ci);
    });
  });
}
