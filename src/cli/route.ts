/** `key-routing route`: one JSON line per key per topic. */
import { single, type ParsedArgs } from './args';
import { keyFormat, lineKey, readStdinLines } from './io';
import { applyReported, topologyArgs } from './topologyArgs';
import { applyToGroupsReported } from './groups';
import { groupRouteFields } from '../engine/kafka/groupTopology';

export function routeCommand(args: ParsedArgs, write: (s: string) => void): void {
  const format = keyFormat(single(args, 'key-format'));
  const { topology, topics, events } = topologyArgs(args, false);
  for (const { text, event } of events) {
    // A member event that some Kafka group takes is the group's, not a Pulsar consumer's on a Kafka topic.
    const taken = applyToGroupsReported(topology.groups, text, single(args, 'topic'));
    applyReported(event.kind !== 'partitions' && taken > 0 ? topics.filter((t) => t.config.system === 'pulsar') : topics, text, event);
  }
  for (const line of readStdinLines()) {
    let parsed;
    try {
      parsed = lineKey(line, format);
    } catch (e) {
      write(JSON.stringify({ key: new TextDecoder().decode(line), error: (e as Error).message }) + '\n');
      continue;
    }
    for (const t of topics) {
      const route = t.route(parsed.key);
      write(JSON.stringify({ key: parsed.shown, ...route, ...groupRouteFields(topology.groups, route) }) + '\n');
    }
  }
}
