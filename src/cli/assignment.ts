/**
 * `key-routing assignment --config FILE --group NAME [--then EVENT]... [--topic NAME]`: the group's
 * owners after the events, `{"group", "assignor", "owners": {"orders": ["m1", ...]}}` (`null` for
 * an unowned partition). Without events and with an `observed` block: the observed owners.
 */
import { required, single, UsageError, type ParsedArgs } from './args';
import { loadSettings, reportProblems } from './io';
import { groupArg } from './groups';
import { parseGroupEvent } from '../engine/kafka/consumerGroup';
import type { Problem } from '../engine/settings';
import { KafkaTopicState, Topology } from '../engine/topology';

export function assignmentCommand(args: ParsedArgs, write: (s: string) => void): void {
  const path = required(args, 'config');
  const problems: Problem[] = [];
  const topology = new Topology(loadSettings(path), problems);
  reportProblems(problems);
  const group = groupArg(args, topology, path);
  const topic = single(args, 'topic');
  if (topic !== undefined && !group.config.topics.includes(topic)) {
    throw new UsageError(`--topic: group ${group.name} does not subscribe to ${JSON.stringify(topic)} (its topics: ${group.config.topics.join(', ')})`);
  }
  const events = args.options.get('then') ?? [];
  for (const text of events) {
    const e = parseGroupEvent(text, topic);
    if (typeof e === 'string') throw new UsageError(`--then: ${e}${/partitions=/.test(text) ? ' (give it with --topic)' : ''}`);
  }
  for (const text of events) {
    const e = parseGroupEvent(text, topic);
    if (typeof e === 'string') continue;
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
