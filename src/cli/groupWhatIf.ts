/** `key-routing what-if --group NAME`: a rebalance what-if for a Kafka consumer group. */
import { runGroupWhatIf } from '../engine/kafka/groupWhatIf';
import type { MessageKey } from '../engine/key';
import type { KafkaTopicState } from '../engine/topology';
import { UsageError, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { groupArgs } from './groups';

export function groupWhatIfCommand(io: CliIo, args: ParsedArgs, write: (s: string) => void, keys: Array<{ shown: string; key: MessageKey }>): void {
  const { topology, group, topic, events } = groupArgs(io, args);
  if (events.length === 0) throw new UsageError('--then is required: what-if needs at least one event');
  const topics = new Map<string, KafkaTopicState>();
  for (const t of group.config.topics) topics.set(t, topology.topic(t) as KafkaTopicState);
  write(JSON.stringify(runGroupWhatIf(group, topics, events.map((e) => e.text), keys, topic)) + '\n');
}
