/**
 * What a consumer-group rebalance does to consumption and to per-key order, per protocol, for one
 * step of a group's history. The CLI (`what-if --group`) and the editor show this text; it is
 * written once, here.
 *
 * - eager (range, roundrobin, sticky): every member revokes all its partitions before it rejoins
 *   and waits for the leader's assignment: the whole group stops.
 * - cooperative (cooperative-sticky): members keep what they keep; a partition moving between two
 *   members is revoked in a first round and assigned in a follow-up round; only those pause.
 * - consumer (KIP-848: uniform, server-range): the coordinator computes a target; each member
 *   converges on its own, revoking before the new owner is given the partition.
 */
import { diffOwners, rebalanceProtocol, type AssignorName, type GroupStep, type OwnerChange, type RebalanceProtocol } from './consumerGroup';

/** `TopicPartition.toString()`: `orders-5`. */
export function partitionName(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}

export interface RebalanceRound {
  round: number;
  /** Per member, the partitions it gives up in this round. */
  revoked: Record<string, string[]>;
  /** Per member, the partitions it gets in this round. */
  assigned: Record<string, string[]>;
}

export interface RebalanceExplanation {
  protocol: RebalanceProtocol;
  /** What the group does, in a few sentences. */
  summary: string;
  /** Partitions not consumed while the rebalance runs: all of them (eager) or the moving ones. */
  paused: 'all' | string[];
  /** Cooperative: what each round revoked and assigned. */
  rounds?: RebalanceRound[];
  /** KIP-848: each member's revocations (done first) and assignments (once the partitions are free). */
  members?: Record<string, { revoke: string[]; assign: string[] }>;
  /** What it means for the order of each key's records. */
  keyOrder: string[];
}

/** Owner changes (`diffOwners`) as revoked (by their owner) and assigned (to their new owner). */
function revokedAndAssigned(changes: readonly OwnerChange[], present: ReadonlySet<string>): { revoked: Record<string, string[]>; assigned: Record<string, string[]> } {
  const revoked: Record<string, string[]> = {};
  const assigned: Record<string, string[]> = {};
  for (const { topic, partition, from, to } of changes) {
    if (from !== null && present.has(from)) (revoked[from] ??= []).push(partitionName(topic, partition));
    if (to !== null) (assigned[to] ??= []).push(partitionName(topic, partition));
  }
  return { revoked, assigned };
}

function list(names: readonly string[], max = 6): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Explains one step. `members` are the group's members after the step; `step.before` holds the
 * owners before it (its departed member's partitions still under its name).
 */
export function explainRebalance(assignor: AssignorName, step: GroupStep, members: ReadonlySet<string>): RebalanceExplanation {
  const protocol = rebalanceProtocol(assignor);
  const moved = step.changed.filter((c) => c.from !== null);
  const created = step.added;
  const departed = new Set(moved.map((c) => c.from!).filter((m) => !members.has(m)));
  const keyOrder = keyOrderNotes(step);

  if (protocol === 'eager') {
    return {
      protocol,
      summary:
        `Eager rebalance (${assignor}): every member stops consuming and gives up all its partitions (onPartitionsRevoked with everything) before it rejoins, ` +
        `and nothing is consumed until the leader's assignment arrives (SyncGroup). ${count(step.moved, 'partition')} of ${step.partitions} changed owner` +
        (created ? ` and ${count(created, 'new partition')} got one` : '') +
        `; the other partitions go back to the member that had them, but they paused too.`,
      paused: 'all',
      keyOrder,
    };
  }

  if (protocol === 'cooperative') {
    const rounds: RebalanceRound[] = [];
    let prev = step.before;
    step.rounds.forEach((owners, i) => {
      rounds.push({ round: i + 1, ...revokedAndAssigned(diffOwners(prev, owners), members) });
      prev = owners;
    });
    const transferring = step.rounds.length > 1 ? revokedAndAssigned(diffOwners(step.before, step.rounds[0]), members).revoked : {};
    const paused = Object.values(transferring).flat();
    const fromDeparted = moved.filter((c) => departed.has(c.from!)).map((c) => partitionName(c.topic, c.partition));
    let summary = `Cooperative rebalance (${assignor}): members keep consuming the partitions they keep. `;
    if (step.rounds.length > 1) {
      summary +=
        `Round 1 leaves out of the assignment the partitions moving between members: ${Object.entries(transferring)
          .map(([m, ps]) => `${m} revokes ${list(ps)}`)
          .join('; ')}. ` + 'Having revoked partitions, those members rejoin, and round 2 assigns them to their new owners; only they pause, from the revocation in round 1 to the assignment in round 2.';
    } else {
      summary += 'Nothing had to move between two members, so one round does it.';
    }
    if (fromDeparted.length) summary += ` The partitions of ${list([...departed])} (${list(fromDeparted)}) are free and assigned in round 1.`;
    if (created) summary += ` The ${count(created, 'new partition')} ${created === 1 ? 'is' : 'are'} assigned in round 1.`;
    return { protocol, summary, paused, rounds, keyOrder };
  }

  // KIP-848: one target, reconciled member by member (the step's own changes: before to after).
  const { revoked, assigned } = revokedAndAssigned(step.changed, members);
  const perMember: Record<string, { revoke: string[]; assign: string[] }> = {};
  for (const m of new Set([...Object.keys(revoked), ...Object.keys(assigned)])) perMember[m] = { revoke: revoked[m] ?? [], assign: assigned[m] ?? [] };
  const waiting = moved.filter((c) => c.to !== null && members.has(c.from!)).map((c) => partitionName(c.topic, c.partition));
  return {
    protocol,
    summary:
      `KIP-848 rebalance (${assignor === 'server-range' ? 'range' : assignor}, group.protocol=consumer): the coordinator bumps the group epoch and computes a new target assignment; ` +
      'there is no group-wide barrier. Each member converges through its heartbeats: it first revokes what it must give up (commits, onPartitionsRevoked) and reports that, and only then ' +
      'does the coordinator give those partitions to their new owners (a member waiting for them is UNRELEASED_PARTITIONS). Partitions that stay keep being consumed.' +
      (waiting.length ? ` Paused while they change hands: ${list(waiting)}.` : ''),
    paused: waiting,
    members: perMember,
    keyOrder,
  };
}

function keyOrderNotes(step: GroupStep): string[] {
  const notes: string[] = [];
  if (step.change === 'partitions') {
    notes.push(
      'More partitions change which partition most keys go to (the partitioner works modulo the count): a key\'s new records can land on another partition than its earlier ones ' +
        'and be consumed before them, by another member. Per-key order across the change is not kept.',
    );
  }
  if (step.moved > 0) {
    notes.push(
      'A partition moves whole, so all keys of a moved partition follow it to the new member and each key\'s records keep their order. ' +
        'Records the old owner processed but did not commit are processed again by the new owner, which starts at the last committed offset (at-least-once: duplicates, not reordering).',
    );
  } else if (step.change !== 'partitions') {
    notes.push('No partition changed owner: every key stays with its member.');
  }
  return notes;
}
