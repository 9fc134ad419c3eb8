/** `key-routing what-if`: what each event moves, and where the given keys go before and after. */
import { runWhatIf } from '../engine/whatIf';
import { explainWhatIf } from '../engine/ordering/whatIfExplain';
import { PulsarTopicState } from '../engine/topology';
import { single, UsageError, type ParsedArgs } from './args';
import { keyFormat, lineKey, readStdinLines } from './io';
import { topologyArgs } from './topologyArgs';
import { groupWhatIfCommand } from './groupWhatIf';

export function whatIfCommand(args: ParsedArgs, write: (s: string) => void): void {
  const format = keyFormat(single(args, 'key-format'));
  if (single(args, 'group') !== undefined) {
    groupWhatIfCommand(args, write, stdinKeys(format));
    return;
  }
  const { topics, events } = topologyArgs(args, true);
  if (events.length === 0) throw new UsageError('--then is required: what-if needs at least one event');
  const keys = stdinKeys(format);
  const topic = topics[0];
  // --explain: the state before the events, for the ordering notes.
  const explain = args.options.has('explain');
  const consumers = explain && topic instanceof PulsarTopicState ? [...(topic.subscription?.consumers ?? [])] : [];
  const owners = explain ? keys.map((k) => topic.route(k.key).consumer ?? null) : [];
  const result = runWhatIf(topic, events.map((e) => e.event), keys);
  if (!explain) {
    write(JSON.stringify(result) + '\n');
    return;
  }
  // Extra fields only: every field the contract names stays as it is.
  const notes = explainWhatIf(topic.config, consumers, events.map((e) => e.event), keys.map((k, i) => ({ ...k, owner: owners[i] })), result);
  const steps = result.steps.map((s, i) => ({ ...s, moves: notes.steps[i].moves, explain: notes.steps[i].explain }));
  const out: Record<string, unknown> = { steps, keys: result.keys };
  if (notes.generation) out.orderingGeneration = notes.generation;
  if (notes.assumption) out.orderingAssumption = notes.assumption;
  write(JSON.stringify(out) + '\n');
}

/** Keys are optional: stdin is read only when it is not a terminal; a bad key is reported and skipped. */
function stdinKeys(format: ReturnType<typeof keyFormat>): Array<ReturnType<typeof lineKey>> {
  const lines = process.stdin.isTTY ? [] : readStdinLines();
  const keys = [];
  for (const line of lines) {
    try {
      keys.push(lineKey(line, format));
    } catch (e) {
      process.stderr.write(`key-routing: key ${JSON.stringify(new TextDecoder().decode(line))}: ${(e as Error).message}\n`);
    }
  }
  return keys;
}
