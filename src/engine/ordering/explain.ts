/**
 * Plain-language explanations of the ordering simulation, for the what-if panel and the CLI:
 * what a change moves, what the broker does to keep per-key order, and why each message may or
 * may not go out next.
 */
import type { Delivery, DispatchRound, EventOutcome, Move, OrderingGeneration, Verdict } from './types';

/** "a, b and c"; long lists end with "and N more". */
export function listText(items: readonly string[], max = 5): string {
  if (items.length === 0) return '';
  if (items.length > max) return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
  if (items.length === 1) return items[0];
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function rangesText(ranges: ReadonlyArray<readonly [number, number]>, max = 3): string {
  const shown = ranges.slice(0, max).map(([a, b]) => (a === b ? `${a}` : `[${a}, ${b}]`));
  const more = ranges.length > max ? ` and ${ranges.length - max} more range${ranges.length - max > 1 ? 's' : ''}` : '';
  return shown.join(', ') + more;
}

function owners(ids: readonly string[]): string {
  return ids.length > 1 ? `${listText(ids)} (sharing those ring points)` : ids[0];
}

/** One sentence per move. */
export function movesText(moves: readonly Move[], max = 6): string[] {
  if (moves.length === 0) return ['No hash changes owner.'];
  const lines = moves.slice(0, max).map((m) => {
    // A 4.x ring moves single hashes more often than not: "Hash 669 moves", not "Hashes 669 move".
    const one = m.ranges.length === 1 && m.ranges[0][0] === m.ranges[0][1];
    const what = `${one ? 'Hash' : 'Hashes'} ${rangesText(m.ranges)}`;
    if (m.from.length === 0) return `${what} had no consumer and now go${one ? 'es' : ''} to ${owners(m.to)}.`;
    if (m.to.length === 0) return one ? `${what} leaves ${owners(m.from)} and has no consumer now: its messages are not delivered until a consumer owns it.` : `${what} leave ${owners(m.from)} and have no consumer now: their messages are not delivered until a consumer owns them.`;
    return `${what} move${one ? 's' : ''} from ${owners(m.from)} to ${owners(m.to)}.`;
  });
  if (moves.length > max) lines.push(`…and ${moves.length - max} more moves.`);
  return lines;
}

/** What the change does and how the broker protects per-key order. */
export function eventText(generation: OrderingGeneration, o: EventOutcome): string[] {
  if (o.error) return [`${o.event}: the broker refuses it (${o.error}); nothing changes.`];
  const lines = movesText(o.moves);
  const joining = o.event.startsWith('+');
  const who = o.consumer ?? o.event.slice(1);
  if (!joining && o.redelivered.length > 0) {
    const n = o.redelivered.length;
    lines.push(
      n === 1
        ? `${who} leaves with 1 unacknowledged message (${o.redelivered[0]}): it is redelivered first, to the new owner of its hash, and newer messages of that hash wait behind it.`
        : `${who} leaves with ${n} unacknowledged messages (${listText(o.redelivered)}): they are redelivered first, to the new owners of their hashes, and newer messages of those hashes wait behind them.`,
    );
  }
  if (o.protection === 'none') {
    lines.push(
      `No ordering protection applies (${o.protectionNote}): keys in moved hashes go to their new owner at once, even while the previous owner still holds earlier messages of them.`,
    );
    return lines;
  }
  if (generation === '4.0') {
    if (o.moves.length === 0) return lines;
    const byConsumer = new Map<string, { hashes: number[]; pending: number; messages: string[] }>();
    const fresh = new Set(o.newlyDraining);
    for (const d of o.draining) {
      if (!fresh.has(d.hash)) continue;
      const g = byConsumer.get(d.consumer) ?? { hashes: [], pending: 0, messages: [] };
      g.hashes.push(d.hash);
      g.pending += d.pending;
      g.messages.push(...d.messages);
      byConsumer.set(d.consumer, g);
    }
    const still = o.draining.filter((d) => !fresh.has(d.hash));
    if (still.length > 0) {
      lines.push(`Still draining from earlier changes: ${listText(still.map((d) => `hash ${d.hash} at ${d.consumer} (${d.pending} pending)`), 4)}.`);
    }
    if (byConsumer.size === 0) {
      lines.push('Nothing unacknowledged is in the hashes this change moves, so nothing new drains: the new owners receive those keys at once.');
      return lines;
    }
    for (const [c, g] of byConsumer) {
      const one = g.hashes.length === 1;
      lines.push(
        `${one ? 'Hash' : 'Hashes'} ${listText(g.hashes.map(String))} ${one ? 'drains' : 'drain'} at ${c}: ${one ? 'its' : 'their'} new owner receives no message of ` +
          `${one ? 'it' : 'them'} until ${c} acknowledges its ${g.pending} pending message${g.pending > 1 ? 's' : ''} of ${one ? 'that hash' : 'those hashes'} (${listText(g.messages)}).`,
      );
    }
    lines.push('Every other moved hash has nothing unacknowledged at its previous owner, so its new owner receives it at once.');
    return lines;
  }
  if (!joining) return lines;
  if (o.heldAt) {
    const p = o.heldAt.position;
    if (o.heldAt.marker === 'lastSentPosition') {
      lines.push(
        `${who} joined when every message up to position ${p} had been sent (the last sent position). Until every message up to ${p} is acknowledged, ` +
          `${who} receives only messages at positions up to ${p}; newer messages of its keys, and messages read but not sent yet, wait in the replay queue.`,
      );
    } else {
      lines.push(`${who} is held at the cursor's read position ${p}: until every message before position ${p} is acknowledged, it receives only messages before ${p}.`);
      if (o.readNotSent && o.readNotSent.length > 0) {
        const n = o.readNotSent.length;
        lines.push(
          `${listText(o.readNotSent)} ${n > 1 ? 'were' : 'was'} read but not sent yet and ${n > 1 ? 'are' : 'is'} before position ${p}, so ${n > 1 ? 'they' : 'it'} can go to ${who} at once, ` +
            'even while the previous owner still holds earlier messages of the same key: the race PR #20179 describes (later generations hold a joining consumer at the last sent position instead).',
        );
      }
    }
  } else if (o.notHeldBecause) {
    lines.push(`${who} is not held back: ${o.notHeldBecause}.`);
  }
  return lines;
}

/** Why a message may or may not go out, as a clause. */
export function verdictText(d: Delivery): string {
  const v: Verdict = d.verdict;
  switch (v.kind) {
    case 'allowed':
      return v.redelivery ? 'may be sent now, from the replay queue' : 'may be sent now';
    case 'noConsumer':
      return `no consumer owns hash ${d.stickyKeyHash}, so nobody receives it`;
    case 'noPermits':
      return `${d.consumer} has no permits left`;
    case 'draining':
      if (v.holding < v.pending) {
        return (
          `hash ${d.stickyKeyHash} drains at ${v.at}, which the broker counts as ${v.pending} unacknowledged message${v.pending > 1 ? 's' : ''} although ` +
          `${v.at} holds ${v.holding === 0 ? 'none' : v.holding} of that hash: the count went wrong when the hash came back to ${v.at} and moved again, ` +
          'and the hash stays blocked (apache/pulsar#23845; later releases drop the references when a hash returns to its owner)'
        );
      }
      return `hash ${d.stickyKeyHash} drains at ${v.at} (${v.pending} unacknowledged message${v.pending > 1 ? 's' : ''} of it there)`;
    case 'recentlyJoined': {
      const applies = v.position !== v.ownPosition ? ` (for replays the oldest recently joined consumer's position, ${v.position}, applies)` : '';
      const sofar = v.markDelete < 0 ? 'nothing acknowledged so far' : `acknowledged so far: up to ${v.markDelete}`;
      return v.marker === 'lastSentPosition'
        ? `${d.consumer} joined at last sent position ${v.ownPosition} and position ${d.position} is after it${applies}; released once every message up to ${v.position} is acknowledged (${sofar})`
        : `${d.consumer} joined at read position ${v.ownPosition} and position ${d.position} is not before it${applies}; released once every message before ${v.position} is acknowledged (${sofar})`;
    }
    case 'behindReplay':
      return `its hash has ${listText(v.waiting)} waiting for redelivery`;
    case 'behindBlocked':
      return `it waits behind ${v.earlier} (same hash, held back)`;
  }
}

/** One line per consumer (what it may receive next, and what waits), then the unowned ones. */
export function roundText(round: DispatchRound): string[] {
  const lines: string[] = [];
  for (const [c, ds] of Object.entries(round.byConsumer)) {
    if (ds.length === 0) continue;
    const ok = ds.filter((d) => d.verdict.kind === 'allowed');
    const held = ds.filter((d) => d.verdict.kind !== 'allowed');
    const parts: string[] = [];
    parts.push(ok.length ? `may receive next ${listText(ok.map((d) => d.message + ((d.verdict as { redelivery?: boolean }).redelivery ? ' (from the replay queue)' : '')), 8)}` : 'receives nothing now');
    if (held.length) parts.push(`Held back: ${held.slice(0, 4).map((d) => `${d.message}: ${verdictText(d)}`).join('; ')}${held.length > 4 ? `; and ${held.length - 4} more` : ''}`);
    lines.push(`${c} ${parts.join('. ')}.`);
  }
  const unowned = round.deliveries.filter((d) => d.consumer === null);
  if (unowned.length) lines.push(`No consumer owns the hash of ${listText(unowned.map((d) => d.message))}: not delivered.`);
  for (const d of round.deliveries) {
    if (!d.outOfOrder) continue;
    lines.push(
      d.outOfOrder.at === null
        ? `Sending ${d.message} to ${d.consumer} now breaks the order of key ${JSON.stringify(d.key)}: ${d.outOfOrder.earlier} is not sent yet.`
        : `Sending ${d.message} to ${d.consumer} now breaks the order of key ${JSON.stringify(d.key)}: ${d.outOfOrder.earlier} is still unacknowledged at ${d.outOfOrder.at}.`,
    );
  }
  return lines;
}
