/**
 * The classic `RangeAssignor` (`partition.assignment.strategy` `range`, the Java consumer's first
 * default): each topic on its own; its subscribers sorted by member id (`MemberInfo.compareTo`,
 * plain `String.compareTo`, so `m1 < m10 < m2`); each gets `n / c` partitions as one contiguous
 * range, the first `n % c` of them one more. Not sticky; topics with the same partition count and
 * subscribers are co-partitioned. (The rack-aware pre-pass needs `client.rack` and is not modelled.)
 */
import { sameItems } from '../../sameItems';
import { compareStrings, type ClassicAssignment, type ClassicAssignor, type ClassicAssignorInput, StatelessClassicAssignor, type TopicPartition } from './types';

export class RangeAssignor extends StatelessClassicAssignor implements ClassicAssignor {
  readonly name = 'range';

  assign({ partitionsPerTopic, subscriptions, partitions }: ClassicAssignorInput): ClassicAssignment {
    const assignment: ClassicAssignment = new Map();
    for (const id of subscriptions.keys()) assignment.set(id, []);
    const consumersPerTopic = new Map<string, string[]>();
    for (const [id, s] of subscriptions) {
      for (const topic of s.topics) {
        let list = consumersPerTopic.get(topic);
        if (!list) consumersPerTopic.set(topic, (list = []));
        list.push(id);
      }
    }
    // Topics with the same subscribers in the same order (every topic of a group whose members
    // all subscribe to all of them) share one sort: 200 topics under 500 members sorted the same
    // ids 200 times, most of a rebalance.
    let lastSubscribers: readonly string[] = [];
    let lastSorted: string[] = [];
    for (const [topic, count] of partitionsPerTopic) {
      const subscribers = consumersPerTopic.get(topic) ?? [];
      const consumers = sameItems(subscribers, lastSubscribers) ? lastSorted : subscribers.slice().sort(compareStrings);
      lastSubscribers = subscribers;
      lastSorted = consumers;
      if (consumers.length === 0 || count === 0) continue;
      for (const [id, [from, to]] of rangeShares(consumers, count)) {
        const list: TopicPartition[] = assignment.get(id)!;
        for (let p = from; p < to; p++) list.push(partitions.get(topic, p));
      }
    }
    return assignment;
  }
}

/**
 * Contiguous ranges `[from, to)` of `count` partitions over members in the given (sorted) order:
 * `count / n` each, the first `count % n` one more. Shared with the server-side range assignor.
 */
export function rangeShares(sortedMembers: readonly string[], count: number): Array<[string, [number, number]]> {
  const n = sortedMembers.length;
  const quota = Math.floor(count / n);
  const extra = count % n;
  const out: Array<[string, [number, number]]> = [];
  let next = 0;
  for (let i = 0; i < n && next < count; i++) {
    const size = quota + (i < extra ? 1 : 0);
    if (size > 0) out.push([sortedMembers[i], [next, next + size]]);
    next += size;
  }
  return out;
}
