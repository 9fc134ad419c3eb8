/** `key-routing what-if --group NAME`: a rebalance what-if for a Kafka consumer group. */
import { runGroupWhatIf } from '../engine/kafka/groupWhatIf';
import { parseGroupEvent } from '../engine/kafka/consumerGroup';
import type { MessageKey } from '../engine/key';
import type { Problem } from '../engine/settings';
import { KafkaTopicState, Topology } from '../engine/topology';
import { required, single, UsageError, type ParsedArgs } from './args';
import { groupArg } from './groups';
import { loadSettings, reportProblems } from './io';

export function groupWhatIfCommand(args: ParsedArgs, write: (s: string) => void, keys: Array<{ shown: string; key: MessageKey }>): void {
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
  if (events.length === 0) throw new UsageError('--then is required: what-if needs at least one event');
  for (const text of events) {
    const e = parseGroupEvent(text, topic);
    if (typeof e === 'string') throw new UsageError(`--then: ${e}${/partitions=/.test(text) ? ' (give it with --topic)' : ''}`);
  }
  const topics = new Map<string, KafkaTopicState>();
  for (const t of group.config.topics) topics.set(t, topology.topic(t) as KafkaTopicState);
  write(JSON.stringify(runGroupWhatIf(group, topics, events, keys, topic)) + '\n');
}
