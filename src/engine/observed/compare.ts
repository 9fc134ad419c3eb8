/**
 * The reported layout next to one the engine works out (the ring rebuilt from the observed
 * consumers, or the layout the configured connection order predicts): equal, or the runs of hash
 * values whose owners differ, with the owners on both sides, and why they can differ.
 */
import type { Consumer, SegmentTable } from '../pulsar/keyShared/selector';

export interface LayoutDifference {
  start: number;
  end: number;
  /** Owner ids in the broker's pick order; empty where nobody owns the run. */
  reported: string[];
  other: string[];
}

export interface LayoutComparison {
  equal: boolean;
  /** Ascending, adjacent runs with the same owners on both sides merged. */
  differences: LayoutDifference[];
  /** How many hash values differ (over the tables' common span). */
  size: number;
  /** Why the two can differ, in words (empty when equal). */
  reason: string;
}

const NONE: readonly Consumer[] = [];

/** Owners compared by id: a prediction builds its own consumer objects. */
function sameList(a: readonly Consumer[], b: readonly Consumer[]): boolean {
  return a === b || (a.length === b.length && a.every((c, i) => c.id === b[i].id));
}

/** Sweeps both tables (ascending, non-overlapping) and collects the runs whose owners differ. */
export function compareTables(reported: SegmentTable, other: SegmentTable, reason: string): LayoutComparison {
  const differences: LayoutDifference[] = [];
  let size = 0;
  const bounds = new Set<number>();
  for (const t of [reported, other]) {
    for (let i = 0; i < t.count; i++) {
      bounds.add(t.starts[i]);
      bounds.add(t.ends[i] + 1);
    }
  }
  const cuts = [...bounds].sort((a, b) => a - b);
  let ri = 0;
  let oi = 0;
  for (let k = 0; k + 1 < cuts.length; k++) {
    const start = cuts[k];
    const end = cuts[k + 1] - 1;
    while (ri < reported.count && reported.ends[ri] < start) ri++;
    while (oi < other.count && other.ends[oi] < start) oi++;
    const a = ri < reported.count && reported.starts[ri] <= start ? reported.owners[reported.owner[ri]] : NONE;
    const b = oi < other.count && other.starts[oi] <= start ? other.owners[other.owner[oi]] : NONE;
    if (sameList(a, b)) continue;
    size += end - start + 1;
    const last = differences[differences.length - 1];
    const ra = a.map((c) => c.id);
    const ob = b.map((c) => c.id);
    if (last && last.end + 1 === start && last.reported.join('\0') === ra.join('\0') && last.other.join('\0') === ob.join('\0')) last.end = end;
    else differences.push({ start, end, reported: ra, other: ob });
  }
  return { equal: differences.length === 0, differences, size, reason: differences.length === 0 ? '' : reason };
}

/** The first few differences in words: `12-40: reported C1, rebuilt C2`. */
export function describeDifferences(c: LayoutComparison, otherName: string, max = 3): string {
  const who = (ids: string[]) => (ids.length === 0 ? 'nobody' : ids.join(' + '));
  const shown = c.differences.slice(0, max).map((d) => `${d.start}-${d.end}: reported ${who(d.reported)}, ${otherName} ${who(d.other)}`);
  const more = c.differences.length > max ? `, and ${c.differences.length - max} more` : '';
  return `${c.differences.length} run${c.differences.length === 1 ? '' : 's'} (${shown.join('; ')}${more})`;
}
