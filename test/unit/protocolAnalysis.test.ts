// The Analyze Keys messages of the panel protocol: what the webview may ask (export, a what-if
// run, cancel) is checked field by field like every other webview message.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { isToWebviewMessage, LIMITS, parseFromWebviewMessage, ProtocolError, type FromWebviewMessage } from '../../src/shared/protocol';
import { isEvent } from '../../src/webview/state';

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

const whatIf = (extra: Record<string, unknown> = {}) => ({ type: 'analyzeWhatIf', requestId: 3, runId: 1, topic: 'orders', events: [{ kind: 'partitions', count: 8 }], ...extra });

describe('exportAnalysis', () => {
  test('csv and json are accepted as fresh copies', () => {
    for (const format of ['csv', 'json']) assert.deepEqual(accepted({ type: 'exportAnalysis', requestId: 1, runId: 2, format }), { type: 'exportAnalysis', requestId: 1, runId: 2, format });
  });

  test('anything else is refused at its field', () => {
    refused({ type: 'exportAnalysis', requestId: 1, runId: 2, format: 'xlsx' }, /format/);
    refused({ type: 'exportAnalysis', requestId: 1, runId: 2, format: 'CSV' }, /format/);
    refused({ type: 'exportAnalysis', requestId: 1, runId: 2 }, /format/);
    refused({ type: 'exportAnalysis', requestId: 1, runId: -1, format: 'csv' }, /runId/);
    refused({ type: 'exportAnalysis', requestId: 1, runId: 1.5, format: 'csv' }, /runId/);
    refused({ type: 'exportAnalysis', requestId: '1', runId: 1, format: 'csv' }, /requestId/);
    // The host picks the file in a save dialog; a path from the webview is not a field.
    refused({ type: 'exportAnalysis', requestId: 1, runId: 1, format: 'csv', path: '/etc/passwd' }, /message\.path/);
  });
});

describe('analyzeWhatIf', () => {
  test('every kind of step comes back as the engine\'s event', () => {
    const raw = whatIf({
      events: [
        { kind: 'connect', name: 'C5' },
        { kind: 'connect', name: 'E4', ranges: [[0, 99], [200, LIMITS.rangeMax]] },
        { kind: 'disconnect', id: 'C1#2' },
        { kind: 'partitions', count: LIMITS.partitions },
      ],
    });
    const msg = accepted(raw);
    assert.deepEqual(msg, raw);
    // The webview's own check of saved steps agrees that these are events.
    assert.ok(msg.type === 'analyzeWhatIf' && msg.events.every(isEvent));
    (raw.events[1] as unknown as { ranges: number[][] }).ranges[0][0] = 7;
    assert.equal(msg.type === 'analyzeWhatIf' && msg.events[1].kind === 'connect' && msg.events[1].ranges![0][0], 0, 'a copy, not the input');
  });

  test('malformed steps are refused with their path', () => {
    refused(whatIf({ events: [] }), /message\.events/);
    refused(whatIf({ events: 'partitions=8' }), /message\.events/);
    refused(whatIf({ events: Array.from({ length: LIMITS.whatIfSteps + 1 }, () => ({ kind: 'partitions', count: 2 })) }), /message\.events/);
    refused(whatIf({ events: [{ kind: 'explode' }] }), /events\[0\]\.kind/);
    refused(whatIf({ events: [{ kind: 'connect' }] }), /events\[0\]\.name/);
    refused(whatIf({ events: [{ kind: 'connect', name: '' }] }), /events\[0\]\.name/);
    refused(whatIf({ events: [{ kind: 'connect', name: 'x'.repeat(LIMITS.consumerName + 1) }] }), /events\[0\]\.name/);
    refused(whatIf({ events: [{ kind: 'connect', name: 'E', ranges: [] }] }), /events\[0\]\.ranges/);
    refused(whatIf({ events: [{ kind: 'connect', name: 'E', ranges: [[9, 3]] }] }), /events\[0\]\.ranges\[0\]/);
    refused(whatIf({ events: [{ kind: 'connect', name: 'E', ranges: [[0, LIMITS.rangeMax + 1]] }] }), /ranges\[0\]\[1\]/);
    refused(whatIf({ events: [{ kind: 'connect', name: 'E', admin: true }] }), /events\[0\]\.admin/);
    refused(whatIf({ events: [{ kind: 'disconnect' }] }), /events\[0\]\.id/);
    refused(whatIf({ events: [{ kind: 'partitions', count: -1 }] }), /events\[0\]\.count/);
    refused(whatIf({ events: [{ kind: 'partitions', count: LIMITS.partitions + 1 }] }), /events\[0\]\.count/);
    refused(whatIf({ events: [{ kind: 'partitions', count: '8' }] }), /events\[0\]\.count/);
    refused(whatIf({ events: [null] }), /events\[0\]/);
    refused(whatIf({ topic: '' }), /topic/);
    refused(whatIf({ runId: 'latest' }), /runId/);
    refused(whatIf({ settings: {} }), /message\.settings/);
    refused(JSON.parse('{"type":"analyzeWhatIf","requestId":1,"runId":1,"topic":"t","events":[{"kind":"partitions","count":2,"__proto__":{"x":1}}]}'), /__proto__/);
  });
});

describe('cancelAnalysis', () => {
  test('a run id and nothing else', () => {
    assert.deepEqual(accepted({ type: 'cancelAnalysis', runId: 4 }), { type: 'cancelAnalysis', runId: 4 });
    refused({ type: 'cancelAnalysis' }, /runId/);
    refused({ type: 'cancelAnalysis', runId: 4, all: true }, /message\.all/);
  });
});

describe('host to webview', () => {
  test('the webview takes analysis runs and export results', () => {
    assert.ok(isToWebviewMessage({ type: 'analysis', run: { id: 1, source: 'k', inputLabel: 'l', where: 'w', status: 'running' } }));
    assert.ok(isToWebviewMessage({ type: 'exportResult', requestId: 1, outcome: 'saved', message: 'ok' }));
    assert.ok(!isToWebviewMessage({ type: 'exportAnalysis', requestId: 1, runId: 1, format: 'csv' }));
  });
});
