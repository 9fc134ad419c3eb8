/**
 * `key-routing assignment --config FILE --group NAME [--then EVENT]... [--topic NAME]`: the group's
 * owners after the events, `{"group", "assignor", "owners": {"orders": ["m1", ...]}}` (`null` for
 * an unowned partition). Without events and with an `observed` block: the observed owners.
 */
import { UsageError, type ParsedArgs } from './args';
import { groupArgs } from './groups';
import { KafkaTopicState } from '../engine/topology';

export function assignmentCommand(args: ParsedArgs, write: (s: string) => void): void {
  const { topology, group, events } = groupArgs(args);
  for (const { text, event: e } of events) {
    if (e.kind === 'partitions') {
      // The topic itself grows first; Kafka refuses a shrink there already.
      const t = topology.topic(e.topic);
      if (t instanceof KafkaTopicState) {
        const r = t.apply({ kind: 'partitions', count: e.count });
        if (!r.ok) {
          process.stderr.write(`key-routing: --then ${text}: ${t.name}: ${r.error}\n`);
          continue;
        }
      }
    }
    const r = group.apply(e);
    if (!r.ok) process.stderr.write(`key-routing: --then ${text}: group ${group.name}: ${r.error}\n`);
  }
  const owners = group.owners();
  if (typeof owners === 'string') throw new UsageError(`assignment: ${owners}`);
  const out: Record<string, unknown> = { group: group.name, assignor: group.assignor, owners: Object.fromEntries(owners) };
  if (group.observed) out.observed = true;
  const notes = group.notes();
  if (notes.length) out.note = notes.join('; ');
  write(JSON.stringify(out) + '\n');
}
