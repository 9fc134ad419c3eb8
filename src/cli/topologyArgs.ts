/** The options `route`, `ranges` and `what-if` share: --config, --topic, --then. */
import { parseEvent, type TopologyEvent } from '../engine/events';
import type { Problem } from '../engine/settings';
import { Topology, type TopicState } from '../engine/topology';
import { single, UsageError, type ParsedArgs } from './args';
import type { CliIo, TextSink } from './cliIo';
import { loadSettings, reportProblems } from './io';
import { configPath } from './settingsFile';
import { resolveTopicName } from './topicArg';

export interface TopologyArgs {
  topology: Topology;
  /** The selected topic, or every topic. */
  topics: TopicState[];
  events: Array<{ text: string; event: TopologyEvent }>;
}

export function topologyArgs(io: CliIo, args: ParsedArgs, topicRequired: boolean): TopologyArgs {
  const path = configPath(io, args);
  const settings = loadSettings(io, path);
  const events = (args.options.get('then') ?? []).map((text) => {
    try {
      return { text, event: parseEvent(text) };
    } catch (e) {
      throw new UsageError(`--then: ${(e as Error).message}`);
    }
  });
  const problems: Problem[] = [];
  const topology = new Topology(settings, problems);
  reportProblems(io.stderr, problems);
  const name = single(args, 'topic');
  if (name === undefined && topicRequired) throw new UsageError('--topic is required');
  let topics = topology.topics;
  if (name !== undefined) {
    topics = [topology.topic(resolveTopicName(name, topology.topics.map((t) => t.name), path))!];
  }
  if (name === undefined && events.some((e) => e.event.kind === 'partitions')) {
    throw new UsageError('--then partitions=N needs --topic to name the topic it changes');
  }
  return { topology, topics, events };
}

/** Applies an event to the selected topics the way `route` and `ranges` do: refusals to stderr. */
export function applyReported(stderr: TextSink, topics: TopicState[], text: string, event: TopologyEvent): void {
  for (const t of applicable(topics, event)) {
    const r = t.apply(event);
    if (!r.ok) stderr.write(`key-routing: --then ${text}: ${t.name}: ${r.error}\n`);
  }
}

/** Without --topic a consumer event goes to every topic that has a subscription. */
export function applicable(topics: TopicState[], event: TopologyEvent): TopicState[] {
  if (topics.length === 1 || event.kind === 'partitions') return topics;
  return topics.filter((t) => 'subscription' in t && (t as { subscription?: unknown }).subscription !== undefined);
}
