import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sanitizeState, emptyState, MAX_KEYS } from '../../src/webview/state';
import { parseRanges } from '../../src/webview/views/whatIf';

describe('the panel\'s saved state (getState) is read back defensively', () => {
  test('a well-formed state comes back as it was', () => {
    const s = {
      version: 1,
      topic: 'orders',
      views: { orders: 'whatif', p: 'ring' },
      keys: [{ format: 'utf8', value: 'user-1' }, { format: 'hex', value: 'ff00' }],
      zoom: { 'p|ring': { from: 10, to: 20 } },
      whatIf: { orders: { events: [{ kind: 'partitions', count: 8 }, { kind: 'connect', name: 'E', ranges: [[0, 10]] }, { kind: 'disconnect', id: 'C1' }], cursor: 2 } },
      positions: { p: '0x10' },
    };
    assert.deepEqual(JSON.parse(JSON.stringify(sanitizeState(s))), s);
  });

  test('anything malformed is dropped, part by part', () => {
    assert.deepEqual(sanitizeState(undefined), emptyState());
    assert.deepEqual(sanitizeState({ version: 2, topic: 'x' }), emptyState());
    const s = sanitizeState({
      version: 1,
      topic: 42,
      views: { a: 'nonsense', b: 'ring' },
      keys: [{ format: 'base64', value: 'x' }, { format: 'utf8', value: 7 }, { format: 'utf8', value: 'ok' }, 'plain'],
      zoom: { a: { from: 'x', to: 3 }, b: { from: 1, to: 2 } },
      whatIf: {
        a: { events: [{ kind: 'connect', name: '' }], cursor: 1 },
        b: { events: [{ kind: 'partitions', count: -1 }], cursor: 1 },
        c: { events: [{ kind: 'connect', name: 'C', ranges: [[5, 1]] }], cursor: 1 },
        d: { events: [{ kind: 'disconnect', id: 'C1' }], cursor: 2 },
        e: { events: [{ kind: 'disconnect', id: 'C1' }], cursor: 1 },
      },
      positions: { a: 'x'.repeat(5000), b: '0x1' },
    });
    assert.equal(s.topic, undefined);
    assert.deepEqual({ ...s.views }, { b: 'ring' });
    assert.deepEqual(s.keys, [{ format: 'utf8', value: 'ok' }]);
    assert.deepEqual(Object.keys(s.zoom), ['b']);
    assert.deepEqual(Object.keys(s.whatIf), ['e']);
    assert.deepEqual(Object.keys(s.positions), ['b']);
    // Keys past the limit are cut.
    assert.equal(sanitizeState({ version: 1, keys: Array.from({ length: 180 }, (_, i) => ({ format: 'utf8', value: `k${i}` })) }).keys.length, MAX_KEYS);
    assert.equal(MAX_KEYS, 100);
  });

  test('the renderer choice is kept when it is one of auto, svg and canvas, dropped otherwise', () => {
    assert.equal(sanitizeState({ version: 1, renderer: 'canvas' }).renderer, 'canvas');
    assert.equal(sanitizeState({ version: 1, renderer: 'svg' }).renderer, 'svg');
    assert.equal(sanitizeState({ version: 1, renderer: 'webgl' }).renderer, undefined);
    assert.equal(sanitizeState({ version: 1, renderer: { toString: () => 'svg' } }).renderer, undefined);
  });
});

describe('STICKY ranges typed in the what-if editor', () => {
  test('"0-16383, 32768-49151" is two ranges; mistakes are named', () => {
    assert.deepEqual(parseRanges('0-16383, 32768-49151'), [[0, 16383], [32768, 49151]]);
    assert.deepEqual(parseRanges(' 7 - 7 '), [[7, 7]]);
    // start > end is left for the broker to refuse, with its own message.
    assert.deepEqual(parseRanges('10-5'), [[10, 5]]);
    assert.match(parseRanges('') as string, /need hash ranges/);
    assert.match(parseRanges('0-70000') as string, /from 0 to 65535/);
    assert.match(parseRanges('a-b') as string, /"a-b" is not a range/);
    assert.match(parseRanges('1-2,,3-4') as string, /is not a range/);
  });
});
