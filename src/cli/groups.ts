/** Consumer groups on the command line: `--group`, and `--then` events applied to groups. */
import { parseGroupEvent, type ConsumerGroupState, type GroupEvent } from '../engine/kafka/consumerGroup';
import { applyGroupEvent } from '../engine/kafka/groupTopology';
import type { Problem } from '../engine/settings';
import { Topology } from '../engine/topology';
import { single, UsageError, type ParsedArgs } from './args';
import type { CliIo, TextSink } from './cliIo';
import { loadSettings, reportProblems } from './io';
import { configPath } from './settingsFile';
import { resolveTopicName } from './topicArg';

/** What `assignment` and `what-if --group` share: the topology, the group, `--topic` and the events. */
export interface GroupArgs {
  topology: Topology;
  group: ConsumerGroupState;
  /** The topic `partitions=N` changes (`--topic`), one of the group's. */
  topic: string | undefined;
  events: Array<{ text: string; event: GroupEvent }>;
}

/** Reads `--config`, `--group`, `--topic` and `--then`; a bad one is a usage error. */
export function groupArgs(io: CliIo, args: ParsedArgs): GroupArgs {
  const path = configPath(io, args);
  const problems: Problem[] = [];
  const topology = new Topology(loadSettings(io, path), problems);
  reportProblems(io.stderr, problems);
  const group = groupArg(args, topology, path);
  const given = single(args, 'topic');
  const topic = given === undefined ? undefined : resolveTopicName(given, topology.topics.map((t) => t.name), path);
  if (topic !== undefined && !group.config.topics.includes(topic)) {
    throw new UsageError(`--topic: group ${group.name} does not subscribe to ${JSON.stringify(topic)} (its topics: ${group.config.topics.join(', ')})`);
  }
  const events = (args.options.get('then') ?? []).map((text) => {
    const event = parseGroupEvent(text, topic);
    if (typeof event === 'string') throw new UsageError(`--then: ${event}${/partitions=/.test(text) ? ' (give it with --topic)' : ''}`);
    return { text, event };
  });
  return { topology, group, topic, events };
}

/** The group `--group` names (required). */
function groupArg(args: ParsedArgs, topology: Topology, path: string): ConsumerGroupState {
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
export function applyToGroupsReported(stderr: TextSink, groups: readonly ConsumerGroupState[], text: string, topic?: string): number {
  const results = applyGroupEvent(groups, text, topic, topic);
  for (const { group, outcome } of results) {
    if (!outcome.ok) stderr.write(`key-routing: --then ${text}: group ${group.name}: ${outcome.error}\n`);
  }
  const mine = groups.filter((g) => topic === undefined || g.config.topics.includes(topic));
  const e = parseGroupEvent(text, topic);
  if (results.length === 0 && mine.length > 0 && typeof e !== 'string' && e.kind === 'leave') {
    stderr.write(`key-routing: --then ${text}: no group${topic ? ` of ${topic}` : ''} has a member ${e.id} (groups: ${mine.map((g) => g.name).join(', ')})\n`);
  }
  return results.length;
}

/** Kafka topics that some group consumes: member events are the groups', not the topic's. */
export function hasGroups(groups: readonly ConsumerGroupState[], topic: string): boolean {
  return groups.some((g) => g.config.topics.includes(topic));
}
