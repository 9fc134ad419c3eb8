// Kafka's sticky assignors balance a group whose members subscribe to different topics with a
// loop that runs another pass whenever a pass moved a partition, and on some groups it never
// stops (see `EndlessPasses` in abstractStickyAssignor.ts). The history below was replayed with
// the real classes (apache/kafka 1eb7644, StickyAssignor driven as the consumer client drives it:
// each member's own instance, onAssignment with the new generation, subscriptionUserData on the
// next join; the leader's HashMap of subscriptions): every step's owners are the ones listed, and
// the last step's assign() had not returned after 60 s, each pass moving partitions of orders
// between -10 and n0m and back. The engine must give the same owners, then refuse that step with
// the reason, quickly, leaving the group as it was.
//
// Each history runs in a worker thread on the engine bundle (dist/engine.js): a loop that never
// ends would block this thread, where no test timeout could stop it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { parseGroupEvent, type GroupEvent } from '../../src/engine/kafka/consumerGroup';

const SETTINGS = {
  'keyRouting.topics': [
    { name: 'orders', system: 'kafka', partitions: 5 },
    { name: 'payments', system: 'kafka', partitions: 1 },
  ],
  'keyRouting.kafkaGroups': [
    {
      name: 'g',
      assignor: 'sticky',
      topics: ['orders', 'payments'],
      members: [
        { id: '-10', topics: ['orders'] },
        { id: 'm1', topics: ['payments'] },
        { id: 'x-2', topics: ['orders', 'payments'] },
        { id: 'é3', topics: ['payments'] },
        { id: '-14', topics: ['payments'] },
      ],
    },
  ],
};

/** Events after forming (step 0), with Java's owners after each; null: Java's assign() did not return. */
const JAVA: Array<{ event: string | null; owners: Record<string, string[]> | null }> = [
  { event: null, owners: { orders: ['-10', 'x-2', '-10', 'x-2', '-10'], payments: ['-14'] } },
  { event: '+n0m:orders', owners: { orders: ['n0m', 'x-2', '-10', 'x-2', '-10'], payments: ['-14'] } },
  { event: 'partitions=8', owners: { orders: ['n0m', 'x-2', '-10', 'x-2', '-10'], payments: ['-14', 'm1', 'é3', '-14', 'm1', 'é3', '-14', 'm1'] } },
  {
    event: 'partitions=15',
    owners: { orders: ['n0m', 'n0m', '-10', '-10', '-10'], payments: ['x-2', 'm1', 'é3', '-14', 'm1', 'é3', '-14', 'm1', 'x-2', 'é3', '-14', 'm1', 'x-2', 'é3', '-14'] },
  },
  {
    event: '-é3',
    owners: { orders: ['n0m', 'n0m', '-10', '-10', '-10'], payments: ['x-2', 'm1', 'x-2', '-14', 'm1', '-14', '-14', 'm1', 'x-2', 'm1', '-14', 'm1', 'x-2', 'x-2', '-14'] },
  },
  { event: '+n4x-', owners: null },
];

/** Step results as the worker reports them: owners, or the refusal's text and the owners after it. */
type StepResult = { ok: true; owners: Record<string, string[]> } | { ok: false; error: string; ownersAfter: Record<string, string[]> };

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const engine = require(workerData.engine);
const { settings } = engine.parseSettings(workerData.settings);
const group = new engine.Topology(settings).groups[0];
const owners = () => Object.fromEntries(group.owners());
const out = [{ ok: true, owners: owners() }];
for (const event of workerData.events) {
  const r = group.apply(event);
  out.push(r.ok ? { ok: true, owners: owners() } : { ok: false, error: r.error, ownersAfter: owners() });
}
parentPort.postMessage(out);
`;

/** Runs the history in a worker; rejects if it has not finished within `limitMs`. */
function replay(events: string[], limitMs: number): Promise<StepResult[]> {
  return new Promise((done, fail) => {
    const parsed = events.map((e) => parseGroupEvent(e, 'payments') as GroupEvent);
    const w = new Worker(WORKER, { eval: true, workerData: { engine: resolve(__dirname, '../../engine.js'), settings: SETTINGS, events: parsed } });
    const timer = setTimeout(() => {
      void w.terminate();
      fail(new Error(`the history had not finished after ${limitMs} ms: the balancing loop ran on`));
    }, limitMs);
    w.once('message', (m) => {
      clearTimeout(timer);
      void w.terminate();
      done(m);
    });
    w.once('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
  });
}

describe('a sticky rebalance whose balancing loop never ends in Kafka', () => {
  test("owners as Java's at every step, then the endless step refused with the reason, the group left as it was", async () => {
    const events = JAVA.slice(1).map((s) => s.event!);
    const steps = await replay(events, 20_000);
    assert.equal(steps.length, JAVA.length);
    JAVA.forEach((java, i) => {
      const got = steps[i];
      if (java.owners) {
        assert.ok(got.ok, `step ${i} (${java.event}) refused: ${got.ok ? '' : got.error}`);
        assert.deepEqual(got.owners, java.owners, `owners after step ${i} (${java.event})`);
        return;
      }
      assert.ok(!got.ok, `step ${i} (${java.event}) gave owners where Kafka's assignor never returns`);
      assert.match(got.error, /balancing loop never ends/);
      assert.match(got.error, /partitions of orders between -10 and n0m/);
      assert.deepEqual(got.ownersAfter, JAVA[i - 1].owners, 'a refused step leaves the owners as they were');
    });
  });
});
