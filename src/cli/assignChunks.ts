/**
 * `key-routing assign-chunks --input FILE`: the Shared-subscription dispatch of chunked messages,
 * round by round, with the uuid pins and the dispatcher's round-robin position carried over.
 * Output: `{"rounds": [{"assigned": {consumer: [ids]}, "unassigned": [ids], "uuidToConsumer": {uuid: consumer}}]}`.
 */
import { isObject } from '../engine/jsonObject';
import { required, UsageError, type ParsedArgs } from './args';
import type { CliIo } from './cliIo';
import { readJsonFile } from './io';
import { array, fail, javaInt, record, string } from './inputCheck';
import { show } from '../engine/settings';
import { SharedConsumerAssignor, type AssignorConsumer, type ChunkEntry, type EntryId } from '../engine/pulsar/sharedConsumerAssignor';
import type { CommandSpec } from './command';

export function assignChunksCommand(args: ParsedArgs, write: (s: string) => void, io: CliIo): void {
  const file = required(args, 'input');
  const input = readJsonFile(io, file, '--input');
  if (!isObject<unknown>(input)) throw new UsageError(`--input ${file}: must be a JSON object {"consumers", "rounds"} (got ${show(input)})`);
  const consumers = parseConsumers(input.consumers);
  const rounds = array(input.rounds, 'rounds', 'of {"entries": [...]}').map((r, i) => parseEntries(r, `rounds[${i}]`));

  const assignor = new SharedConsumerAssignor(consumers);
  const out = rounds.map((entries, i) => {
    const r = assignor.assign(entries);
    if (r.released.length > 0) {
      io.stderr.write(
        `key-routing: note: rounds[${i}]: no consumer has permits, so the broker (3.0) releases all ${r.released.length} entries without assigning them or queueing them for replay\n`,
      );
    }
    return {
      assigned: Object.fromEntries(r.assigned),
      unassigned: r.unassigned,
      uuidToConsumer: Object.fromEntries(r.uuidToConsumer),
    };
  });
  write(JSON.stringify({ rounds: out }) + '\n');
}

function parseConsumers(v: unknown): AssignorConsumer[] {
  const seen = new Map<string, number>();
  return array(v, 'consumers', 'of {"consumer", "availablePermits"} in the dispatcher\'s selection order').map((c, i) => {
    const path = `consumers[${i}]`;
    const o = record(c, path, 'with "consumer" and "availablePermits"');
    const consumer = string(o.consumer, `${path}.consumer`);
    if (consumer === '') fail(`${path}.consumer`, 'must be a non-empty string');
    const first = seen.get(consumer);
    if (first !== undefined) fail(`${path}.consumer`, `duplicate consumer ${JSON.stringify(consumer)} (also consumers[${first}]); give each consumer a distinct id`);
    seen.set(consumer, i);
    return { consumer, availablePermits: javaInt(o.availablePermits, `${path}.availablePermits`) };
  });
}

function parseEntries(r: unknown, path: string): ChunkEntry[] {
  const o = record(r, path, 'with "entries"');
  return array(o.entries, `${path}.entries`, 'of {"id", "uuid", "chunkId", "numChunks"}').map((e, j) => {
    const ep = `${path}.entries[${j}]`;
    const x = record(e, ep, 'with an "id"');
    const id = x.id;
    if (!((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id)))) {
      fail(`${ep}.id`, `must be a non-empty string or a number (got ${show(id)})`);
    }
    const entry: ChunkEntry = { id: id as EntryId };
    if (x.uuid !== undefined) entry.uuid = string(x.uuid, `${ep}.uuid`);
    if (x.chunkId !== undefined) entry.chunkId = javaInt(x.chunkId, `${ep}.chunkId`);
    if (x.numChunks !== undefined) entry.numChunks = javaInt(x.numChunks, `${ep}.numChunks`);
    return entry;
  });
}

export const assignChunksSpec: CommandSpec = {
  name: 'assign-chunks',
  summary: 'How a Shared subscription dispatches chunked messages to consumers, round by round.',
  options: [
    {
      name: 'input',
      value: 'FILE',
      required: true,
      description: 'The rounds (JSON): {"consumers": [{"consumer", "availablePermits"}], "rounds": [{"entries": [{"id", "uuid", "chunkId", "numChunks"}]}]}.',
    },
  ],
  examples: ['key-routing assign-chunks --input chunks.json'],
  run: assignChunksCommand,
};
