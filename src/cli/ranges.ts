/** `key-routing ranges`: the selector's assignment of the key hash space, as one JSON object. */
import { UsageError, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { PulsarTopicState } from '../engine/topology';
import { applyReported, topologyArgs } from './topologyArgs';
import type { CommandSpec, Write } from './command';
import { CONFIG, THEN, TOPIC } from './commonOptions';
import { rangesTable } from './tableViews';

export function rangesCommand(args: ParsedArgs, write: Write, io: CliIo): void {
  const { topics, events } = topologyArgs(io, args, true);
  const topic = topics[0];
  if (!(topic instanceof PulsarTopicState) || !topic.subscription) {
    throw new UsageError(`--topic ${topic.name}: ranges needs a Pulsar topic with a Key_Shared subscription`);
  }
  for (const { text, event } of events) applyReported(io.stderr, topics, text, event);
  // Partition 0's selector: the reported layout while the subscription is as the broker reported it.
  const selector = topic.selectorFor(topic.partitions > 0 ? 0 : null);
  const out: Record<string, unknown> = {
    topic: topic.name,
    keyHashRange: selector.keyHashRange,
    assignments: selector.segments().map((s) => ({ start: s.start, end: s.end, consumers: s.consumers.map((c) => c.id) })),
  };
  const observed = topic.observed;
  if (observed?.current) {
    out.observed = true;
    const at = observed.groups[0].state.at;
    if (at !== undefined) out.at = at;
  } else if (observed) {
    const note = observed.note();
    if (note) out.note = note;
  }
  // One segment a point on a 3.x ring: ten million segments are more JSON than one string holds.
  write.record(out);
}

export const rangesSpec: CommandSpec = {
  name: 'ranges',
  summary: "How a Key_Shared subscription divides the key hash space among its consumers.",
  options: [CONFIG, { ...TOPIC, required: true }, THEN],
  details: [
    'JSON: {"topic", "keyHashRange": [lo, hi], "assignments": [{"start", "end", "consumers": [ids]}]}, ascending over the whole space (STICKY gaps with no consumers), adjacent segments of the same consumers merged.',
  ],
  examples: ['key-routing ranges --topic payments', 'key-routing ranges --topic payments --then +C5 --then -C1'],
  table: rangesTable,
  run: rangesCommand,
};
