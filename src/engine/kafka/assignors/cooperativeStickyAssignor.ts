/**
 * The classic `CooperativeStickyAssignor` (`cooperative-sticky`, COOPERATIVE): members keep their
 * partitions while they rejoin and report them (`ownedPartitions`, with `generationId`). The
 * sticky algorithm's result is then adjusted: a partition moving from one member to another is
 * left out of the new owner's assignment in this round; its old owner sees it revoked and
 * rejoins, and the follow-up rebalance gives it to the new owner.
 */
import { AbstractStickyAssignor, type MemberData } from './abstractStickyAssignor';
import type { ClassicAssignment, ClassicAssignor, ClassicAssignorInput, ClassicSubscription, StickyUserData, TopicPartition } from './types';

export class CooperativeStickyAssignor extends AbstractStickyAssignor implements ClassicAssignor {
  readonly name = 'cooperative-sticky';
  readonly protocol = 'COOPERATIVE';
  #generation = -1;

  onAssignment(_partitions: readonly TopicPartition[], generation: number): void {
    this.#generation = generation;
  }

  subscriptionUserData(): StickyUserData | null {
    return { generation: this.#generation };
  }

  copy(): CooperativeStickyAssignor {
    const c = this.copyTo(new CooperativeStickyAssignor());
    c.#generation = this.#generation;
    return c;
  }

  protected memberData(subscription: ClassicSubscription): MemberData {
    // ConsumerProtocolSubscription v2+ carries the generation; older ones only the user data's.
    if (subscription.generationId >= 0) return { partitions: subscription.ownedPartitions, generation: subscription.generationId };
    return { partitions: subscription.ownedPartitions, generation: subscription.userData?.generation };
  }

  assign(input: ClassicAssignorInput): ClassicAssignment {
    const assignments = this.assignPartitions(input);
    const transferring = this.partitionsTransferringOwnership ?? transfers(input, assignments);
    for (const [tp, consumer] of transferring) {
      const list = assignments.get(consumer)!;
      const i = list.indexOf(tp);
      if (i >= 0) list.splice(i, 1);
    }
    return assignments;
  }
}

/** Partitions added to one member and revoked from another (for the general builder's result). */
function transfers(input: ClassicAssignorInput, assignments: ClassicAssignment): Map<TopicPartition, string> {
  const added = new Map<TopicPartition, string>();
  const revoked = new Set<TopicPartition>();
  for (const [consumer, assigned] of assignments) {
    const owned = input.subscriptions.get(consumer)!.ownedPartitions;
    const ownedSet = new Set(owned);
    for (const tp of assigned) if (!ownedSet.has(tp)) added.set(tp, consumer);
    const assignedSet = new Set(assigned);
    for (const tp of owned) if (!assignedSet.has(tp)) revoked.add(tp);
  }
  for (const tp of [...added.keys()]) if (!revoked.has(tp)) added.delete(tp);
  return added;
}
