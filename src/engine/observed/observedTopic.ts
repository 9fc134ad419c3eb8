/**
 * A Pulsar topic's reported state while the engine works with it: which selector routes a
 * partition (the reported ring until an event changes the subscription), the marks a route gets
 * (`observed`, `draining`), the note a what-if carries where the rebuilt ring differs from the
 * report, and what the panel shows about the report.
 */
import type { Consumer, StickyKeyConsumerSelector } from '../pulsar/keyShared/selector';
import { describeDifferences, type LayoutComparison } from './compare';
import type { DrainingEntry, ObservedGroups } from './restore';

export interface DrainingMark {
  consumer: string;
  unackMsgs: number;
}

/** What the panel shows per group of partitions. */
export interface ObservedGroupInfo {
  /** Partitions the group serves: `null` for a non-partitioned topic, else first and last. */
  partitions: [number, number] | null;
  at?: string;
  /** Whether routes still read the report (no consumer event since). */
  current: boolean;
  /** The draining hashes, ascending, with their consumers' ids. */
  draining: Array<{ hash: number; consumer: string; unackMsgs: number; blockedAttempts: number }>;
  /** The report against the layout the configured connection order predicts. */
  predicted: LayoutComparison;
  /** The report against what events start from (differs only for a rebuilt ring). */
  model: LayoutComparison;
  /** What the rebuilt ring assumes where the report does not show it. */
  assumptions: string[];
}

export class ObservedTopic {
  /** Whether a consumer connected or left since the report. */
  #changed = false;

  constructor(
    readonly groups: ObservedGroups,
    /** How many partitions the topic had when it reported (0: non-partitioned). */
    private readonly partitions: number,
  ) {}

  clone(): ObservedTopic {
    const c = new ObservedTopic(this.groups, this.partitions);
    c.#changed = this.#changed;
    return c;
  }

  /** A consumer connected or left: routes come from the engine's selectors from now on. */
  consumersChanged(): void {
    this.#changed = true;
  }

  get current(): boolean {
    return !this.#changed;
  }

  /** The selector that routes group `g` instead of the subscription's, if any. */
  view(g: number): StickyKeyConsumerSelector | undefined {
    return this.#changed ? undefined : this.groups.get(g)?.view;
  }

  /** Whether group `g`'s routes still come from the report. */
  reports(g: number): boolean {
    return !this.#changed && g < this.groups.length;
  }

  /**
   * The draining mark of a key in group `g`: its hash drains at a consumer that is still
   * connected and is not the key's owner (a hash back at its draining consumer stops blocking).
   */
  draining(g: number, stickyKeyHash: number, owner: Consumer | null, live: readonly Consumer[]): DrainingMark | undefined {
    const d: DrainingEntry | undefined = this.groups.get(g)?.draining.get(stickyKeyHash);
    if (!d || d.consumer === owner || !live.includes(d.consumer)) return undefined;
    return { consumer: d.consumer.id, unackMsgs: d.unackMsgs };
  }

  /**
   * Where the ring events start from is not known to be the broker's, in words: the runs where the
   * rebuilt ring differs from the report, and what the rebuild had to assume. Undefined where the
   * rebuilt state is the reported one.
   */
  note(): string | undefined {
    const parts: string[] = [];
    this.groups.all().forEach((g, i) => {
      const where = this.groups.length > 1 ? `partition ${i}: ` : '';
      for (const a of g.assumptions) parts.push(`${where}${a}`);
      if (g.modelComparison.equal) return;
      const order = g.state.consumers.map((c) => c.name).join(', ');
      parts.push(
        `${where}the ring rebuilt from the observed consumers (${order}, in connectedSince order) differs from the reported one at ${describeDifferences(g.modelComparison, 'rebuilt')}: ${g.modelComparison.reason}`,
      );
    });
    if (parts.length === 0) return undefined;
    return `${parts.join('. ')}. What-if steps start from the rebuilt ring; routes before any event read the report.`;
  }

  info(): ObservedGroupInfo[] {
    return this.groups.all().map((g, i) => ({
      partitions: this.partitions === 0 ? null : this.groups.length === 1 ? [0, this.partitions - 1] : [i, i],
      ...(g.state.at !== undefined ? { at: g.state.at } : {}),
      current: !this.#changed,
      draining: [...g.draining.values()]
        .sort((a, b) => a.hash - b.hash)
        .map((d) => ({ hash: d.hash, consumer: d.consumer.id, unackMsgs: d.unackMsgs, blockedAttempts: d.blockedAttempts })),
      predicted: g.predicted(),
      model: g.modelComparison,
      assumptions: g.assumptions,
    }));
  }
}
