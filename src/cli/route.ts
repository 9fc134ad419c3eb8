/** `key-routing route`: one JSON line per key per topic. */
import { single, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { inputLines, keyFormat, lineKey } from './io';
import { applyReported, topologyArgs } from './topologyArgs';
import { routeLine } from '../engine/topology';
import { groupRouteFields } from '../engine/kafka/groupTopology';
import { applyToGroupsReported, hasGroups } from './groups';
import type { CommandSpec } from './command';
import { CONFIG, KEY_FORMAT, KEYS_OPERAND, THEN, TOPIC } from './commonOptions';
import { routeTable } from './tableViews';

export function routeCommand(args: ParsedArgs, write: (s: string) => void, io: CliIo): void {
  const format = keyFormat(single(args, 'key-format'));
  const { topology, topics, events } = topologyArgs(io, args, false);
  const topic = single(args, 'topic') === undefined ? undefined : topics[0].name;
  for (const { text, event } of events) {
    // A member event on a Kafka topic that groups consume is the groups' (reported there), not the topic's.
    applyToGroupsReported(io.stderr, topology.groups, text, topic);
    applyReported(
      io.stderr,
      event.kind === 'partitions' ? topics : topics.filter((t) => t.config.system === 'pulsar' || !hasGroups(topology.groups, t.name)), text, event);
  }
  for (const line of inputLines(io, args, 'keys')) {
    let parsed;
    try {
      parsed = lineKey(line, format);
    } catch (e) {
      write(JSON.stringify({ key: new TextDecoder().decode(line), error: (e as Error).message }) + '\n');
      continue;
    }
    for (const t of topics) {
      const route = t.route(parsed.key);
      write(JSON.stringify(routeLine(parsed.shown, { ...route, ...groupRouteFields(topology.groups, route) })) + '\n');
    }
  }
}

export const routeSpec: CommandSpec = {
  name: 'route',
  summary: 'Where each key goes: the partition, and on a Key_Shared subscription the consumer and its hash range.',
  operands: KEYS_OPERAND,
  options: [CONFIG, TOPIC, KEY_FORMAT, THEN],
  details: [
    'JSON: one line per key per topic, topics in settings order: key, topic, system, partition; Kafka adds hash, Pulsar stickyKeyHash, consumer and range. A key that cannot be routed (bad hex) gives {"key", "error"} and the run goes on.',
    'Client choices (settings partitioner, hashingScheme, producers, keySerializer): partition is null with a note where the client picks at random or ignores the key; keyHex is a typed key\'s bytes; byProducer and disagree say where each listed producer puts the key; a key the serializer cannot take gives {"key", "topic", "error"}.',
    'Kafka consumer groups (settings kafkaGroups): a Kafka topic\'s lines add "groups": {"billing": "m2"}, the member of each group consuming the key\'s partition (null while nobody owns it, or where the partition is not fixed), and "observed": true where that comes from the group\'s observed block. --then +ID, +ID:TOPIC,... and -ID on such a topic are rebalances of its groups.',
  ],
  examples: ['key-routing route user-1 user-2', 'key-routing route --topic payments --then +C5 user-1', 'seq -f user-%g 1000 | key-routing route --topic orders > routes.jsonl'],
  table: routeTable,
  run: routeCommand,
};
