/** `key-routing route`: one JSON line per key per topic. */
import { single, type ParsedArgs } from './args';
import { inputLines, keyFormat, lineKey } from './io';
import { applyReported, topologyArgs } from './topologyArgs';
import { routeLine } from '../engine/topology';
import type { CommandSpec } from './command';
import { CONFIG, KEY_FORMAT, KEYS_OPERAND, THEN, TOPIC } from './commonOptions';
import { routeTable } from './tableViews';

export function routeCommand(args: ParsedArgs, write: (s: string) => void): void {
  const format = keyFormat(single(args, 'key-format'));
  const { topics, events } = topologyArgs(args, false);
  for (const { text, event } of events) applyReported(topics, text, event);
  for (const line of inputLines(args, 'keys')) {
    let parsed;
    try {
      parsed = lineKey(line, format);
    } catch (e) {
      write(JSON.stringify({ key: new TextDecoder().decode(line), error: (e as Error).message }) + '\n');
      continue;
    }
    for (const t of topics) write(JSON.stringify(routeLine(parsed.shown, t.route(parsed.key))) + '\n');
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
  ],
  examples: ['key-routing route user-1 user-2', 'key-routing route --topic payments --then +C5 user-1', 'seq -f user-%g 1000 | key-routing route --topic orders > routes.jsonl'],
  table: routeTable,
  run: routeCommand,
};
