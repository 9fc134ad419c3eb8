/** `key-routing route`: one JSON line per key per topic. */
import { single, type ParsedArgs } from './args';
import { keyFormat, lineKey, readStdinLines } from './io';
import { applyReported, topologyArgs } from './topologyArgs';
import { applyToGroupsReported, hasGroups } from './groups';
import { groupRouteFields } from '../engine/kafka/groupTopology';

export function routeCommand(args: ParsedArgs, write: (s: string) => void): void {
  const format = keyFormat(single(args, 'key-format'));
  const { topology, topics, events } = topologyArgs(args, false);
  for (const { text, event } of events) {
    // A member event on a Kafka topic that groups consume is the groups' (reported there), not the topic's.
    applyToGroupsReported(topology.groups, text, single(args, 'topic'));
    applyReported(event.kind === 'partitions' ? topics : topics.filter((t) => t.config.system === 'pulsar' || !hasGroups(topology.groups, t.name)), text, event);
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
