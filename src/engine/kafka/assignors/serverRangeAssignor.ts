/**
 * The KIP-848 server-side `RangeAssignor` (`range` in `group.consumer.assignors`; the engine calls
 * it `server-range`). At Kafka 4.0 (rewritten in KAFKA-16944) it is not sticky: members sorted by
 * instance id (static members first), then member id; per topic, among its subscribers, contiguous
 * ranges of n / c partitions, the first n % c members one more. The same owners as the classic
 * `RangeAssignor`.
 */
import { JavaHashMap } from '../javaHashMap';
import { UUID, type Uuid } from '../uuid';
import { rangeShares } from './rangeAssignor';
import { compareStrings } from './types';
import { PartitionAssignorException, RangeSet, type GroupAssignment, type GroupSpec, type PartitionSet, type ServerAssignor, type SubscribedTopicDescriber, type TopicIds } from './groupSpec';

export class ServerRangeAssignor implements ServerAssignor {
  readonly name = 'range';

  assign(groupSpec: GroupSpec, describer: SubscribedTopicDescriber): GroupAssignment {
    const out: GroupAssignment = new Map();
    if (groupSpec.memberIds.length === 0) return out;
    const sorted = groupSpec.memberIds.slice().sort(compareStrings);
    // Subscribers per topic, in member order; the homogeneous path counts every member, which is the same.
    const topics = new Map<string, { id: Uuid; members: string[] }>();
    // Each member's subscribed ids, read once (a member of a group on 200 topics: 200 names
    // hashed and looked up per read), and once per set of names where members share one (ids
    // come from the names alone); a topic's partition count, checked once.
    const subscriptions = new Map<string, { size: number; ids: Uuid[] }>();
    const idsOfNames = new Map<TopicIds['names'], Uuid[]>();
    for (const memberId of sorted) {
      const subscribed = groupSpec.memberSubscription(memberId).subscribedTopicIds;
      let ids = idsOfNames.get(subscribed.names);
      if (!ids) idsOfNames.set(subscribed.names, (ids = [...subscribed]));
      subscriptions.set(memberId, { size: subscribed.size, ids });
      for (const id of ids) {
        let t = topics.get(id.text);
        if (!t) {
          if (describer.numPartitions(id) === -1) throw new PartitionAssignorException('Member is subscribed to a non-existent topic');
          topics.set(id.text, (t = { id, members: [] }));
        }
        t.members.push(memberId);
      }
    }
    const shares = new Map<string, Map<string, [number, number]>>();
    for (const [text, t] of topics) shares.set(text, new Map(rangeShares(t.members, describer.numPartitions(t.id))));
    for (const memberId of sorted) {
      const { size, ids } = subscriptions.get(memberId)!;
      const partitions = JavaHashMap.withCapacity<Uuid, PartitionSet>(UUID, Math.trunc(Math.fround(Math.fround(size / 0.75) + 1)));
      for (const id of ids) {
        const share = shares.get(id.text)!.get(memberId);
        if (share) partitions.set(id, new RangeSet(share[0], share[1]));
      }
      out.set(memberId, { partitions, immutable: false });
    }
    return out;
  }
}
