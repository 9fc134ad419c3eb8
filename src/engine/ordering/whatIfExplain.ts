/**
 * Plain-language notes for the steps of a what-if (`key-routing what-if --explain`): what each
 * step moves and what the broker does to keep per-key order. For a Key_Shared subscription the
 * given keys stand for messages: each has one unacknowledged message at the consumer it goes to
 * before the first step (the same assumption the panel states).
 */
import { formatEvent, type TopologyEvent } from '../events';
import type { MessageKey } from '../key';
import type { Consumer } from '../pulsar/keyShared/selector';
import type { KeySharedSubscription } from '../pulsar/keyShared/subscription';
import type { TopicConfig } from '../settings';
import type { WhatIfResult, WhatIfStep } from '../whatIf';
import { eventText, listText, roundText } from './explain';
import { OrderingSimulation } from './simulation';
import { ScenarioError, type Move, type OrderingGeneration, type OrderingScenario } from './types';

export interface WhatIfStepNote {
  /** Key_Shared steps: the moves from one owner to another (empty for partition changes). */
  moves: Move[];
  explain: string[];
}

export interface WhatIfNotes {
  /** The ordering generation the notes describe (3.0 topics: the read-position generation). */
  generation?: OrderingGeneration;
  assumption?: string;
  steps: WhatIfStepNote[];
}

/**
 * `consumers` are the subscription's consumers before the first event, in connection order;
 * `owners` each key's consumer id before the first event (null: none); `result` the what-if's.
 */
export function explainWhatIf(
  config: TopicConfig,
  consumers: readonly Consumer[],
  events: readonly TopologyEvent[],
  keys: ReadonlyArray<{ shown: string; key: MessageKey; owner: string | null }>,
  result: WhatIfResult,
  /**
   * The subscription before the first event, where the caller holds it (the panel does): the
   * simulation starts from a clone of it instead of connecting `consumers` again. Left unchanged.
   */
  base?: KeySharedSubscription,
  /**
   * With `base`: the subscription after each event as the what-if left it, taken instead of
   * applying the event again (see `OrderingSimulation.apply`).
   */
  afterStates?: ReadonlyArray<KeySharedSubscription | undefined>,
): WhatIfNotes {
  const explainer = new WhatIfExplainer(config, consumers, keys, base);
  const steps = events.map((e, i) => explainer.next(e, result.steps[i], base ? afterStates?.[i] : undefined));
  return { ...explainer.heading(), steps };
}

/**
 * The notes one step at a time: `next` explains the next event from where the earlier ones left
 * the simulation, so a what-if that grows by a step takes its notes further instead of running
 * every step again (each step's note depends only on the steps up to it).
 */
export class WhatIfExplainer {
  readonly #generation?: OrderingGeneration;
  #assumption?: string;
  readonly #sim?: OrderingSimulation;
  readonly #keyCount: number;
  readonly #messageCount: number = 0;

  /** As `explainWhatIf` takes them (`base` left unchanged). */
  constructor(
    config: TopicConfig,
    consumers: readonly Consumer[],
    keys: ReadonlyArray<{ shown: string; key: MessageKey; owner: string | null }>,
    base?: KeySharedSubscription,
  ) {
    this.#keyCount = keys.length;
    if (config.system !== 'pulsar' || !config.subscription) return;
    const sub = config.subscription;
    const generation: OrderingGeneration = config.brokerVersion === '4.0' ? '4.0' : '3.0';
    this.#generation = generation;
    const messages: OrderingScenario['messages'] = [];
    const pending: Record<string, string[]> = {};
    let bytesOnly = 0;
    keys.forEach((k, i) => {
      // The simulation's messages carry text keys; a byte key that is not UTF-8 is left out.
      if (k.key.text === null) {
        bytesOnly++;
        return;
      }
      const id = `#${i + 1}`;
      messages.push({ id, key: k.key.text });
      if (k.owner !== null) (pending[k.owner] ??= []).push(id);
    });
    this.#messageCount = messages.length;
    try {
      this.#sim = new OrderingSimulation(
        {
          generation,
          subscription: { keySharedMode: sub.keySharedMode, consistentHashing: sub.consistentHashing, replicaPoints: sub.replicaPoints, hashRangeSize: sub.hashRangeSize },
          consumers: base ? [] : consumers.map((c) => (c.ranges ? { name: c.name, ranges: c.ranges.map(([s, e]) => [s, e] as [number, number]) } : { name: c.name })),
          messages,
          pending,
        },
        base,
      );
    } catch (e) {
      if (e instanceof ScenarioError) {
        this.#assumption = `no ordering notes: ${e.message}`;
        return;
      }
      throw e;
    }
    let assumption =
      messages.length > 0
        ? `Each given key stands for one unacknowledged message (${listText(messages.map((m) => m.id), 3)}) at the consumer it goes to before the first step; broker ${generation}.`
        : `No keys given: the notes cover the moves; give keys on stdin to see which of their hashes wait; broker ${generation}.`;
    if (bytesOnly > 0) assumption += ` ${bytesOnly} byte key${bytesOnly > 1 ? 's are' : ' is'} left out of the ordering notes.`;
    if (generation === '3.0') assumption += ' (3.0 notes describe the read-position generation; brokers with PIP-282 hold a joining consumer at the last sent position instead.)';
    this.#assumption = assumption;
  }

  /** The generation and assumption the notes state (none for a topic without a Key_Shared subscription). */
  heading(): Omit<WhatIfNotes, 'steps'> {
    return this.#generation ? { generation: this.#generation, assumption: this.#assumption } : {};
  }

  /**
   * The note of the next event, given the what-if's step for it and, where the simulation started
   * from a base, the subscription the what-if left after it (taken instead of applying the event).
   */
  next(event: TopologyEvent, step: WhatIfStep, afterState?: KeySharedSubscription): WhatIfStepNote {
    // A subscription the simulation cannot model gets no notes at all (the assumption says why).
    if (this.#generation && !this.#sim) return { moves: [], explain: [] };
    if (event.kind === 'partitions') return this.#partitionNote(event.count, step);
    if (!this.#sim || !this.#generation) return { moves: [], explain: [`${formatEvent(event)}: refused (${step.error}); nothing changes.`] };
    const o = this.#sim.apply(event, afterState);
    return { moves: o.moves, explain: [...eventText(this.#generation, o), ...(this.#messageCount > 0 ? roundText(this.#sim.preview()) : [])] };
  }

  #partitionNote(count: number, step: WhatIfStep): WhatIfStepNote {
    if (step.error) return { moves: [], explain: [`${step.event}: refused (${step.error}); nothing changes.`] };
    const lines = [`The partition count becomes ${count}.`];
    if (this.#keyCount === 0) lines.push('Give keys on stdin to see which of them change partition.');
    else {
      const moved = Math.round(step.movedFraction * this.#keyCount);
      lines.push(
        `${moved} of the ${this.#keyCount} given keys (${(step.movedFraction * 100).toFixed(1)}%) change partition. A moved key's earlier messages stay in its old ` +
          'partition while new ones go to the new one, so consumers may see its new messages before they finish the old ones.',
      );
    }
    return { moves: [], explain: lines };
  }
}
