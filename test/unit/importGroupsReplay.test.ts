/**
 * A kafka-groups import as users chain it: `key-routing import kafka-groups` into settings, then
 * `assignment` and `route` name the members the describe output shows (read here from the rows
 * themselves), and a rebalance started from the observed owners gives the real sticky assignors'
 * answer. The known answers below come from Kafka's own StickyAssignor and
 * CooperativeStickyAssignor (apache/kafka clients at the reference commit): each member's assignor
 * got onAssignment(observed partitions, generation 1), then the group ran JoinGroup/SyncGroup
 * rounds with a HashMap of subscriptions (cooperative: ownedPartitions and generation, repeated
 * while a member had partitions revoked) after each event.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliText, configFile } from './cliRun';

const DATA = join(__dirname, '../../../test/unit/data/observed');

/** The describe output's own rows: topic -> partition -> CONSUMER-ID (null for `-`). */
function describedOwners(file: string): Map<string, Map<number, string | null>> {
  const lines = readFileSync(join(DATA, file), 'utf8').split('\n');
  const header = lines.find((l) => l.startsWith('GROUP'))!.trim().split(/\s+/);
  const col = (name: string) => header.indexOf(name);
  const out = new Map<string, Map<number, string | null>>();
  for (const l of lines.slice(lines.findIndex((x) => x.startsWith('GROUP')) + 1)) {
    const cells = l.trim().split(/\s+/);
    if (cells.length < header.length) continue;
    const topic = cells[col('TOPIC')];
    if (!out.has(topic)) out.set(topic, new Map());
    const id = cells[col('CONSUMER-ID')];
    out.get(topic)!.set(Number(cells[col('PARTITION')]), id === '-' ? null : id);
  }
  return out;
}

/** `key-routing import kafka-groups FILE --assignor A` written to a settings file. */
async function imported(file: string, assignor: string): Promise<string> {
  const r = await cliText(['import', 'kafka-groups', join(DATA, file), '--assignor', assignor]);
  assert.equal(r.code, 0, r.stderr);
  return configFile(r.stdout);
}

const B1 = 'consumer-billing-1-6513270e-269e-0d37-f2a7-4de452e6b438';
const B2 = 'consumer-billing-2-d23f0824-128b-2f33-0c5c-7fd0a6a3a450';
const B3 = 'consumer-billing-3-9531985d-5d9d-c9f8-1818-e811892f902b';
const B4 = 'consumer-billing-4';
const A1 = 'consumer-audit-1-0f3c8e61-3b5e-4d7e-9a52-6a1d2b9c4e11';
const A2 = 'consumer-audit-2-7d1e5b9a-2c4f-4b8e-8f31-0e9a6c5d3b22';
const A3 = 'consumer-audit-3';
const A4 = 'consumer-audit-4';

describe('import kafka-groups, then assignment and route', () => {
  for (const [file, group] of [['kafka-groups-describe.txt', 'billing'], ['kafka-groups-uneven.txt', 'audit']] as const) {
    const rows = describedOwners(file);
    test(`${file}: assignment without events prints the described owners`, async () => {
      const r = await cli(['assignment', '--config', await imported(file, 'range'), '--group', group]);
      assert.equal(r.code, 0, r.stderr);
      const owners = r.lines[0].owners as Record<string, Array<string | null>>;
      assert.equal(r.lines[0].observed, true);
      for (const [topic, byPartition] of rows) {
        // A topic whose partitions nobody owns is left out of the group (a note says so).
        if ([...byPartition.values()].every((m) => m === null)) continue;
        for (const [p, m] of byPartition) assert.equal(owners[topic][p], m, `${topic} partition ${p}`);
      }
    });

    test(`${file}: route gives each key the member the describe output shows for its partition`, async () => {
      const keys = Array.from({ length: 40 }, (_, i) => `user-${i}`);
      const r = await cli(['route', '--config', await imported(file, 'sticky')], keys.join('\n') + '\n');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.lines.length, keys.length * 2);
      for (const line of r.lines) {
        assert.equal(line.observed, true);
        assert.equal(line.groups[group], rows.get(line.topic)!.get(line.partition), `${line.key} on ${line.topic} p${line.partition}`);
      }
    });
  }
});

describe('a rebalance from the observed owners equals the real sticky assignors', () => {
  // [fixture, group, events, owners after each event] from Kafka's assignors (see the top).
  const cases: Array<[string, string, string[], Array<{ orders: string[]; payments: string[] }>]> = [
    ['kafka-groups-describe.txt', 'billing', [`-${B1}`], [{ orders: [B2, B3, B2, B2, B3, B3], payments: [B2, B2, B3] }]],
    [
      'kafka-groups-describe.txt',
      'billing',
      [`+${B4}`, `-${B2}`, `-${B3}`],
      [
        { orders: [B1, B1, B2, B4, B3, B4], payments: [B1, B2, B3] },
        { orders: [B1, B1, B3, B4, B3, B4], payments: [B1, B4, B3] },
        { orders: [B1, B1, B1, B4, B4, B4], payments: [B1, B4, B1] },
      ],
    ],
    // Observed owners no assignor would give from scratch (A1 four orders partitions, A2 the rest).
    ['kafka-groups-uneven.txt', 'audit', [`-${A2}`], [{ orders: [A1, A1, A1, A1, A1, A1], payments: [A1, A1, A1] }]],
    [
      'kafka-groups-uneven.txt',
      'audit',
      [`+${A3}`, `+${A4}`],
      [
        { orders: [A1, A1, A1, A3, A3, A3], payments: [A2, A2, A2] },
        { orders: [A1, A1, A4, A3, A3, A4], payments: [A2, A2, A2] },
      ],
    ],
  ];
  for (const assignor of ['sticky', 'cooperative-sticky']) {
    for (const [file, group, events, want] of cases) {
      test(`${assignor}, ${file}: ${events.map((e) => e.slice(0, 18)).join(' ')}`, async () => {
        const config = await imported(file, assignor);
        // The same answers the two eager and cooperative classes gave, step by step.
        for (let i = 0; i < events.length; i++) {
          const r = await cli(['assignment', '--config', config, '--group', group, ...events.slice(0, i + 1).flatMap((e) => ['--then', e])]);
          assert.equal(r.code, 0, r.stderr);
          assert.deepEqual(r.lines[0].owners, want[i], `after ${events.slice(0, i + 1).join(', ')}`);
        }
        // what-if from the observed owners moves exactly the partitions whose owner changed.
        const w = await cli(['what-if', '--config', config, '--group', group, ...events.flatMap((e) => ['--then', e])]);
        assert.equal(w.code, 0, w.stderr);
        let before = describedOwnersAsLists(file);
        w.lines[0].steps.forEach((step: { moved: Array<{ topic: string; partition: number; from: string; to: string }> }, i: number) => {
          const after = want[i] as Record<string, string[]>;
          const changed = Object.keys(after).flatMap((t) => after[t].map((m, p) => ({ topic: t, partition: p, from: before[t][p], to: m })).filter((c) => c.from !== c.to && c.from !== null));
          assert.deepEqual(step.moved.map((m) => [m.topic, m.partition, m.from, m.to]).sort(), changed.map((c) => [c.topic, c.partition, c.from, c.to]).sort(), `step ${i + 1}`);
          before = after;
        });
      });
    }
  }

  function describedOwnersAsLists(file: string): Record<string, Array<string | null>> {
    const out: Record<string, Array<string | null>> = {};
    for (const [t, m] of describedOwners(file)) out[t] = [...m.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
    return out;
  }
});
