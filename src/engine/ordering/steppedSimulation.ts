/**
 * The ordering simulation taken further by hand, as the command line's `ordering --steps` does:
 * messages published, acknowledged and dispatched one step at a time, and the state after each.
 * The panel's ordering note only applies a change and previews the next round
 * (`OrderingSimulation`), so these steps are a subclass of their own: the .vsix, which bundles the
 * panel and not the command line, does not ship them.
 */
import { utf8 } from '../bytes';
import type { SimMessage } from './guard';
import { OrderingSimulation } from './simulation';
import { ScenarioError, type DispatchRound, type MessageInfo, type SimulationState } from './types';

export class SteppedSimulation extends OrderingSimulation {
  /** New messages arrive at the end of the topic (unread). */
  publish(messages: ReadonlyArray<{ id: string; key: string }>): void {
    const selector = this.sub.selector;
    for (const { id, key } of messages) {
      if (this.byId.has(id)) throw new ScenarioError(`publish: the id ${JSON.stringify(id)} is already used`);
      const hash = selector.makeStickyKeyHash(utf8(key));
      const m: SimMessage = { id, key, position: this.msgs.length, hash, slot: selector.slotOf(hash), status: 'unread', sent: false };
      this.msgs.push(m);
      this.byId.set(id, m);
    }
  }

  /** The consumers acknowledge these messages (each must be delivered and unacknowledged). */
  ack(ids: string | readonly string[]): void {
    for (const id of typeof ids === 'string' ? [ids] : ids) {
      const m = this.message(id, 'ack');
      if (m.status !== 'pending') throw new ScenarioError(`ack: ${id} is not delivered and unacknowledged (it is ${m.status})`);
      const c = m.consumer!;
      m.status = 'acked';
      m.consumer = undefined;
      this.guard.onAck(this.view(), m, c);
    }
  }

  /** Runs the next dispatch round: what may go out is sent (and becomes unacknowledged). */
  dispatch(): DispatchRound {
    const r = this.round();
    for (const [m, c] of r.sent) {
      m.status = 'pending';
      m.consumer = c;
      m.sent = true;
      this.guard.onSent(m, c);
      const p = this.permits.get(c.id);
      if (p !== undefined) this.permits.set(c.id, p - 1);
    }
    for (const [m, v] of r.verdicts) {
      if (v.kind === 'draining') this.guard.onBlocked(m);
      // What a read could not send waits in the replay queue (a message nobody owns included).
      if (m.status === 'unread') m.status = 'replay';
    }
    if (this.msgs.some((m) => m.position >= this.readPos)) this.readPos = this.msgs.length;
    return this.present(r.deliveries);
  }

  state(): SimulationState {
    const view = this.view();
    const out: SimulationState = {
      generation: this.generation,
      consumers: this.liveIds(),
      messages: this.msgs.map(info),
      markDeletePosition: view.markDeletePosition(),
      readPosition: this.readPos,
      draining: this.guard.draining(view),
      recentlyJoined: this.guard.recentlyJoined(),
    };
    if (this.generation === '3.1') out.lastSentPosition = view.lastSentPosition();
    return out;
  }
}

function info(m: SimMessage): MessageInfo {
  const status: MessageInfo['status'] = m.status === 'pending' ? { state: 'pending', consumer: m.consumer!.id } : { state: m.status };
  return { id: m.id, key: m.key, position: m.position, stickyKeyHash: m.hash, slot: m.slot, status };
}
