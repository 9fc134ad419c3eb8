/**
 * What both generations' consistent-hashing selectors keep alike: the ring as columns
 * (`ringPoints`), its members numbered, and changes queued as a batch of joins or of leaves that is
 * applied when the ring is next read. The generations differ in where a consumer's points are,
 * who holds a point several consumers put (`join`), and which of a point's consumers own its
 * segment ('all' of them on 3.x, the 'first' on 4.x).
 */
import { MemoisedSelector } from './memoisedSelector';
import { MAX_BATCH, addPoints, removePoints, EMPTY_RING, Members, pointColumns, ringSegmentTable, type PointColumns, type RingChange, type RingColumns } from './ringPoints';
import { EMPTY_TABLE, type Consumer, type HashRange, type SegmentTable } from './selector';

export abstract class RingSelector extends MemoisedSelector {
  abstract readonly keyHashRange: HashRange;
  /**
   * Point -> its consumers. Lists are never changed once on the ring (where the broker's change in
   * place, a change here puts a new list), so segments, snapshots and clones share them.
   */
  protected ring: RingColumns = EMPTY_RING;
  protected members = new Members();
  /** Changes not yet on `ring`, in order and all of one kind: applied as one batch when next read. */
  #joins: RingChange[] = [];
  #leaves: RingChange[] = [];
  /** Point hashes per name (a pure function of it, so clones share them). */
  protected pointHashCache = new Map<string, Int32Array>();
  #columnsMemo: { ring: RingColumns; cols: PointColumns } | null = null;

  constructor(
    readonly replicaPoints: number,
    /** A point's consumers after `added` put it there, one at a time, in order. */
    private readonly join: (current: readonly Consumer[] | undefined, added: readonly Consumer[]) => readonly Consumer[],
    private readonly owners: 'all' | 'first',
  ) {
    super();
  }

  /** Queues `consumer`'s points to go on the ring. */
  protected queueJoin(consumer: Consumer, hashes: Int32Array): void {
    if (this.#leaves.length > 0 || this.#joins.length >= MAX_BATCH) this.current();
    this.#joins.push({ consumer, number: this.members.numberOf(consumer), hashes });
  }

  /** Queues `consumer`'s points to leave the ring. */
  protected queueLeave(consumer: Consumer, hashes: Int32Array): void {
    if (this.#joins.length > 0) this.current();
    this.#leaves.push({ consumer, number: this.members.numberOf(consumer), hashes });
  }

  /** The ring with every change applied. */
  protected current(): RingColumns {
    if (this.#joins.length > 0) {
      this.ring = addPoints(this.ring, this.members, this.#joins, this.join);
      this.#joins = [];
    }
    if (this.#leaves.length > 0) {
      this.ring = removePoints(this.ring, this.members, this.#leaves);
      this.#leaves = [];
    }
    return this.ring;
  }

  protected computeSegmentTable(): SegmentTable {
    const cols = this.pointColumns();
    return cols.points.length === 0 ? EMPTY_TABLE : ringSegmentTable(cols, this.keyHashRange[0], this.keyHashRange[1]);
  }

  /** The points and their consumer lists, without an object per point (see `PointColumns`). */
  pointColumns(): PointColumns {
    const ring = this.current();
    if (this.#columnsMemo?.ring !== ring) this.#columnsMemo = { ring, cols: pointColumns(ring, this.members, this.owners) };
    return this.#columnsMemo.cols;
  }

  /**
   * Gives `c`, a new selector of the same kind, this one's ring and members. The queued changes are
   * applied here first, so that every clone shares the result: the panel's what-if and its ordering
   * note each clone a topology that nothing has read yet, and each applied its 100,000 points again.
   */
  protected copyRingTo(c: RingSelector): void {
    c.ring = this.current();
    c.members = this.members.clone();
    c.pointHashCache = this.pointHashCache;
    this.shareMemosWith(c);
  }
}
