/**
 * `key-routing compare --config FILE --topic NAME --then EVENT`: the same change under AUTO_SPLIT
 * hash ranges, consistent hashing (3.0 and 4.0) and STICKY, for the topic's configured consumers.
 */
import { compareStrategies } from '../engine/strategyComparison';
import { MAX_RING_POINTS } from '../engine/settings';
import { PulsarTopicState } from '../engine/topology';
import { UsageError, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { topologyArgs } from './topologyArgs';
import type { CommandSpec } from './command';
import { CONFIG, THEN, TOPIC } from './commonOptions';
import { compareTable } from './tableViews';

export function compareCommand(args: ParsedArgs, write: (s: string) => void, io: CliIo): void {
  const { topics, events } = topologyArgs(io, args, true);
  const topic = topics[0];
  if (!(topic instanceof PulsarTopicState) || !topic.config.subscription) {
    throw new UsageError(`--topic ${topic.name}: compare needs a Pulsar topic with a Key_Shared subscription`);
  }
  if (events.length !== 1) throw new UsageError('--then: compare takes exactly one event (a consumer joining or leaving)');
  const event = events[0].event;
  if (event.kind === 'partitions') throw new UsageError('--then: compare takes a consumer event (+NAME, +NAME:START-END,..., -ID), not partitions=N');
  const sub = topic.config.subscription;
  // The configured consumers, as the topic connected them (the broker's refusals were reported).
  const consumers = sub.consumers.map((c) => (c.ranges ? { name: c.name, ranges: c.ranges } : { name: c.name }));
  // The settings bound rings only where the subscription is one; here both ring generations are
  // built from any subscription's replicaPoints (10,000 x 10,000 ran for minutes and 6 GB).
  const points = (consumers.length + (event.kind === 'connect' ? 1 : 0)) * sub.replicaPoints;
  if (points > MAX_RING_POINTS) {
    throw new UsageError(`--topic ${topic.name}: the consistent-hashing strategies would put ${points} points on a ring (replicaPoints ${sub.replicaPoints} for each of ${points / sub.replicaPoints} consumers); at most ${MAX_RING_POINTS} are supported: lower replicaPoints`);
  }
  const result = compareStrategies({
    consumers,
    event,
    brokerVersion: topic.config.brokerVersion,
    replicaPoints: sub.replicaPoints,
    hashRangeSize: sub.hashRangeSize,
  });
  write(JSON.stringify({ topic: topic.name, ...result }) + '\n');
}

export const compareSpec: CommandSpec = {
  name: 'compare',
  summary: 'One consumer change under each Key_Shared strategy: AUTO_SPLIT hash ranges, consistent hashing 3.0 and 4.0, STICKY.',
  options: [CONFIG, { ...TOPIC, required: true }, { ...THEN, required: true, description: 'The change, exactly one: +NAME (a consumer connects), +NAME:START-END,... (STICKY) or -ID (disconnects).' }],
  examples: ['key-routing compare --topic payments --then +C5'],
  run: compareCommand,
  table: compareTable,
};
