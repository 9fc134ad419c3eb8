/**
 * The classic `StickyAssignor` (`sticky`, EAGER): every member revokes everything before it
 * rejoins, so its previous partitions travel in its user data (`STICKY_ASSIGNOR_USER_DATA_V1`:
 * the last assignment it received and that generation; nothing before its first assignment).
 */
import { AbstractStickyAssignor, type MemberData } from './abstractStickyAssignor';
import type { ClassicAssignment, ClassicAssignor, ClassicAssignorInput, ClassicSubscription, StickyUserData, TopicPartition } from './types';

export class StickyAssignor extends AbstractStickyAssignor implements ClassicAssignor {
  readonly name = 'sticky';
  readonly protocol = 'EAGER';
  #memberAssignment: readonly TopicPartition[] | null = null;
  #generation = -1;

  onAssignment(partitions: readonly TopicPartition[], generation: number): void {
    this.#memberAssignment = partitions.slice();
    this.#generation = generation;
  }

  subscriptionUserData(): StickyUserData | null {
    return this.#memberAssignment === null ? null : { partitions: this.#memberAssignment, generation: this.#generation };
  }

  copy(): StickyAssignor {
    const c = this.copyTo(new StickyAssignor());
    // Replaced, never changed, by onAssignment: shared.
    c.#memberAssignment = this.#memberAssignment;
    c.#generation = this.#generation;
    return c;
  }

  protected memberData(subscription: ClassicSubscription): MemberData {
    const u = subscription.userData;
    if (u === null || u.partitions === undefined) return { partitions: [], generation: undefined };
    return { partitions: u.partitions, generation: u.generation };
  }

  assign(input: ClassicAssignorInput): ClassicAssignment {
    return this.assignPartitions(input);
  }
}
