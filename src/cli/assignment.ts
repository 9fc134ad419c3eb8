/**
 * `key-routing assignment --config FILE --group NAME [--then EVENT]... [--topic NAME]`: the group's
 * owners after the events, `{"group", "assignor", "owners": {"orders": ["m1", ...]}}` (`null` for
 * an unowned partition). Without events and with an `observed` block: the observed owners.
 */
import { UsageError, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { groupArgs } from './groups';
import { KafkaTopicState } from '../engine/topology';
import type { CommandSpec } from './command';
import { CONFIG, GROUP, TOPIC } from './commonOptions';
import { assignmentTable } from './groupTables';

export function assignmentCommand(args: ParsedArgs, write: (s: string) => void, io: CliIo): void {
  const { topology, group, events } = groupArgs(io, args);
  for (const { text, event: e } of events) {
    if (e.kind === 'partitions') {
      // The topic itself grows first; Kafka refuses a shrink there already.
      const t = topology.topic(e.topic);
      if (t instanceof KafkaTopicState) {
        const r = t.apply({ kind: 'partitions', count: e.count });
        if (!r.ok) {
          io.stderr.write(`key-routing: --then ${text}: ${t.name}: ${r.error}\n`);
          continue;
        }
      }
    }
    const r = group.apply(e);
    if (!r.ok) io.stderr.write(`key-routing: --then ${text}: group ${group.name}: ${r.error}\n`);
  }
  const owners = group.owners();
  if (typeof owners === 'string') throw new UsageError(`assignment: ${owners}`);
  const out: Record<string, unknown> = { group: group.name, assignor: group.assignor, owners: Object.fromEntries(owners) };
  if (group.observed) out.observed = true;
  const notes = group.notes();
  if (notes.length) out.note = notes.join('; ');
  write(JSON.stringify(out) + '\n');
}

export const assignmentSpec: CommandSpec = {
  name: 'assignment',
  summary: 'A Kafka consumer group\'s partition owners, after the given rebalances.',
  options: [
    CONFIG,
    { ...GROUP, required: true },
    { name: 'then', value: 'EVENT', repeatable: true, description: 'A rebalance, applied in order: +ID (a member joins with the group\'s topics), +ID:TOPIC,... (joins with those, or changes a member\'s subscription), -ID (leaves), partitions=N (needs --topic).' },
    { ...TOPIC, description: 'The group\'s topic that partitions=N changes.' },
  ],
  details: [
    'JSON: {"group", "assignor", "owners": {"orders": ["m1", "m1", "m2", ...]}}: owners[topic][p] is the member consuming partition p (null: nobody). Without events, a group with an observed block prints the observed owners and "observed": true. A uniform group whose topics give no topicId adds a "note": its result depends on the topic ids.',
  ],
  examples: ['key-routing assignment --group billing', 'key-routing assignment --group billing --then +m4 --then -m1', 'key-routing assignment --group billing --topic orders --then partitions=12'],
  table: assignmentTable,
  run: assignmentCommand,
};
