/** `key-routing ranges`: the selector's assignment of the key hash space, as one JSON object. */
import { single, UsageError, type ParsedArgs } from './args';
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
  // Partition 0's selector unless --partition names another: partitions reported differently
  // (observedPartitions) and those a partitions=N event added have selectors of their own. The
  // reported layout while the subscription is as the broker reported it.
  const partition = partitionArg(single(args, 'partition'), topic);
  const shown = topic.partitions > 0 ? (partition ?? 0) : null;
  const selector = topic.selectorFor(shown);
  const out: Record<string, unknown> = {
    topic: topic.name,
    ...(partition !== undefined ? { partition } : {}),
    keyHashRange: selector.keyHashRange,
    assignments: selector.segments().map((s) => ({ start: s.start, end: s.end, consumers: s.consumers.map((c) => c.id) })),
  };
  const observed = topic.observed;
  // The report of the partition's group, if it still describes it.
  const g = topic.groupOf(shown);
  if (observed?.reports(g)) {
    out.observed = true;
    const at = observed.groups.get(g)!.state.at;
    if (at !== undefined) out.at = at;
  } else if (observed) {
    const note = observed.note();
    if (note) out.note = note;
  }
  // One segment a point on a 3.x ring: ten million segments are more JSON than one string holds.
  write.record(out);
}

/** `--partition N`: an index of the topic's partitions (after the events), or undefined when not given. */
function partitionArg(given: string | undefined, topic: PulsarTopicState): number | undefined {
  if (given === undefined) return undefined;
  if (topic.partitions === 0) throw new UsageError(`--partition: ${topic.name} is not partitioned; leave --partition out`);
  if (!/^\d+$/.test(given) || Number(given) >= topic.partitions) {
    throw new UsageError(`--partition must be a partition of ${topic.name}, 0 to ${topic.partitions - 1} (got ${JSON.stringify(given)})`);
  }
  return Number(given);
}

export const rangesSpec: CommandSpec = {
  name: 'ranges',
  summary: "How a Key_Shared subscription divides the key hash space among its consumers.",
  options: [
    CONFIG,
    { ...TOPIC, required: true },
    THEN,
    {
      name: 'partition',
      value: 'N',
      description: "The partition whose selector to show (default 0). Partitions share one unless the broker reported them differently (observedPartitions) or a partitions=N event added them.",
    },
  ],
  details: [
    'JSON: {"topic", "keyHashRange": [lo, hi], "assignments": [{"start", "end", "consumers": [ids]}]}, ascending over the whole space (STICKY gaps with no consumers), adjacent segments of the same consumers merged; with --partition, "partition" after "topic".',
  ],
  examples: ['key-routing ranges --topic payments', 'key-routing ranges --topic payments --then +C5 --then -C1', 'key-routing ranges --topic payments --partition 2'],
  table: rangesTable,
  run: rangesCommand,
};
