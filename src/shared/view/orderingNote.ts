/**
 * The what-if's ordering note: what the broker does to keep per-key order through the steps
 * (4.0: which hashes drain at which consumer; 3.x: where a joining consumer is held), from the
 * ordering simulation. The panel's keys stand for the messages: each is assumed to have one
 * unacknowledged message at the consumer it goes to before the first step.
 */
import { formatEvent, type TopologyEvent } from '../../engine/events';
import { explainOrderingSteps } from '../../engine/ordering';
import { ScenarioError, type OrderingGeneration, type OrderingScenario } from '../../engine/ordering/types';
import type { Settings } from '../../engine/settings';
import { PulsarTopicState, Topology } from '../../engine/topology';
import type { ShownKey } from './topicView';

export interface OrderingNote {
  generation: OrderingGeneration;
  assumption: string;
  /** One block of lines per consumer step. */
  steps: Array<{ event: string; lines: string[] }>;
  /** Steps the note leaves out (partition changes). */
  skipped: string[];
}

/** Null where the topic has no Key_Shared subscription or no step changes consumers. */
export function orderingNote(settings: Settings, topicName: string, events: readonly TopologyEvent[], keys: readonly ShownKey[]): OrderingNote | { error: string } | null {
  const cfg = settings.topics.find((t) => t.name === topicName);
  if (!cfg || cfg.system !== 'pulsar' || !cfg.subscription) return null;
  const consumerEvents = events.filter((e) => e.kind !== 'partitions');
  if (consumerEvents.length === 0) return null;
  const skipped = events.filter((e) => e.kind === 'partitions').map(formatEvent);
  const topic = new Topology(settings, []).topic(topicName) as PulsarTopicState;
  const sub = cfg.subscription;
  // String keys only: the simulation's messages carry text keys.
  const messages: OrderingScenario['messages'] = [];
  const pending: Record<string, string[]> = {};
  keys.forEach((k, i) => {
    if (k.key.text === null) return;
    const id = `#${i + 1}`;
    messages.push({ id, key: k.key.text });
    const owner = topic.route(k.key).consumer;
    if (owner) (pending[owner] ??= []).push(id);
  });
  const generation: OrderingGeneration = cfg.brokerVersion === '4.0' ? '4.0' : '3.0';
  const scenario: OrderingScenario = {
    generation,
    subscription: { keySharedMode: sub.keySharedMode, consistentHashing: sub.consistentHashing, replicaPoints: sub.replicaPoints, hashRangeSize: sub.hashRangeSize },
    consumers: (topic.subscription?.consumers ?? []).map((c) => (c.ranges ? { name: c.name, ranges: c.ranges.map(([s, e]) => [s, e] as [number, number]) } : { name: c.name })),
    messages,
    pending,
    event: formatEvent(consumerEvents[0]),
  };
  try {
    const r = explainOrderingSteps(
      scenario,
      consumerEvents.slice(1).map((e) => ({ event: formatEvent(e) })),
    );
    return {
      generation,
      assumption:
        messages.length > 0
          ? `Each shown key stands for one unacknowledged message (#n) at the consumer it goes to now; broker ${generation}.`
          : `No keys shown: add keys to see which of their hashes wait; broker ${generation}.`,
      steps: [
        { event: formatEvent(consumerEvents[0]), lines: r.initial.explanation },
        ...r.steps.map((s, i) => ({ event: formatEvent(consumerEvents[i + 1]), lines: s.explanation })),
      ],
      skipped,
    };
  } catch (e) {
    if (e instanceof ScenarioError) return { error: e.message };
    throw e;
  }
}
