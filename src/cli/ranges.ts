/** `key-routing ranges`: the selector's assignment of the key hash space, as one JSON object. */
import { UsageError, type ParsedArgs } from './args';
import { PulsarTopicState } from '../engine/topology';
import { applyReported, topologyArgs } from './topologyArgs';

export function rangesCommand(args: ParsedArgs, write: (s: string) => void): void {
  const { topics, events } = topologyArgs(args, true);
  const topic = topics[0];
  if (!(topic instanceof PulsarTopicState) || !topic.subscription) {
    throw new UsageError(`--topic ${topic.name}: ranges needs a Pulsar topic with a Key_Shared subscription`);
  }
  for (const { text, event } of events) applyReported(topics, text, event);
  const selector = topic.subscription.selector;
  write(
    JSON.stringify({
      topic: topic.name,
      keyHashRange: selector.keyHashRange,
      assignments: selector.segments().map((s) => ({ start: s.start, end: s.end, consumers: s.consumers.map((c) => c.id) })),
    }) + '\n',
  );
}
