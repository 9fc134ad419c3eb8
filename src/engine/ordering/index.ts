/**
 * Key_Shared ordering when consumers change, per broker generation: what a change moves, what
 * the broker does to keep per-key order (3.0 read position, 3.1 last sent position, 4.0 draining
 * hashes), and which messages each consumer may receive next and why.
 *
 * Entry points:
 * - `explainOrdering(scenario)`: the change, the next dispatch round and plain-language lines.
 * - `explainOrderingSteps(scenario, steps)`: the same after each follow-up step (acks,
 *   dispatch rounds, further changes).
 * - `compareOrdering(scenario)`: `explainOrdering` for each generation.
 * - `SteppedSimulation` for step-by-step use (apply, preview, publish, ack, dispatch, state);
 *   `OrderingSimulation` (apply, preview) is what the panel's ordering note runs.
 */
import { eventText, roundText } from './explain';
import type { OrderingStep } from './scenario';
import { SteppedSimulation } from './steppedSimulation';
import {
  ORDERING_GENERATIONS,
  type DispatchRound,
  type EventOutcome,
  type OrderingGeneration,
  type OrderingScenario,
  type SimulationState,
} from './types';

export * from './types';
export { OrderingSimulation, computeMoves } from './simulation';
export { SteppedSimulation } from './steppedSimulation';
export { eventText, roundText, verdictText, movesText, listText, rangesText } from './explain';
export { parseScenario, parseSteps, type OrderingStep } from './scenario';

export interface OrderingReport {
  generation: OrderingGeneration;
  /** The scenario's change, if it has one. */
  event?: EventOutcome;
  /** What the next dispatch round would send and hold back. */
  next: DispatchRound;
  /** The state after the change (before the round). */
  state: SimulationState;
  /** Plain-language lines: the change, the protection, then one line per consumer. */
  explanation: string[];
}

export interface OrderingStepReport {
  step: OrderingStep;
  event?: EventOutcome;
  /** For a dispatch step, what the round did; otherwise what the next round would do. */
  round: DispatchRound;
  state: SimulationState;
  explanation: string[];
}

/** Applies the scenario's change and describes the next dispatch round. Throws `ScenarioError`. */
export function explainOrdering(scenario: OrderingScenario): OrderingReport {
  const sim = new SteppedSimulation(scenario);
  const event = scenario.event !== undefined ? sim.apply(scenario.event) : undefined;
  const next = sim.preview();
  const explanation = [...(event ? eventText(sim.generation, event) : []), ...roundText(next)];
  const out: OrderingReport = { generation: sim.generation, next, state: sim.state(), explanation };
  if (event) out.event = event;
  return out;
}

/** The same scenario under each generation's selectors and protection. */
export function compareOrdering(scenario: Omit<OrderingScenario, 'generation'>): Record<OrderingGeneration, OrderingReport> {
  const out = {} as Record<OrderingGeneration, OrderingReport>;
  for (const g of ORDERING_GENERATIONS) out[g] = explainOrdering({ ...scenario, generation: g });
  return out;
}

/** `explainOrdering`, then each step in turn with what it changed and what comes next. */
export function explainOrderingSteps(scenario: OrderingScenario, steps: readonly OrderingStep[]): { initial: OrderingReport; steps: OrderingStepReport[] } {
  const sim = new SteppedSimulation(scenario);
  const event = scenario.event !== undefined ? sim.apply(scenario.event) : undefined;
  const next = sim.preview();
  const initial: OrderingReport = {
    generation: sim.generation,
    next,
    state: sim.state(),
    explanation: [...(event ? eventText(sim.generation, event) : []), ...roundText(next)],
  };
  if (event) initial.event = event;
  const reports = steps.map((step): OrderingStepReport => {
    if ('ack' in step) {
      sim.ack(step.ack);
      const round = sim.preview();
      return { step, round, state: sim.state(), explanation: [`Acknowledged ${step.ack.join(', ')}.`, ...roundText(round)] };
    }
    if ('publish' in step) {
      sim.publish(step.publish);
      const round = sim.preview();
      return { step, round, state: sim.state(), explanation: [`Published ${step.publish.map((m) => m.id).join(', ')}.`, ...roundText(round)] };
    }
    if ('dispatch' in step) {
      const round = sim.dispatch();
      const sent = round.deliveries.filter((d) => d.verdict.kind === 'allowed').map((d) => `${d.message} to ${d.consumer}`);
      return { step, round, state: sim.state(), explanation: [sent.length ? `Sent ${sent.join(', ')}.` : 'Nothing could be sent.'] };
    }
    const ev = sim.apply(step.event);
    const round = sim.preview();
    return { step, event: ev, round, state: sim.state(), explanation: [...eventText(sim.generation, ev), ...roundText(round)] };
  });
  return { initial, steps: reports };
}
