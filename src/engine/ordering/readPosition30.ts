/**
 * 3.0 and earlier: a consumer that joins is held at the cursor's read position at that moment.
 * It receives only messages before that position (in practice redeliveries) until the mark-delete
 * position reaches it: released once mark-delete + 1 >= the position.
 *
 * Every read message counts as "before", sent or not. A message the cursor has read but not yet
 * dispatched (still in flight, or parked in the replay queue for lack of permits) can therefore go
 * to the new consumer while the previous owner of its key still holds earlier messages of that
 * key: the race PR #20179 described and PIP-282 fixed with the last sent position.
 *
 * The protection applies in both Key_Shared modes, unless the subscription allows out-of-order
 * delivery.
 */
import type { CursorView } from './guard';
import { RecentlyJoinedGuard } from './recentlyJoined';

export class ReadPositionGuard extends RecentlyJoinedGuard {
  readonly generation = '3.0';
  readonly marker = 'readPosition';

  protected tracks(view: CursorView): { yes: true } | { yes: false; why: string } {
    return view.allowOutOfOrderDelivery ? { yes: false, why: 'the subscription allows out-of-order delivery' } : { yes: true };
  }

  protected positionWhenJoining(view: CursorView): number {
    return view.readPosition;
  }

  protected released(position: number, markDelete: number): boolean {
    // compared with the position after mark-delete (`getNextValidPosition`)
    return position <= markDelete + 1;
  }

  protected beyond(position: number, marker: number): boolean {
    return position >= marker;
  }
}
