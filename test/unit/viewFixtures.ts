/**
 * Topics and keys that exercise every kind of panel view, shared by the tests that compare a view
 * made one way with the same view made another (frames.test.ts: the host's frame against the
 * panel's own topology; noStepsWhatIf.test.ts: a what-if of no steps from the frame against the
 * engine's).
 */
import type { KeyInput } from '../../src/shared/protocol';
import type { GroupViewModel } from '../../src/shared/view/groupView';

/** Every seventh consumer is named `dup`: duplicate names get `dup#k` ids. */
const consumers = (n: number) => Array.from({ length: n }, (_, i) => ({ name: i % 7 === 0 ? 'dup' : `c-${i}` }));
const sub = (extra: Record<string, unknown>, n = 60) => ({ name: 's', type: 'Key_Shared', consumers: consumers(n), ...extra });

/** Every selector kind, both broker generations, a topic without a subscription, and Kafka (raw settings). */
export const TOPICS_OF_EVERY_KIND = [
  { name: 'ring3', system: 'pulsar', partitions: 0, brokerVersion: '3.0', subscription: sub({ keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 30 }) },
  // Many points on the 16-bit ring: points collide, so consumers queue behind others.
  { name: 'ring4', system: 'pulsar', partitions: 4, brokerVersion: '4.0', subscription: sub({ keySharedMode: 'AUTO_SPLIT', consistentHashing: true, replicaPoints: 800 }) },
  { name: 'split3', system: 'pulsar', partitions: 2, brokerVersion: '3.0', subscription: sub({ keySharedMode: 'AUTO_SPLIT', consistentHashing: false, hashRangeSize: 4096 }) },
  { name: 'split4', system: 'pulsar', brokerVersion: '4.0', subscription: sub({ keySharedMode: 'AUTO_SPLIT', consistentHashing: false }) },
  {
    name: 'sticky',
    system: 'pulsar',
    brokerVersion: '4.0',
    subscription: { name: 's', type: 'Key_Shared', keySharedMode: 'STICKY', consumers: [{ name: 'a', ranges: [[0, 100]] }, { name: 'b', ranges: [[5000, 6000], [60000, 65535]] }] },
  },
  { name: 'plain', system: 'pulsar', partitions: 3 },
  { name: 'orders', system: 'kafka', partitions: 12 },
];

/** Keys of every kind: text, the empty key, non-ASCII, bytes, and hex that is not a key. */
export const KEYS_OF_EVERY_KIND: KeyInput[] = [
  ...Array.from({ length: 40 }, (_, i): KeyInput => ({ format: 'utf8', value: `key-${i * 31}` })),
  { format: 'utf8', value: '' },
  { format: 'utf8', value: 'ключ' },
  { format: 'hex', value: '00ff10' },
  { format: 'hex', value: 'zz' },
];

/** A group view as plain data (typed arrays as arrays), for deepEqual. */
export function plainGroup(g: GroupViewModel): unknown {
  return JSON.parse(JSON.stringify(g, (_k, x) => (ArrayBuffer.isView(x) ? Array.from(x as unknown as number[]) : x)));
}
