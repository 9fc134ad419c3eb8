/**
 * Shared-subscription dispatch of chunked messages: the broker's `SharedConsumerAssignor`
 * (PR #16202, as in the 3.0 broker), driven by the dispatcher's round-robin consumer selector.
 *
 * The model, per call of `assign(entries)` (one "round": one batch of entries read for dispatch):
 *
 * Selector (`PersistentDispatcherMultipleConsumers.getNextConsumer`). The dispatcher keeps its
 * consumers in a list (connection order; all priority levels 0 here) and an index
 * `currentConsumerRoundRobinIndex`, starting at 0 and kept across rounds. Each call resets the
 * index to 0 if it is past the end, then scans from it to the end of the list and on from the
 * start, returning the first *available* consumer (not blocked and `getAvailablePermits() > 0`,
 * i.e. its real permits for this round, not the assignor's running counts) and setting the index
 * just past it; with none available it returns null and leaves the index. So consumers with no
 * permits are skipped by the selector itself, and the index after a round is what the next round
 * starts from.
 *
 * Assignor (`assign(entries, numConsumers)`, numConsumers = the number of consumers):
 * - Permits are read once per round into a table (`consumerToPermits`, cleared per call): a
 *   consumer's entry is its permits the first time it is looked at.
 * - `getConsumer`: up to numConsumers selector calls, returning the first consumer whose *table*
 *   entry is > 0 (so one exhausted earlier in this round is passed over); null if the selector
 *   returns null or the calls run out.
 * - No consumer at the start: every entry is released (3.0 neither assigns them nor queues them
 *   for replay; later brokers queue them). They are reported as `released`.
 * - Walking the entries with a running count of the current consumer's permits: when it is <= 0,
 *   that count is written to the table, a new consumer is picked with `getConsumer` (none: this
 *   and every later entry is unassigned) and the running count restarts from the new consumer's
 *   *real* permits (`consumer.getAvailablePermits()`, not its table entry).
 * - An entry without all of uuid, chunkId and numChunks is plain: it goes to the current consumer.
 * - A chunk: if its uuid is not pinned, a first chunk (chunkId 0) pins it to the current
 *   consumer, and any other chunk is unassigned (and nothing is pinned). If the pinned consumer's
 *   table entry is <= 0 the chunk is unassigned (the pin stays). Otherwise the last chunk
 *   (chunkId == numChunks - 1) removes the pin, the chunk goes to the pinned consumer, and the
 *   pinned consumer's table entry becomes the *current* consumer's running count minus 1 (a
 *   quirk: for a chunk pinned to another consumer this sets that consumer's entry from the
 *   current one's count).
 * - Every assigned entry, plain or chunk, and whichever consumer got it, decrements the running
 *   count; an unassigned chunk does not.
 * - The pins (`uuidToConsumer`) are kept across rounds.
 *
 * Not modelled: after `assign` the dispatcher sends each consumer at most its real permits and
 * puts the rest of that consumer's list back into the replay queue (the pins are not undone), and
 * a read batch without any chunk goes through the ordinary (non-assignor) dispatch loop.
 */

export type EntryId = string | number;

export interface ChunkEntry {
  id: EntryId;
  uuid?: string;
  chunkId?: number;
  numChunks?: number;
}

export interface AssignorConsumer {
  /** The consumer's id (unique). */
  consumer: string;
  /** `Consumer.getAvailablePermits()` at the start of every round. */
  availablePermits: number;
}

export interface AssignRoundResult {
  /** Entries per consumer id, in assignment order; only consumers that got entries. */
  assigned: Map<string, EntryId[]>;
  /** Entries left for the replay queue, in entry order. */
  unassigned: EntryId[];
  /** Entries released because no consumer had permits at the start of the round (3.0 behaviour). */
  released: EntryId[];
  /** The pins after the round: uuid to consumer id. */
  uuidToConsumer: Map<string, string>;
  /** The selector's round-robin index after the round. */
  roundRobinIndex: number;
}

export class SharedConsumerAssignor {
  readonly #consumers: readonly AssignorConsumer[];
  /** `currentConsumerRoundRobinIndex`. */
  #rrIndex = 0;
  /** uuid to consumer index; insertion order kept for reporting. */
  readonly #pins = new Map<string, number>();

  /** `consumers` in the dispatcher's selection order (its consumer list). */
  constructor(consumers: readonly AssignorConsumer[]) {
    const seen = new Set<string>();
    for (const c of consumers) {
      if (seen.has(c.consumer)) throw new Error(`duplicate consumer id ${JSON.stringify(c.consumer)}`);
      seen.add(c.consumer);
    }
    this.#consumers = consumers.map((c) => ({ ...c }));
  }

  /** One dispatch round; `permits` overrides the consumers' permits for this round. */
  assign(entries: readonly ChunkEntry[], permits: readonly number[] = this.#consumers.map((c) => c.availablePermits)): AssignRoundResult {
    const n = this.#consumers.length;
    const table = new Map<number, number>();
    const tableGet = (c: number): number => {
      let v = table.get(c);
      if (v === undefined) {
        v = permits[c];
        table.set(c, v);
      }
      return v;
    };
    const getConsumer = (): number => {
      for (let i = 0; i < n; i++) {
        const c = this.#nextConsumer(permits);
        if (c < 0) return -1;
        if (tableGet(c) > 0) return c;
      }
      return -1;
    };

    const assigned = new Map<number, EntryId[]>();
    const unassigned: EntryId[] = [];
    const released: EntryId[] = [];
    const give = (c: number, id: EntryId): void => {
      let list = assigned.get(c);
      if (!list) assigned.set(c, (list = []));
      list.push(id);
    };

    let consumer = getConsumer();
    if (consumer < 0) {
      for (const e of entries) released.push(e.id);
      return this.#result(assigned, unassigned, released);
    }
    let available = tableGet(consumer);
    let index = 0;
    for (; index < entries.length; index++) {
      const e = entries[index];
      if (available <= 0) {
        table.set(consumer, available);
        consumer = getConsumer();
        if (consumer < 0) break;
        available = permits[consumer];
      }
      if (e.uuid === undefined || e.chunkId === undefined || e.numChunks === undefined) {
        give(consumer, e.id);
      } else {
        const target = this.#consumerForUuid(e.uuid, e.chunkId, e.numChunks, consumer, available, tableGet, table);
        if (target < 0) {
          unassigned.push(e.id);
          continue;
        }
        give(target, e.id);
      }
      available--;
    }
    for (; index < entries.length; index++) unassigned.push(entries[index].id);
    return this.#result(assigned, unassigned, released);
  }

  /** The dispatcher's `getNextConsumer` (all priority levels 0, nobody blocked). */
  #nextConsumer(permits: readonly number[]): number {
    const n = this.#consumers.length;
    if (n === 0) return -1;
    if (this.#rrIndex >= n) this.#rrIndex = 0;
    for (let k = 0; k < n; k++) {
      const i = (this.#rrIndex + k) % n;
      if (permits[i] > 0) {
        this.#rrIndex = i + 1;
        return i;
      }
    }
    return -1;
  }

  /** `getConsumerForUuid`: the pinned consumer, or -1 for "unassigned". */
  #consumerForUuid(
    uuid: string,
    chunkId: number,
    numChunks: number,
    current: number,
    currentAvailable: number,
    tableGet: (c: number) => number,
    table: Map<number, number>,
  ): number {
    let c = this.#pins.get(uuid);
    if (c === undefined) {
      if (chunkId !== 0) return -1;
      c = current;
      this.#pins.set(uuid, c);
    }
    if (tableGet(c) <= 0) return -1;
    // Java int arithmetic: numChunks - 1 wraps for Integer.MIN_VALUE.
    if (chunkId === ((numChunks - 1) | 0)) this.#pins.delete(uuid);
    table.set(c, currentAvailable - 1);
    return c;
  }

  #result(assigned: Map<number, EntryId[]>, unassigned: EntryId[], released: EntryId[]): AssignRoundResult {
    const byId = new Map<string, EntryId[]>();
    for (let c = 0; c < this.#consumers.length; c++) {
      const list = assigned.get(c);
      if (list) byId.set(this.#consumers[c].consumer, list);
    }
    const uuidToConsumer = new Map<string, string>();
    for (const [uuid, c] of this.#pins) uuidToConsumer.set(uuid, this.#consumers[c].consumer);
    return { assigned: byId, unassigned, released, uuidToConsumer, roundRobinIndex: this.#rrIndex };
  }
}
