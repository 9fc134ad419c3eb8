/** `key-routing route`: one JSON line per key per topic. */
import { single, type ParsedArgs } from './args';
import { keyFormat, lineKey, readStdinLines } from './io';
import { applyReported, topologyArgs } from './topologyArgs';
import { routeLine } from '../engine/topology';

export function routeCommand(args: ParsedArgs, write: (s: string) => void): void {
  const format = keyFormat(single(args, 'key-format'));
  const { topics, events } = topologyArgs(args, false);
  for (const { text, event } of events) applyReported(topics, text, event);
  for (const line of readStdinLines()) {
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
