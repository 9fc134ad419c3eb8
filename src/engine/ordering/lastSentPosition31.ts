/**
 * 3.1+ in ALGORITHMS.md's terms (upstream: PIP-282, PR #21953, which superseded PR #20179): a
 * consumer that joins is held at the dispatcher's last sent position, the highest position up to
 * which every message has been sent to some consumer. Messages read but not sent yet are after it,
 * so they no longer slip through to the new consumer. It receives only messages at or before that
 * position until the mark-delete position reaches it (released once mark-delete >= the position).
 *
 * Only AUTO_SPLIT subscriptions that keep order track joins (`recentlyJoinedConsumerTrackingRequired`).
 *
 * As the code reads, a message sent out of order (after an unsent one) is beyond the last sent
 * position, so if every message up to that position is acknowledged the joining consumer is
 * released at once, although the earlier owner may still hold that later message: the simulation
 * then shows the new consumer receiving the key's next message out of order.
 */
import type { CursorView } from './guard';
import { RecentlyJoinedGuard } from './recentlyJoined';

export class LastSentPositionGuard extends RecentlyJoinedGuard {
  readonly generation = '3.1';
  readonly marker = 'lastSentPosition';

  protected tracks(view: CursorView): { yes: true } | { yes: false; why: string } {
    if (view.allowOutOfOrderDelivery) return { yes: false, why: 'the subscription allows out-of-order delivery' };
    if (view.keySharedMode !== 'AUTO_SPLIT') {
      return { yes: false, why: 'STICKY subscriptions do not track joining consumers (each consumer names its own ranges)' };
    }
    return { yes: true };
  }

  protected positionWhenJoining(view: CursorView): number {
    return view.lastSentPosition();
  }

  protected released(position: number, markDelete: number): boolean {
    return position <= markDelete;
  }

  protected beyond(position: number, marker: number): boolean {
    return position > marker;
  }
}
