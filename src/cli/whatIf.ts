/** `key-routing what-if`: what each event moves, and where the given keys go before and after. */
import { runWhatIf } from '../engine/whatIf';
import { explainWhatIf } from '../engine/ordering/whatIfExplain';
import { PulsarTopicState, routeLine, type RouteFields } from '../engine/topology';
import { single, UsageError, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { inputLines, keyFormat, lineKey } from './io';
import { topologyArgs } from './topologyArgs';
import { groupWhatIfCommand } from './groupWhatIf';
import type { CommandSpec } from './command';
import { CONFIG, GROUP, KEY_FORMAT, THEN, TOPIC } from './commonOptions';
import { whatIfTable } from './tableViews';
import { groupWhatIfTable, isGroupWhatIf } from './groupTables';

export function whatIfCommand(args: ParsedArgs, write: (s: string) => void, io: CliIo): void {
  const format = keyFormat(single(args, 'key-format'));
  if (single(args, 'group') !== undefined) {
    groupWhatIfCommand(io, args, write, optionalKeys(io, args, format));
    return;
  }
  const { topics, events } = topologyArgs(io, args, true);
  if (events.length === 0) throw new UsageError('--then is required: what-if needs at least one event');
  const keys = optionalKeys(io, args, format);
  const topic = topics[0];
  // --explain: the state before the events, for the ordering notes.
  const explain = args.options.has('explain');
  const consumers = explain && topic instanceof PulsarTopicState ? [...(topic.subscription?.consumers ?? [])] : [];
  const owners = explain ? keys.map((k) => topic.route(k.key).consumer ?? null) : [];
  const result = runWhatIf(topic, events.map((e) => e.event), keys);
  // A key the topic's serializer refuses is `{key, topic, error}` before and after.
  const line = ({ key, ...r }: RouteFields & { key: string }) => routeLine(key, r);
  const outKeys = result.keys.map((k) => ({ key: k.key, before: line(k.before), after: line(k.after), moved: k.moved }));
  if (!explain) {
    // The observed-state note (CONTRACT.md section 4) leads, as runWhatIf puts it.
    write(JSON.stringify(result.note ? { note: result.note, steps: result.steps, keys: outKeys } : { steps: result.steps, keys: outKeys }) + '\n');
    return;
  }
  // Extra fields only: every field the contract names stays as it is.
  const notes = explainWhatIf(topic.config, consumers, events.map((e) => e.event), keys.map((k, i) => ({ ...k, owner: owners[i] })), result);
  const steps = result.steps.map((s, i) => ({ ...s, moves: notes.steps[i].moves, explain: notes.steps[i].explain }));
  const out: Record<string, unknown> = result.note ? { note: result.note, steps, keys: outKeys } : { steps, keys: outKeys };
  if (notes.generation) out.orderingGeneration = notes.generation;
  if (notes.assumption) out.orderingAssumption = notes.assumption;
  write(JSON.stringify(out) + '\n');
}

/** Keys are optional: the arguments, else stdin where it is not a terminal; a bad key is reported and skipped. */
function optionalKeys(io: CliIo, args: ParsedArgs, format: ReturnType<typeof keyFormat>): Array<ReturnType<typeof lineKey>> {
  const lines = args.operands.length > 0 || !io.stdin.isTTY ? inputLines(io, args, 'keys') : [];
  const keys = [];
  for (const line of lines) {
    try {
      keys.push(lineKey(line, format));
    } catch (e) {
      io.stderr.write(`key-routing: key ${JSON.stringify(new TextDecoder().decode(line))}: ${(e as Error).message}\n`);
    }
  }
  return keys;
}

export const whatIfSpec: CommandSpec = {
  name: 'what-if',
  summary: 'What a change moves: the hash ranges each consumer loses and gains (or a Kafka group\'s partitions), and where given keys go before and after.',
  operands: { name: 'KEY', description: 'Keys to follow through the changes (optional). Without any, stdin unless it is a terminal.' },
  options: [
    CONFIG,
    { ...TOPIC, description: `${TOPIC.description} Required without --group; with it, the group's topic that partitions=N changes.` },
    { ...THEN, required: true },
    KEY_FORMAT,
    { name: 'explain', description: 'Add what the broker does to keep per-key order while ranges move (moves, explain, orderingGeneration).' },
    { ...GROUP, description: `${GROUP.description} Each event is one rebalance of that group.` },
  ],
  details: [
    'JSON: {"steps": [{"event", "lost": {id: [[start, end]]}, "gained": {...}, "movedFraction"}], "keys": [{"key", "before", "after", "moved"}]}; a refused event has an "error" in its step.',
    'With --group: {"group", "assignor", "protocol", "steps": [{"event", "moved": [{"topic", "partition", "from", "to"}], "added", "movedFraction", "rebalance", "keys"}], "keys"}: per rebalance the partitions that changed owner, the given keys that changed member, and what the protocol does to consumption and per-key order. Group events: +ID, +ID:TOPIC,... (joins, or changes a member\'s subscription), -ID, partitions=N (with --topic). Past 200,000 partitions over the group\'s topics "moved" and "added" are left out (a "note" says so); movedFraction and the rebalance text still count them.',
  ],
  examples: [
    'key-routing what-if --topic payments --then +C5',
    'key-routing what-if --topic orders --then partitions=12 user-1 user-2',
    'key-routing what-if --group billing --then +m4 --then -m1 user-1',
  ],
  table: (records, style) => (isGroupWhatIf(records) ? groupWhatIfTable(records, style) : whatIfTable(records, style)),
  run: whatIfCommand,
};
