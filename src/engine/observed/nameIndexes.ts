/**
 * Rebuilding a 4.x ring from a report. A 4.x consumer's points are
 * `makeStickyKeyHash(name \0 nameIndex \0 i)`, and its name index is the lowest index free among
 * the live consumers of that name *when it connected* (`ConsumerNameIndexTracker`): `c0` that
 * connected while another `c0` was connected holds index 1 even after the other left. That is
 * history the report does not list, but its ranges show it: in a 4.x report every range a
 * consumer owns ends at one of its points (except the wrap-around part, which ends at 65535). So
 * each consumer's index is the one whose points contain all its range ends.
 *
 * Which consumer holds a point several consumers put there is the first of them to connect among
 * those still connected, i.e. connectedSince order, so with the indexes known, connecting the
 * consumers in that order (with stand-ins of the same name taking the lower indexes a consumer
 * did not get, and leaving right after, as a real history would) rebuilds the broker's ring.
 */
import { ConsistentHashing4Selector } from '../pulsar/keyShared/consistentHashing4';
import type { Consumer, HashRange } from '../pulsar/keyShared/selector';

/** Indexes tried per consumer: more same-named consumers connected at once than this is not modelled. */
const MAX_NAME_INDEX = 63;

export interface IndexInference {
  /** The consumer's index where the report shows it, else undefined. */
  index: number | undefined;
  /** Why not, where undefined: no range ends at a point of its own, several indexes fit, or none. */
  unknown?: 'noPoints' | 'ambiguous' | 'noFit';
}

export function inferNameIndexes(
  ring: ConsistentHashing4Selector,
  reported: ReadonlyArray<{ consumer: Consumer; ranges: readonly HashRange[] }>,
): IndexInference[] {
  return reported.map(({ consumer, ranges }) => {
    // 65535 may be the end of the wrap-around part rather than a point: it proves nothing.
    const ends = ranges.map((r) => r[1]).filter((e) => e !== 65535);
    if (ends.length === 0) return { index: undefined, unknown: 'noPoints' };
    const fits: number[] = [];
    for (let j = 0; j <= MAX_NAME_INDEX; j++) {
      // A scan of the replicaPoints hashes, not a Set of them: most indexes fail on the first end,
      // and a Set per consumer took 8 ms a report of 1,000 x 100 points in the panel.
      const points = ring.pointHashes(consumer.name, j);
      if (ends.every((e) => points.includes(e))) {
        fits.push(j);
        // Many ends matching one index's points cannot happen by chance: no need to look further.
        if (ends.length >= 3) break;
      }
    }
    if (fits.length === 1) return { index: fits[0] };
    return { index: undefined, unknown: fits.length === 0 ? 'noFit' : 'ambiguous' };
  });
}

/**
 * Connects `consumers` in order to `ring`, each at its wanted name index where given (and free):
 * lower free indexes are taken by stand-ins that leave once it is connected. Returns, per
 * consumer, the index it got.
 */
export function connectWithIndexes(ring: ConsistentHashing4Selector, consumers: readonly Consumer[], wanted: ReadonlyArray<number | undefined>): number[] {
  const used = new Map<string, Set<number>>();
  return consumers.map((c, i) => {
    const taken = used.get(c.name) ?? new Set<number>();
    used.set(c.name, taken);
    const want = wanted[i];
    const standIns: Consumer[] = [];
    if (want !== undefined && !taken.has(want)) {
      for (let j = 0; j < want; j++) {
        if (taken.has(j) || standIns.some((s) => ring.nameIndexOf(s) === j)) continue;
        const s: Consumer = { id: `(stand-in ${c.name} ${j})`, name: c.name };
        ring.addConsumer(s);
        standIns.push(s);
      }
    }
    ring.addConsumer(c);
    for (const s of standIns) ring.removeConsumer(s);
    const got = ring.nameIndexOf(c);
    taken.add(got);
    return got;
  });
}
