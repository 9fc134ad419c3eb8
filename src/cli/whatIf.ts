/** `key-routing what-if`: what each event moves, and where the given keys go before and after. */
import { runWhatIf } from '../engine/whatIf';
import { single, UsageError, type ParsedArgs } from './args';
import { keyFormat, lineKey, readStdinLines } from './io';
import { topologyArgs } from './topologyArgs';

export function whatIfCommand(args: ParsedArgs, write: (s: string) => void): void {
  const format = keyFormat(single(args, 'key-format'));
  const { topics, events } = topologyArgs(args, true);
  if (events.length === 0) throw new UsageError('--then is required: what-if needs at least one event');
  // Keys are optional: read stdin only when it is not a terminal.
  const lines = process.stdin.isTTY ? [] : readStdinLines();
  const keys = [];
  for (const line of lines) {
    try {
      keys.push(lineKey(line, format));
    } catch (e) {
      process.stderr.write(`key-routing: key ${JSON.stringify(new TextDecoder().decode(line))}: ${(e as Error).message}\n`);
    }
  }
  const result = runWhatIf(topics[0], events.map((e) => e.event), keys);
  write(JSON.stringify(result) + '\n');
}
