/** Consumer groups on the command line: `--group`, and `--then` events applied to groups. */
import type { ConsumerGroupState } from '../engine/kafka/consumerGroup';
import { applyGroupEvent } from '../engine/kafka/groupTopology';
import type { Topology } from '../engine/topology';
import { single, UsageError, type ParsedArgs } from './args';

/** The group `--group` names (required). */
export function groupArg(args: ParsedArgs, topology: Topology, path: string): ConsumerGroupState {
  const name = single(args, 'group');
  if (name === undefined) throw new UsageError('--group is required');
  const g = topology.group(name);
  if (!g) {
    const names = topology.groups.map((x) => x.name).join(', ') || 'none';
    throw new UsageError(`--group: no group named ${JSON.stringify(name)} in ${path} (groups: ${names})`);
  }
  return g;
}

/**
 * Applies a `--then` event to the groups it concerns (see `applyGroupEvent`); each refusal goes to
 * stderr in one line and the run goes on. Returns how many groups the event concerned.
 */
export function applyToGroupsReported(groups: readonly ConsumerGroupState[], text: string, topic?: string): number {
  const results = applyGroupEvent(groups, text, topic, topic);
  for (const { group, outcome } of results) {
    if (!outcome.ok) process.stderr.write(`key-routing: --then ${text}: group ${group.name}: ${outcome.error}\n`);
  }
  return results.length;
}
