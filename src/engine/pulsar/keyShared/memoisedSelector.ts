/**
 * The assignment views every Key_Shared selector offers (`segmentTable`, `segments`,
 * `snapshotTable`, `snapshot`), each computed once and kept until the selector's next add or
 * remove: `route` asks for the segments on every key, and the panel reads the tables on every
 * frame. A selector computes its segment table (and, where the broker's snapshot differs from what
 * selection reaches, its snapshot table); this keeps the memos, drops them on `changed()`, and
 * hands them to a clone (the tables are immutable, so a clone may share them until it changes).
 */
import { segmentsOfTable, type Segment, type SegmentTable } from './selector';

export abstract class MemoisedSelector {
  #segmentTableMemo: SegmentTable | null = null;
  #snapshotTableMemo: SegmentTable | null = null;
  #segmentsMemo: Segment[] | null = null;
  #snapshotMemo: Segment[] | null = null;

  /** `segments()` as columns, computed from the selector's current state. */
  protected abstract computeSegmentTable(): SegmentTable;

  /** `snapshot()` as columns; the segment table unless the broker's bookkeeping differs. */
  protected computeSnapshotTable(): SegmentTable {
    return this.segmentTable();
  }

  /** Drops the memos: call after every change of the assignment. */
  protected changed(): void {
    this.#segmentTableMemo = null;
    this.#snapshotTableMemo = null;
    this.#segmentsMemo = null;
    this.#snapshotMemo = null;
  }

  /** Lets `clone` share the memos of this state (they are never changed in place). */
  protected shareMemosWith(clone: MemoisedSelector): void {
    clone.#segmentTableMemo = this.#segmentTableMemo;
    clone.#snapshotTableMemo = this.#snapshotTableMemo;
    clone.#segmentsMemo = this.#segmentsMemo;
    clone.#snapshotMemo = this.#snapshotMemo;
  }

  segmentTable(): SegmentTable {
    return (this.#segmentTableMemo ??= this.computeSegmentTable());
  }

  snapshotTable(): SegmentTable {
    return (this.#snapshotTableMemo ??= this.computeSnapshotTable());
  }

  segments(): Segment[] {
    return (this.#segmentsMemo ??= segmentsOfTable(this.segmentTable()));
  }

  snapshot(): Segment[] {
    return (this.#snapshotMemo ??= segmentsOfTable(this.snapshotTable()));
  }
}
