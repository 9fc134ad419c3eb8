/**
 * `UniformHomogeneousAssignmentBuilder`: the KIP-848 uniform assignor when every member subscribes
 * to the same topics.
 *
 * 1. The unassigned list starts with every partition no member's previous target holds, topic by
 *    topic in the order of a `HashSet<Uuid>` of the subscribed topic ids, partitions ascending.
 * 2. Quotas: P / M each; the first P % M members *visited* (the coordinator's HashMap order) get
 *    one more, whatever they held.
 * 3. Each member keeps its previous partitions up to its quota, walking its previous assignment
 *    in that map's order (topics by Uuid hash, partitions by `HashSet<Integer>` order); the rest
 *    go to the end of the unassigned list, and so do topics it no longer subscribes to.
 * 4. Members below quota are filled one after another, each to its full quota, from the list.
 */
import { JavaHashSet, INTEGER, type JavaHashMap } from '../javaHashMap';
import { UUID, type Uuid } from '../uuid';
import {
  deepCopyAssignment,
  PartitionAssignorException,
  type GroupAssignment,
  type GroupSpec,
  type MemberAssignment,
  type PartitionSet,
  type SubscribedTopicDescriber,
} from './groupSpec';

export function assignHomogeneous(groupSpec: GroupSpec, describer: SubscribedTopicDescriber): GroupAssignment {
  const target: GroupAssignment = new Map();
  const first = groupSpec.memberIds[0];
  const subscribedTopicIds = JavaHashSet.copyOf(UUID, groupSpec.memberSubscription(first).subscribedTopicIds, groupSpec.jdk);
  if (subscribedTopicIds.size === 0) return target;

  const unassigned: Array<[Uuid, number]> = [];
  let totalPartitionsCount = 0;
  for (const topicId of subscribedTopicIds) {
    const count = describer.numPartitions(topicId);
    if (count === -1) throw new PartitionAssignorException(`Members are subscribed to topic ${topicId.text} which doesn't exist in the topic metadata.`);
    for (let i = 0; i < count; i++) if (!groupSpec.isPartitionAssigned(topicId, i)) unassigned.push([topicId, i]);
    totalPartitionsCount += count;
  }
  const members = groupSpec.memberIds.length;
  const minimumMemberQuota = Math.floor(totalPartitionsCount / members);
  let remainingMembersToGetAnExtraPartition = totalPartitionsCount % members;

  // Revoke what is not subscribed any more or over the quota.
  const unfilled: Array<[string, number]> = [];
  for (const memberId of groupSpec.memberIds) {
    const old = groupSpec.memberAssignment(memberId);
    if (!old.immutable) throw new Error('The assignor expect an immutable map.');
    let copy: JavaHashMap<Uuid, PartitionSet> | null = null;
    let quota = minimumMemberQuota;
    if (remainingMembersToGetAnExtraPartition > 0) {
      quota++;
      remainingMembersToGetAnExtraPartition--;
    }
    for (const [topicId, partitions] of old.partitions) {
      if (!subscribedTopicIds.has(topicId)) {
        copy ??= deepCopyAssignment(old.partitions, groupSpec.jdk);
        copy.delete(topicId);
        continue;
      }
      if (partitions.size <= quota) {
        quota -= partitions.size;
        continue;
      }
      for (const partition of partitions) {
        if (quota > 0) {
          quota--;
          continue;
        }
        copy ??= deepCopyAssignment(old.partitions, groupSpec.jdk);
        const parts = copy.get(topicId) as JavaHashSet<number>;
        parts.delete(partition);
        if (parts.size === 0) copy.delete(topicId);
        unassigned.push([topicId, partition]);
      }
    }
    if (quota > 0) unfilled.push([memberId, quota]);
    target.set(memberId, copy === null ? old : { partitions: copy, immutable: false });
  }

  // Fill the members below quota one after another.
  let next = 0;
  for (const [memberId, remaining] of unfilled) {
    let a: MemberAssignment = target.get(memberId)!;
    if (a.immutable) {
      a = { partitions: deepCopyAssignment(a.partitions, groupSpec.jdk), immutable: false };
      target.set(memberId, a);
    }
    for (let i = 0; i < remaining && next < unassigned.length; i++) {
      const [topicId, partition] = unassigned[next++];
      (a.partitions.computeIfAbsent(topicId, () => JavaHashSet.empty(INTEGER)) as JavaHashSet<number>).add(partition);
    }
  }
  if (next < unassigned.length) throw new PartitionAssignorException('Partitions were left unassigned');
  return target;
}
