/**
 * "What if this consumer leaves?" from the side bar (pure): the engine's what-if on a copy of the
 * topic's state with one `-ID` step, as the CLI's `what-if --then -ID` and the panel's what-if
 * editor compute it; read back as exact value counts of the key hash values.
 */
import { whatIfSelector, runWhatIf } from '../../engine/whatIf';
import type { SettingsModel } from '../settingsModel';

export interface Gain {
  id: string;
  /** Key values it takes over. */
  values: number;
  ranges: Array<[number, number]>;
}

export interface Removal {
  topic: string;
  id: string;
  /** Key values whose owners change. */
  moved: number;
  total: number;
  gains: Gain[];
  /** Why nothing could be computed (no such topic or consumer). */
  error?: string;
}

export function removalEffect(model: SettingsModel, topic: string, id: string): Removal {
  const state = model.topology.topic(topic);
  const out: Removal = { topic, id, moved: 0, total: 0, gains: [] };
  const selector = state && whatIfSelector(state);
  if (!state || !selector) return { ...out, error: `${topic} has no Key_Shared subscription` };
  const [lo, hi] = selector.keyValues;
  out.total = hi - lo + 1;
  // The what-if changes the state it is given: run it on a copy of the settings' state.
  const [step] = runWhatIf(state.clone(), [{ kind: 'disconnect', id }], []).steps;
  if (step.error) return { ...out, error: step.error };
  // movedFraction is movedSize / total, both integers below 2^32: the product rounds back exactly.
  out.moved = Math.round(step.movedFraction * out.total);
  out.gains = Object.entries(step.gained)
    .map(([gid, ranges]) => {
      // Snapshot ranges can reach past the selectable values (AUTO_SPLIT's bookkeeping key): clip.
      const clipped = ranges.map(([s, e]) => [Math.max(s, lo), Math.min(e, hi)] as [number, number]).filter(([s, e]) => e >= s);
      return { id: gid, values: clipped.reduce((n, [s, e]) => n + e - s + 1, 0), ranges: clipped };
    })
    .filter((g) => g.values > 0)
    .sort((a, b) => b.values - a.values || (a.id < b.id ? -1 : 1));
  return out;
}
