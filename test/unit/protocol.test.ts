import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseFromWebviewMessage, ProtocolError, LIMITS, isToWebviewMessage, refusedApplyId, type FromWebviewMessage } from '../../src/shared/protocol';
import { MAX_CONSUMERS } from '../../src/engine/settings';
import { MAX_GROUP_MEMBERS } from '../../src/engine/kafka/groupSettings';

function refused(raw: unknown, pathPattern?: RegExp): ProtocolError {
  const r = parseFromWebviewMessage(raw);
  assert.ok(r instanceof ProtocolError, `expected a refusal, got ${JSON.stringify(r)}`);
  if (pathPattern) assert.match(r.path, pathPattern, r.toString());
  return r;
}

function accepted(raw: unknown): FromWebviewMessage {
  const r = parseFromWebviewMessage(raw);
  assert.ok(!(r instanceof ProtocolError), `expected acceptance, got ${r}`);
  return r;
}

const apply = (extra: Record<string, unknown> = {}) => ({ type: 'applyToSettings', requestId: 1, topic: 'orders', partitions: 8, ...extra });

describe('valid messages', () => {
  test('ready, webviewError and applyToSettings come back as fresh copies', () => {
    assert.deepEqual(accepted({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(accepted({ type: 'webviewError', message: 'boom' }), { type: 'webviewError', message: 'boom' });
    const raw = {
      type: 'applyToSettings',
      requestId: 7,
      topic: 'persistent://public/default/p',
      consumers: [{ name: 'C1' }, { name: 'E1', ranges: [[0, 16383], [32768, 65535]] }],
    };
    const msg = accepted(raw);
    assert.deepEqual(msg, raw);
    // Nothing of the input is shared with the output.
    raw.consumers[1].ranges![0][0] = 99;
    raw.consumers.push({ name: 'late' });
    assert.equal(msg.type === 'applyToSettings' && msg.consumers!.length, 2);
    assert.equal(msg.type === 'applyToSettings' && msg.consumers![1].ranges![0][0], 0);
  });

  test('objects without a prototype (as some deserialisers make) are plain data too', () => {
    const o = Object.create(null);
    o.type = 'ready';
    assert.deepEqual(accepted(o), { type: 'ready' });
  });

  test('limits are inclusive', () => {
    accepted(apply({ requestId: LIMITS.requestId, partitions: LIMITS.partitions, topic: 'x'.repeat(LIMITS.topicName) }));
    accepted(apply({ partitions: undefined, consumers: [{ name: 'n'.repeat(LIMITS.consumerName), ranges: [[0, LIMITS.rangeMax]] }] }));
    accepted({ type: 'webviewError', message: 'm'.repeat(LIMITS.errorMessage) });
  });
});

describe('panelView: the keys the panel shows, its width and topic, for the host to route and lay out', () => {
  test('comes back as a fresh copy, in order, empty values and hex included', () => {
    const raw = { type: 'panelView', keys: [{ format: 'utf8', value: 'order-1' }, { format: 'hex', value: '00ff' }, { format: 'utf8', value: '' }] };
    const msg = accepted(raw);
    assert.deepEqual(msg, raw);
    raw.keys[0].value = 'changed';
    assert.equal(msg.type === 'panelView' && msg.keys[0].value, 'order-1');
    accepted({ type: 'panelView', keys: [] });
    assert.deepEqual(accepted({ type: 'panelView', keys: [], width: 1196 }), { type: 'panelView', keys: [], width: 1196 });
    accepted({ type: 'panelView', keys: [], width: LIMITS.panelWidth });
    accepted({ type: 'panelView', keys: Array.from({ length: LIMITS.panelKeys }, (_, i) => ({ format: 'utf8', value: `k${i}` })) });
    // The topic it shows, whose frame the host sends first.
    assert.deepEqual(accepted({ type: 'panelView', keys: [], topic: 'persistent://public/default/orders' }), { type: 'panelView', keys: [], topic: 'persistent://public/default/orders' });
    accepted({ type: 'panelView', keys: [], topic: 't'.repeat(LIMITS.topicName) });
  });

  test('too many keys, unknown formats, extra fields and non-strings are refused by path', () => {
    refused({ type: 'panelView', keys: Array.from({ length: LIMITS.panelKeys + 1 }, () => ({ format: 'utf8', value: 'k' })) }, /message\.keys/);
    refused({ type: 'panelView', keys: [{ format: 'base64', value: 'AA==' }] }, /message\.keys\[0\]\.format/);
    refused({ type: 'panelView', keys: [{ format: 'utf8', value: 7 }] }, /message\.keys\[0\]\.value/);
    refused({ type: 'panelView', keys: [{ format: 'utf8', value: 'k', route: 1 }] }, /message\.keys\[0\]\.route/);
    refused({ type: 'panelView', keys: [{ format: 'utf8', value: 'k'.repeat(LIMITS.keyValue + 1) }] }, /message\.keys\[0\]\.value/);
    refused({ type: 'panelView' }, /message\.keys/);
    refused({ type: 'panelView', keys: [], width: 0 }, /message\.width/);
    refused({ type: 'panelView', keys: [], width: 12.5 }, /message\.width/);
    refused({ type: 'panelView', keys: [], width: LIMITS.panelWidth + 1 }, /message\.width/);
    refused({ type: 'panelView', keys: {} }, /message\.keys/);
    refused({ type: 'panelView', keys: [], topic: '' }, /message\.topic/);
    refused({ type: 'panelView', keys: [], topic: 7 }, /message\.topic/);
    refused({ type: 'panelView', keys: [], topic: 't'.repeat(LIMITS.topicName + 1) }, /message\.topic/);
  });
});

describe('hostile messages are refused, with the offending field named', () => {
  test('not an object, no type, unknown type', () => {
    for (const raw of [null, undefined, 42, 'ready', true, [], [{ type: 'ready' }], () => 1, Symbol('x'), 10n]) refused(raw);
    refused({}, /type/);
    refused({ type: 42 }, /message\.type/);
    refused({ type: 'writeFile', path: '/etc/passwd' }, /message\.type/);
    refused({ type: 'READY' }, /message\.type/);
  });

  test('extra fields are refused rather than ignored', () => {
    refused({ type: 'ready', extra: 1 }, /message\.extra/);
    refused(apply({ command: 'rm' }), /message\.command/);
    refused(apply({ consumers: [{ name: 'C', admin: true }] }), /consumers\[0\]\.admin/);
  });

  test('wrong types and ranges in applyToSettings', () => {
    refused(apply({ requestId: '1' }), /requestId/);
    refused(apply({ requestId: 1.5 }), /requestId/);
    refused(apply({ requestId: -1 }), /requestId/);
    refused(apply({ requestId: LIMITS.requestId + 1 }), /requestId/);
    refused(apply({ topic: '' }), /topic/);
    refused(apply({ topic: 7 }), /topic/);
    refused(apply({ topic: 'x'.repeat(LIMITS.topicName + 1) }), /topic/);
    refused(apply({ partitions: -1 }), /partitions/);
    refused(apply({ partitions: 2.5 }), /partitions/);
    refused(apply({ partitions: LIMITS.partitions + 1 }), /partitions/);
    refused(apply({ partitions: '8' }), /partitions/);
    refused(apply({ partitions: NaN }), /partitions/);
    refused(apply({ partitions: Infinity }), /partitions/);
    refused(apply({ partitions: undefined }), /message/); // neither partitions nor consumers
    refused(apply({ consumers: {} }), /consumers/);
    refused(apply({ consumers: [null] }), /consumers\[0\]/);
    refused(apply({ consumers: ['C1'] }), /consumers\[0\]/);
    refused(apply({ consumers: [{}] }), /consumers\[0\]\.name/);
    refused(apply({ consumers: [{ name: '' }] }), /consumers\[0\]\.name/);
    refused(apply({ consumers: [{ name: 'x'.repeat(LIMITS.consumerName + 1) }] }), /consumers\[0\]\.name/);
    refused(apply({ consumers: [{ name: 'E', ranges: [] }] }), /ranges/);
    refused(apply({ consumers: [{ name: 'E', ranges: [[5, 4]] }] }), /ranges\[0\]/);
    refused(apply({ consumers: [{ name: 'E', ranges: [[0, 1, 2]] }] }), /ranges\[0\]/);
    refused(apply({ consumers: [{ name: 'E', ranges: [[0]] }] }), /ranges\[0\]/);
    refused(apply({ consumers: [{ name: 'E', ranges: [[-1, 4]] }] }), /ranges\[0\]\[0\]/);
    refused(apply({ consumers: [{ name: 'E', ranges: [[0, LIMITS.rangeMax + 1]] }] }), /ranges\[0\]\[1\]/);
    refused(apply({ consumers: [{ name: 'E', ranges: [['0', 4]] }] }), /ranges\[0\]\[0\]/);
    refused(apply({ consumers: Array.from({ length: LIMITS.consumers + 1 }, () => ({ name: 'c' })) }), /consumers/);
    refused({ type: 'webviewError', message: 'm'.repeat(LIMITS.errorMessage + 1) }, /message\.message/);
  });

  test('oversized: a huge string, a message over 4 MiB, too many values', () => {
    const r = refused({ type: 'webviewError', message: 'x'.repeat(50_000_000) });
    assert.match(r.reason, /characters/);
    // Each string within limits, the whole over 4 MiB.
    const big = apply({ extra: Array.from({ length: 600 }, () => 'y'.repeat(LIMITS.anyString)) });
    assert.match(refused(big).reason, /bytes as JSON/);
    // Multi-byte characters count as UTF-8 bytes: 6,000 x 256 x 3 bytes > 4 MiB, in 1.5 million characters.
    const wide = apply({ partitions: undefined, consumers: Array.from({ length: 6000 }, () => ({ name: '\u20ac'.repeat(LIMITS.consumerName) })) });
    assert.match(refused(wide).reason, /bytes as JSON/);
    const many = apply({ extra: Array.from({ length: LIMITS.nodes + 5 }, () => 0) });
    refused(many);
  });

  test('an Apply carries lists as long as the settings allow, and a what-if\'s steps past them', () => {
    // Names as long as accepted: 10,100 x 256 bytes, 2.6 MB.
    const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}-`.padEnd(LIMITS.consumerName, 'x'));
    const most = accepted(apply({ partitions: undefined, consumers: names(MAX_CONSUMERS + 100, 'c').map((name) => ({ name })) }));
    assert.equal(most.type === 'applyToSettings' && most.consumers?.length, 10_100);
    refused(apply({ partitions: undefined, consumers: names(MAX_CONSUMERS + 101, 'c').map((name) => ({ name })) }), /consumers/);
    // A STICKY subscription whose 10,100 consumers hold all 65,536 one-slot ranges (the most values
    // an Apply of disjoint ranges has).
    const sticky = Array.from({ length: MAX_CONSUMERS + 100 }, (_, i) => ({ name: `c${i}`, ranges: [] as number[][] }));
    for (let slot = 0; slot < 65536; slot++) sticky[slot % sticky.length].ranges.push([slot, slot]);
    const all = accepted(apply({ partitions: undefined, consumers: sticky }));
    assert.equal(all.type === 'applyToSettings' && all.consumers?.reduce((n, c) => n + (c.ranges?.length ?? 0), 0), 65536);
    // One consumer with every slot as a range of its own.
    const one = accepted(apply({ partitions: undefined, consumers: [{ name: 'E', ranges: Array.from({ length: 65536 }, (_, i) => [i, i]) }] }));
    assert.equal(one.type === 'applyToSettings' && one.consumers?.[0].ranges?.length, 65536);
    // A group of as many members, each on three topics.
    const members = names(MAX_GROUP_MEMBERS + 100, 'm').map((id) => ({ id, topics: ['orders', 'payments', 'refunds'] }));
    const group = accepted({ type: 'applyGroupToSettings', requestId: 3, group: 'g', members });
    assert.equal(group.type === 'applyGroupToSettings' && group.members.length, 10_100);
    refused({ type: 'applyGroupToSettings', requestId: 3, group: 'g', members: [...members, { id: 'one-more' }] }, /members/);
  });

  test('a refused Apply is answered with its request id; nothing else is', () => {
    const tooMany = apply({ partitions: undefined, consumers: Array.from({ length: LIMITS.consumers + 1 }, () => ({ name: 'c' })) });
    refused(tooMany);
    assert.equal(refusedApplyId(tooMany), 1);
    assert.equal(refusedApplyId({ type: 'applyGroupToSettings', requestId: 9, group: 7 }), 9);
    assert.equal(refusedApplyId({ type: 'applyToSettings', requestId: LIMITS.requestId }), LIMITS.requestId);
    for (const raw of [
      null,
      undefined,
      'applyToSettings',
      7,
      [],
      { type: 'applyToSettings' },
      { type: 'applyToSettings', requestId: -1 },
      { type: 'applyToSettings', requestId: 1.5 },
      { type: 'applyToSettings', requestId: '1' },
      { type: 'applyToSettings', requestId: LIMITS.requestId + 1 },
      { type: 'exportAnalysis', requestId: 1 },
      { type: ['applyToSettings'], requestId: 1 },
    ]) {
      assert.equal(refusedApplyId(raw), undefined, JSON.stringify(raw));
    }
  });

  test('deep nesting and cycles are refused without a stack overflow', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    refused(apply({ consumers: deep }));
    let deepObj: Record<string, unknown> = {};
    const rootObj = deepObj;
    for (let i = 0; i < 10_000; i++) deepObj = (deepObj.a = {}) as Record<string, unknown>;
    refused({ type: 'ready', a: rootObj.a });
    const cyclic: Record<string, unknown> = { type: 'applyToSettings', requestId: 1, topic: 't' };
    cyclic.consumers = [cyclic];
    refused(cyclic);
  });

  test('prototype-pollution keys are refused and pollute nothing', () => {
    for (const text of [
      '{"type":"ready","__proto__":{"polluted":true}}',
      '{"type":"applyToSettings","requestId":1,"topic":"t","consumers":[{"name":"C","__proto__":{"polluted":true}}]}',
      '{"type":"applyToSettings","requestId":1,"topic":"t","partitions":2,"constructor":{"prototype":{"polluted":true}}}',
      '{"type":"applyToSettings","requestId":1,"topic":"t","consumers":[{"name":"C","ranges":[[0,1]],"prototype":1}]}',
    ]) {
      const raw = JSON.parse(text);
      const r = refused(raw);
      assert.match(r.reason, /not accepted/);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal((Object.prototype as unknown as Record<string, unknown>).polluted, undefined);
  });

  test('accessors, class instances, functions and symbols are refused, and getters never run', () => {
    let ran = false;
    const withGetter = {
      type: 'applyToSettings',
      requestId: 1,
      topic: 't',
      get partitions() {
        ran = true;
        return 3;
      },
    };
    refused(withGetter, /partitions/);
    assert.equal(ran, false);
    class Fake {
      type = 'ready';
    }
    refused(new Fake());
    refused(apply({ consumers: [new Map()] }));
    refused(apply({ consumers: new Uint8Array(3) }));
    refused({ type: 'ready', [Symbol('s')]: 1 });
    refused(apply({ partitions: () => 8 }));
    refused(new Proxy({ type: 'ready' }, { getPrototypeOf: () => Array.prototype }));
    const arrayWithHole = [{ name: 'a' }, , { name: 'b' }];
    refused(apply({ consumers: arrayWithHole }), /consumers\[1\]/);
  });

  test('random junk never throws: each input is refused or comes back well-formed', () => {
    let s = 12345;
    const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const atoms = [0, -1, 1.5, 2 ** 31, NaN, '', 'ready', 'applyToSettings', 'webviewError', '__proto__', null, true, 'x'.repeat(300)];
    const keys = ['type', 'requestId', 'topic', 'partitions', 'consumers', 'name', 'ranges', 'message', '__proto__', 'z'];
    const gen = (depth: number): unknown => {
      const r = rnd();
      if (depth > 6 || r < 0.4) return atoms[Math.floor(rnd() * atoms.length)];
      if (r < 0.7) return Array.from({ length: Math.floor(rnd() * 4) }, () => gen(depth + 1));
      const o: Record<string, unknown> = {};
      const n = Math.floor(rnd() * 5);
      for (let i = 0; i < n; i++) Object.defineProperty(o, keys[Math.floor(rnd() * keys.length)], { value: gen(depth + 1), enumerable: true, configurable: true, writable: true });
      return o;
    };
    const valid = (): Record<string, unknown> => {
      const r = rnd();
      if (r < 0.3) return { type: 'ready' };
      if (r < 0.5) return { type: 'webviewError', message: 'oops' };
      return { type: 'applyToSettings', requestId: 3, topic: 't', partitions: 4, consumers: [{ name: 'C', ranges: [[0, 9]] }] };
    };
    let ok = 0;
    for (let i = 0; i < 5000; i++) {
      // Half pure junk, half a valid message with one field replaced by junk (or left alone).
      let raw = gen(0);
      if (rnd() < 0.5) {
        const v = valid();
        const k = keys[Math.floor(rnd() * keys.length)];
        if (rnd() < 0.7) Object.defineProperty(v, k, { value: gen(1), enumerable: true, configurable: true, writable: true });
        raw = v;
      }
      const r = parseFromWebviewMessage(raw);
      if (r instanceof ProtocolError) continue;
      ok++;
      // Whatever got through is exactly one of the three shapes.
      assert.ok(['ready', 'applyToSettings', 'webviewError'].includes(r.type));
      if (r.type === 'applyToSettings') {
        assert.ok(Number.isInteger(r.requestId) && typeof r.topic === 'string' && r.topic.length > 0);
        assert.ok(r.partitions !== undefined || r.consumers !== undefined);
      }
    }
    // The generator does reach valid messages (`{type: "ready"}` and the like), so the checks above ran.
    assert.ok(ok > 0, 'some random inputs were valid');
  });
});

describe('host to webview', () => {
  test('the webview recognises only the three host message types', () => {
    assert.ok(isToWebviewMessage({ type: 'state', settings: { topics: [], namespaces: [] }, stale: [], keys: [], problems: [] }));
    assert.ok(isToWebviewMessage({ type: 'applyResult', requestId: 1, outcome: 'applied', message: '' }));
    assert.ok(!isToWebviewMessage({ type: 'ready' }));
    assert.ok(!isToWebviewMessage(null));
    assert.ok(!isToWebviewMessage('state'));
  });
});
