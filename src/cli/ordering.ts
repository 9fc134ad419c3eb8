/**
 * `key-routing ordering --input FILE [--generation 3.0|3.1|4.0]`: the ordering simulation for a
 * scenario file (see `src/engine/ordering/types.ts`; optional "steps": acks, dispatch rounds,
 * published messages, further changes). Output: `{"initial", "steps"}` (see
 * `explainOrderingSteps`); without a generation in the file or the option, one such object per
 * generation, keyed "3.0", "3.1", "4.0".
 */
import { explainOrderingSteps, parseScenario, parseSteps, ScenarioError, ORDERING_GENERATIONS, type OrderingGeneration } from '../engine/ordering';
import { required, single, UsageError, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { readJsonFile } from './io';
import type { CommandSpec } from './command';

export function orderingCommand(args: ParsedArgs, write: (s: string) => void, io: CliIo): void {
  const path = required(args, 'input');
  const raw = readJsonFile(io, path, '--input');
  const g = single(args, 'generation');
  if (g !== undefined && !ORDERING_GENERATIONS.includes(g as OrderingGeneration)) {
    throw new UsageError(`--generation must be one of ${ORDERING_GENERATIONS.join(', ')} (got ${JSON.stringify(g)})`);
  }
  try {
    const given = (raw as { generation?: unknown } | null)?.generation ?? g;
    const steps = parseSteps((raw as { steps?: unknown } | null)?.steps);
    if (given === undefined) {
      // One report per generation, keyed by it.
      const out: Record<string, unknown> = {};
      for (const gen of ORDERING_GENERATIONS) out[gen] = explainOrderingSteps(parseScenario(raw, gen), steps);
      write(JSON.stringify(out) + '\n');
      return;
    }
    const scenario = parseScenario({ ...(raw as object), generation: g ?? given });
    write(JSON.stringify(explainOrderingSteps(scenario, steps)) + '\n');
  } catch (e) {
    if (e instanceof ScenarioError) throw new UsageError(`--input ${path}: ${e.message}`);
    throw e;
  }
}

export const orderingSpec: CommandSpec = {
  name: 'ordering',
  summary: 'After a change, what each consumer may receive next, and why (the broker keeping per-key order).',
  options: [
    { name: 'input', value: 'FILE', required: true, description: 'The scenario (JSON): consumers, the change, and optional steps (acks, dispatch rounds, messages).' },
    { name: 'generation', value: '3.0|3.1|4.0', description: 'The broker generation; default: the scenario\'s, else all three.' },
  ],
  examples: ['key-routing ordering --input scenario.json --generation 4.0'],
  run: orderingCommand,
};
