/**
 * The what-if's ordering note, from the what-if helper's `explainWhatIf` (the engine's ordering
 * simulation): per step, what moves and what the broker does to keep per-key order (4.0: which
 * hashes drain at which consumer; 3.x: where a joining consumer is held), and for a partition
 * change which keys change partition. The shown keys stand for the messages: each is assumed to
 * have one unacknowledged message at the consumer it goes to before the first step.
 */
import { formatEvent, type TopologyEvent } from '../../engine/events';
import { WhatIfExplainer } from '../../engine/ordering/whatIfExplain';
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
  // The simulation starts from the topic's subscription, not from its consumers connected again
  // (equal for a topic built from the settings, and a ring's cost saved).
  const fromBase = base !== undefined && before instanceof PulsarTopicState;
  const explainer = new WhatIfExplainer(
    config,
    consumers,
    keys.map((k, i) => ({ shown: k.label, key: k.key, owner: result.keys[i]?.before.consumer ?? null })),
    fromBase ? before.subscription : undefined,
  );
  const record: Continuation = { settings, topicName, keys, events: [], explainer, fromBase };
  return takeFurther(record, { ...explainer.heading(), steps: [] }, events, result);
}

/**
 * Where a note can go on from: its explainer, whose simulation stands after the note's last step.
 * Taking a note further moves its continuation to the new note (the simulation goes on), so each
 * note is taken further at most once.
 */
interface Continuation {
  settings: Settings;
  topicName: string;
  keys: readonly ShownKey[];
  /** The events explained so far, each as JSON. */
  events: string[];
  explainer: WhatIfExplainer;
  fromBase: boolean;
}

const continuations = new WeakMap<OrderingNote, Continuation>();

/**
 * `orderingNote` for `events` from `previous`, the note of the same topic, settings and keys for
 * events that start `events`: only the new events are explained, the simulation going on from
 * where `previous` left it (each step's note depends only on the steps up to it, so the result is
 * what explaining afresh gives). Undefined where `previous` cannot be taken further that way.
 */
export function extendOrderingNote(
  previous: OrderingNote,
  settings: Settings,
  topicName: string,
  events: readonly TopologyEvent[],
  keys: readonly ShownKey[],
  result: WhatIfResult & { afterStates?: Array<KeySharedSubscription | undefined> },
): OrderingNote | undefined {
  const r = continuations.get(previous);
  if (!r || r.settings !== settings || r.topicName !== topicName || events.length <= r.events.length) return undefined;
  if (r.keys.length !== keys.length || r.keys.some((k, i) => k !== keys[i])) return undefined;
  for (let i = 0; i < r.events.length; i++) if (JSON.stringify(events[i]) !== r.events[i]) return undefined;
  continuations.delete(previous);
  return takeFurther(r, previous, events, result);
}

/** `note` (explaining the first `record.events.length` events) with the rest of `events` explained. */
function takeFurther(
  record: Continuation,
  note: OrderingNote,
  events: readonly TopologyEvent[],
  result: WhatIfResult & { afterStates?: Array<KeySharedSubscription | undefined> },
): OrderingNote {
  const steps = note.steps.slice();
  for (let i = record.events.length; i < events.length; i++) {
    // The what-if's state after each step is taken instead of applying the event again.
    const n = record.explainer.next(events[i], result.steps[i], record.fromBase ? result.afterStates?.[i] : undefined);
    steps.push({ event: formatEvent(events[i]), lines: n.explain });
  }
  const out: OrderingNote = { ...(note.generation ? { generation: note.generation } : {}), ...(note.assumption ? { assumption: note.assumption } : {}), steps };
  continuations.set(out, { ...record, events: events.map((e) => JSON.stringify(e)) });
  return out;
}
