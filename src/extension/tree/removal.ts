/**
 * "What if this consumer leaves?" from the side bar (pure): the engine's what-if on a copy of the
 * topic's state with one `-ID` step, as the CLI's `what-if --then -ID` and the panel's what-if
 * editor compute it; read back as exact value counts of the key hash values. For a member of a
 * Kafka consumer group: the group's rebalance without it, as `what-if --group` and the panel's group
 * what-if compute it, read back as the partitions that change member.
 */
import { whatIfSelector, runWhatIf } from '../../engine/whatIf';
import { groupWhatIf } from '../../shared/view/groupView';
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

export interface GroupGain {
  /** The member that takes them; null: nobody (the last member left, or none subscribes). */
  id: string | null;
  /** Its new partitions, in the rebalance's order (topic by topic, ascending). */
  partitions: Array<{ topic: string; partition: number }>;
}

export interface GroupRemoval {
  group: string;
  id: string;
  /** Partitions whose member changes. */
  moved: number;
  /** The group's partitions. */
  total: number;
  /** The most partitions first, nobody last. */
  gains: GroupGain[];
  /** How the group rebalances (eager: every member stops), as the panel's what-if explains it. */
  rebalance?: string;
  /** Why nothing could be computed (no such group or member, too many partitions to list). */
  error?: string;
}

export function groupRemovalEffect(model: SettingsModel, group: string, id: string): GroupRemoval {
  const g = model.topology.group(group);
  const out: GroupRemoval = { group, id, moved: 0, total: 0, gains: [] };
  if (!g) return { ...out, error: `no consumer group ${group}` };
  out.total = g.partitions;
  // groupWhatIf runs on copies of the group and its topics: the settings' state stays as it is.
  const [step] = groupWhatIf(model.topology, g, g.config.topics[0], [`-${id}`], []).result.steps;
  // The step's note: too many partitions to list what moves (a broker's report of them is listed).
  if (step.error || step.note) return { ...out, error: step.error ?? step.note };
  out.moved = step.moved.length;
  const gains = new Map<string | null, GroupGain>();
  for (const c of step.moved) {
    let gain = gains.get(c.to);
    if (!gain) gains.set(c.to, (gain = { id: c.to, partitions: [] }));
    gain.partitions.push({ topic: c.topic, partition: c.partition });
  }
  out.gains = [...gains.values()].sort((a, b) => (a.id === null ? 1 : 0) - (b.id === null ? 1 : 0) || b.partitions.length - a.partitions.length || (a.id! < b.id! ? -1 : 1));
  out.rebalance = step.rebalance?.summary;
  return out;
}
