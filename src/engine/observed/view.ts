/**
 * What the panel draws of a broker's report, in one call per topic (plain data, ready for a
 * webview message): for a Pulsar topic, "observed at", the draining marks and the comparison of
 * the reported layout with the one the configured connection order predicts, per group of
 * partitions that reported alike; for a Kafka topic, the observed owners of each consumer group
 * that reads it. Undefined where nothing was reported. (The reported layout itself is what the
 * topic's routes read until a consumer event: its selector's segments and ranges.)
 */
import type { Topology } from '../topology';
import { PulsarTopicState } from '../topology';
import type { ObservedGroupInfo } from './observedTopic';

export interface PulsarObservedView {
  system: 'pulsar';
  topic: string;
  /** When the broker reported (the first group's `at`), if known. */
  at?: string;
  /** Whether routes still read the report (no consumer event since). */
  current: boolean;
  groups: ObservedGroupInfo[];
}

export interface KafkaObservedView {
  system: 'kafka';
  topic: string;
  groups: Array<{
    group: string;
    at?: string;
    /** Whether the group's owners are still the observed ones (no event since). */
    current: boolean;
    /** owners[p]: the member the broker reported for partition p, or null. */
    owners: Array<string | null>;
  }>;
}

export function observedView(topology: Topology, topic: string): PulsarObservedView | KafkaObservedView | undefined {
  const t = topology.topic(topic);
  if (!t) return undefined;
  if (t instanceof PulsarTopicState) {
    const groups = t.observed?.info();
    if (!groups || groups.length === 0) return undefined;
    const at = groups.find((g) => g.at !== undefined)?.at;
    return { system: 'pulsar', topic, ...(at !== undefined ? { at } : {}), current: t.observed!.current, groups };
  }
  const groups = topology.groups
    .filter((g) => g.config.observed !== undefined && g.config.topics.includes(topic))
    .map((g) => {
      const o = g.config.observed!;
      const list = o.owners[topic] ?? [];
      return { group: g.name, ...(o.at !== undefined ? { at: o.at } : {}), current: g.observed, owners: Array.from({ length: t.partitions }, (_, p) => list[p] ?? null) };
    });
  return groups.length > 0 ? { system: 'kafka', topic, groups } : undefined;
}
