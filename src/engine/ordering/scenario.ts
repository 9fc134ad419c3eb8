/**
 * Reads an ordering scenario from untrusted JSON (the CLI's input file, a webview message):
 * every problem is a `ScenarioError` naming the field and what is wrong.
 */
import type { HashRange } from '../pulsar/keyShared/selector';
import { ORDERING_GENERATIONS, ScenarioError, type OrderingGeneration, type OrderingScenario, type ScenarioSubscription } from './types';
import { isObject } from '../jsonObject';

/** A follow-up action after the change. */
export type OrderingStep = { ack: string[] } | { dispatch: true } | { event: string } | { publish: Array<{ id: string; key: string }> };

const MAX_MESSAGES = 100_000;

function stringArray(v: unknown, path: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new ScenarioError(`${path}: must be an array of message ids (strings)`);
  return v as string[];
}

function ranges(v: unknown, path: string): HashRange[] {
  if (!Array.isArray(v) || v.some((r) => !Array.isArray(r) || r.length !== 2 || r.some((x: unknown) => !Number.isInteger(x) || (x as number) < 0))) {
    throw new ScenarioError(`${path}: must be an array of [start, end] pairs of integers >= 0`);
  }
  return v as HashRange[];
}

/** Checks the shape of a scenario; `generation` may be left out where `defaultGeneration` is given. */
export function parseScenario(raw: unknown, defaultGeneration?: OrderingGeneration): OrderingScenario {
  if (!isObject<unknown>(raw)) throw new ScenarioError('the scenario must be a JSON object');
  const generation = raw.generation ?? defaultGeneration;
  if (!ORDERING_GENERATIONS.includes(generation as OrderingGeneration)) {
    throw new ScenarioError(`generation: must be one of ${ORDERING_GENERATIONS.map((g) => JSON.stringify(g)).join(', ')}`);
  }
  const out: OrderingScenario = { generation: generation as OrderingGeneration, consumers: [], messages: [] };

  if (raw.subscription !== undefined) {
    const s = raw.subscription;
    if (!isObject<unknown>(s)) throw new ScenarioError('subscription: must be an object');
    const sub: ScenarioSubscription = {};
    if (s.keySharedMode !== undefined) {
      if (s.keySharedMode !== 'AUTO_SPLIT' && s.keySharedMode !== 'STICKY') throw new ScenarioError('subscription.keySharedMode: must be "AUTO_SPLIT" or "STICKY"');
      sub.keySharedMode = s.keySharedMode;
    }
    for (const f of ['consistentHashing', 'allowOutOfOrderDelivery'] as const) {
      if (s[f] === undefined) continue;
      if (typeof s[f] !== 'boolean') throw new ScenarioError(`subscription.${f}: must be true or false`);
      sub[f] = s[f] as boolean;
    }
    if (s.replicaPoints !== undefined) {
      if (!Number.isInteger(s.replicaPoints) || (s.replicaPoints as number) < 1 || (s.replicaPoints as number) > 10_000) {
        throw new ScenarioError('subscription.replicaPoints: must be an integer from 1 to 10000');
      }
      sub.replicaPoints = s.replicaPoints as number;
    }
    if (s.hashRangeSize !== undefined) {
      if (!Number.isInteger(s.hashRangeSize) || (s.hashRangeSize as number) < 2 || (s.hashRangeSize as number) > 65536) {
        throw new ScenarioError('subscription.hashRangeSize: must be a power of two from 2 to 65536');
      }
      sub.hashRangeSize = s.hashRangeSize as number;
    }
    out.subscription = sub;
  }

  if (!Array.isArray(raw.consumers)) throw new ScenarioError('consumers: must be an array of {"name", "ranges"?} in connection order');
  out.consumers = raw.consumers.map((c, i) => {
    if (!isObject<unknown>(c) || typeof c.name !== 'string' || c.name === '') throw new ScenarioError(`consumers[${i}]: must be an object with a non-empty "name"`);
    return c.ranges === undefined ? { name: c.name } : { name: c.name, ranges: ranges(c.ranges, `consumers[${i}].ranges`) };
  });

  if (!Array.isArray(raw.messages)) throw new ScenarioError('messages: must be an array of {"id", "key"} in publish order');
  if (raw.messages.length > MAX_MESSAGES) throw new ScenarioError(`messages: at most ${MAX_MESSAGES} messages`);
  out.messages = raw.messages.map((m, i) => {
    if (!isObject<unknown>(m) || typeof m.id !== 'string' || m.id === '' || typeof m.key !== 'string') {
      throw new ScenarioError(`messages[${i}]: must be an object with a non-empty string "id" and a string "key"`);
    }
    return { id: m.id, key: m.key };
  });

  if (raw.pending !== undefined) {
    if (!isObject<unknown>(raw.pending)) throw new ScenarioError('pending: must be an object {consumerId: [message ids]}');
    out.pending = {};
    for (const [c, ids] of Object.entries(raw.pending)) out.pending[c] = stringArray(ids, `pending.${c}`);
  }
  if (raw.acked !== undefined) out.acked = stringArray(raw.acked, 'acked');
  if (raw.readPosition !== undefined) {
    if (!Number.isInteger(raw.readPosition)) throw new ScenarioError('readPosition: must be an integer');
    out.readPosition = raw.readPosition as number;
  }
  if (raw.permits !== undefined) {
    if (!isObject<unknown>(raw.permits)) throw new ScenarioError('permits: must be an object {consumerId: count}');
    out.permits = {};
    for (const [c, n] of Object.entries(raw.permits)) {
      if (!Number.isInteger(n) || (n as number) < 0) throw new ScenarioError(`permits.${c}: must be an integer >= 0`);
      out.permits[c] = n as number;
    }
  }
  if (raw.event !== undefined) {
    if (typeof raw.event !== 'string') throw new ScenarioError('event: must be a string such as "+C2", "+E2:0-100" or "-C1"');
    out.event = raw.event;
  }
  return out;
}

/** Checks the follow-up steps: `{"ack": [ids]}`, `{"dispatch": true}` or `{"event": "+C3"}`. */
export function parseSteps(raw: unknown): OrderingStep[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ScenarioError('steps: must be an array');
  return raw.map((s, i) => {
    if (isObject<unknown>(s) && Object.keys(s).length === 1) {
      if (s.ack !== undefined) return { ack: stringArray(s.ack, `steps[${i}].ack`) };
      if (s.dispatch === true) return { dispatch: true };
      if (typeof s.event === 'string') return { event: s.event };
      if (Array.isArray(s.publish)) {
        return {
          publish: s.publish.map((m: unknown, j: number) => {
            if (!isObject<unknown>(m) || typeof m.id !== 'string' || m.id === '' || typeof m.key !== 'string') {
              throw new ScenarioError(`steps[${i}].publish[${j}]: must be an object with a non-empty string "id" and a string "key"`);
            }
            return { id: m.id, key: m.key };
          }),
        };
      }
    }
    throw new ScenarioError(`steps[${i}]: must be {"ack": [ids]}, {"dispatch": true}, {"publish": [{"id", "key"}]} or {"event": "+NAME"}`);
  });
}
