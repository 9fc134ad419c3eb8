/**
 * The what-if's ordering note, from the what-if helper's `explainWhatIf` (the engine's ordering
 * simulation): per step, what moves and what the broker does to keep per-key order (4.0: which
 * hashes drain at which consumer; 3.x: where a joining consumer is held), and for a partition
 * change which keys change partition. The shown keys stand for the messages: each is assumed to
 * have one unacknowledged message at the consumer it goes to before the first step.
 */
import { formatEvent, type TopologyEvent } from '../../engine/events';
import { explainWhatIf } from '../../engine/ordering/whatIfExplain';
import type { OrderingGeneration } from '../../engine/ordering/types';
import type { KeySharedSubscription } from '../../engine/pulsar/keyShared/subscription';
import type { Settings } from '../../engine/settings';
import { PulsarTopicState, type TopicState } from '../../engine/topology';
import type { WhatIfResult } from '../../engine/whatIf';
import type { ShownKey } from './topicView';
import { topicFromSettings } from './whatIfView';

export interface OrderingNote {
  generation?: OrderingGeneration;
  assumption?: string;
  /** One block of lines per step. */
  steps: Array<{ event: string; lines: string[] }>;
}

/** Null where there are no steps. `result` is the what-if's outcome for these events and keys. */
export function orderingNote(
  settings: Settings,
  topicName: string,
  events: readonly TopologyEvent[],
  keys: readonly ShownKey[],
  result: WhatIfResult & { afterStates?: Array<KeySharedSubscription | undefined> },
  /** The topic's state before the steps, where the caller has it (the panel does); left unchanged. */
  base?: TopicState,
): OrderingNote | null {
  if (events.length === 0) return null;
  const config = settings.topics.find((t) => t.name === topicName);
  const before = base ?? topicFromSettings(settings, topicName);
  if (!config || !before) return null;
  const consumers = before instanceof PulsarTopicState ? (before.subscription?.consumers ?? []) : [];
  const notes = explainWhatIf(
    config,
    consumers,
    events,
    keys.map((k, i) => ({ shown: k.label, key: k.key, owner: result.keys[i]?.before.consumer ?? null })),
    result,
    // The simulation starts from a clone of the topic's subscription, not from its consumers
    // connected again (equal for a topic built from the settings, and a ring's cost saved).
    base && before instanceof PulsarTopicState ? before.subscription : undefined,
    // And takes each step's state from the what-if instead of making it again.
    result.afterStates,
  );
  return {
    ...(notes.generation ? { generation: notes.generation } : {}),
    ...(notes.assumption ? { assumption: notes.assumption } : {}),
    steps: events.map((e, i) => ({ event: formatEvent(e), lines: notes.steps[i]?.explain ?? [] })),
  };
}
