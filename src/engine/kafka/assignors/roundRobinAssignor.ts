/**
 * The classic `RoundRobinAssignor` (`roundrobin`): every partition of every subscribed topic in
 * one list sorted by topic name then number, dealt round the members sorted by id; a member that
 * does not subscribe to a partition's topic is skipped, and the position carries on from topic to
 * topic. Not sticky, and with unequal subscriptions not necessarily balanced.
 */
import { compareStrings, type ClassicAssignment, type ClassicAssignor, type ClassicAssignorInput, StatelessClassicAssignor } from './types';

export class RoundRobinAssignor extends StatelessClassicAssignor implements ClassicAssignor {
  readonly name = 'roundrobin';

  assign({ partitionsPerTopic, subscriptions, partitions }: ClassicAssignorInput): ClassicAssignment {
    const assignment: ClassicAssignment = new Map();
    const members: string[] = [];
    for (const id of subscriptions.keys()) {
      assignment.set(id, []);
      members.push(id);
    }
    members.sort(compareStrings);
    const subscribed = members.map((id) => new Set(subscriptions.get(id)!.topics));
    const topics = new Set<string>();
    for (const s of subscriptions.values()) for (const t of s.topics) topics.add(t);
    let cursor = 0;
    for (const topic of [...topics].sort(compareStrings)) {
      const count = partitionsPerTopic.get(topic);
      if (count === undefined) continue;
      for (let p = 0; p < count; p++) {
        while (!subscribed[cursor].has(topic)) cursor = (cursor + 1) % members.length;
        assignment.get(members[cursor])!.push(partitions.get(topic, p));
        cursor = (cursor + 1) % members.length;
      }
    }
    return assignment;
  }
}
