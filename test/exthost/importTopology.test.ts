/**
 * Import Topology in a real VS Code: the Pulsar admin REST import against local HTTP(S) servers
 * started here (an error status, an answer that never comes, a refused token, TLS with and
 * without the CA, and a URL from the workspace settings that the token must not reach before the
 * user confirmed it), and a file import, with the command's UI scripted through the test-only
 * API. Every request's headers are recorded: the assertions read what the server really saw.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'mocha';
import { KAFKA_GROUPS, TOPICS } from '../../src/engine/settings';
import type { KeyRoutingTestApi } from '../../src/extension/extension';
import type { ImportUi, SourceKind, WriteSummary } from '../../src/extension/import/ui';
import type { ImportKind } from '../../src/import';

const EXTENSION_ID = 'key-routing.key-routing-inspector';
const DATA = join(__dirname, '../../../test/unit/data/observed');
const TOPIC = 'persistent://public/default/shipments';
const STATS = readFileSync(join(DATA, 'pulsar-4.0-auto-split-draining.json'), 'utf8');

interface Seen {
  path: string;
  authorization?: string;
}

/** A local admin API: `handler` answers; every request is recorded. */
async function adminServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void, tls?: { key: string; cert: string }) {
  const seen: Seen[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    handler(req, res);
  };
  const server = tls ? https.createServer(tls, listener) : http.createServer(listener);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** The admin API of a healthy broker: the topic is not partitioned, the stats are the fixture's. */
function stats(req: http.IncomingMessage, res: http.ServerResponse, wantToken?: string): void {
  if (wantToken !== undefined && req.headers.authorization !== `Bearer ${wantToken}`) {
    res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ reason: 'Authentication required' }));
    return;
  }
  if (req.url === '/admin/v2/persistent/public/default/shipments/partitions') res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"partitions":0}');
  else if (req.url === '/admin/v2/persistent/public/default/shipments/stats') res.writeHead(200, { 'Content-Type': 'application/json' }).end(STATS);
  else res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ reason: 'Topic not found' }));
}

/** The command's questions answered from a script; what was asked is recorded in order. */
class ScriptedUi implements ImportUi {
  asked: string[] = [];
  written?: WriteSummary;
  constructor(
    private readonly answers: {
      kind?: ImportKind;
      source?: SourceKind;
      file?: vscode.Uri;
      url?: string;
      token?: string;
      tokenAgain?: string;
      proposed?: 'send' | 'withoutToken';
      plainHttp?: 'once' | 'always';
      /** Answers to "try another token?", in turn (then no). */
      retry?: boolean[];
      write?: boolean;
    },
  ) {}
  async pickKind() {
    this.asked.push('kind');
    return this.answers.kind;
  }
  async pickSource() {
    this.asked.push('source');
    return this.answers.source;
  }
  async pickFile() {
    this.asked.push('file');
    return this.answers.file;
  }
  async pickTopic() {
    this.asked.push('topic');
    return TOPIC;
  }
  async pickSubscription(names: string[]) {
    this.asked.push('subscription');
    return names[0];
  }
  async adminUrl(proposed: string | undefined) {
    this.asked.push(`url(${proposed ?? ''})`);
    return this.answers.url ?? proposed;
  }
  async confirmProposedUrl(url: string) {
    this.asked.push(`confirmProposed(${url})`);
    return this.answers.proposed;
  }
  async token(_url: string, again: boolean) {
    this.asked.push(again ? 'tokenAgain' : 'token');
    return again ? this.answers.tokenAgain : this.answers.token;
  }
  async confirmPlainHttp(url: string) {
    this.asked.push(`plainHttp(${url})`);
    return this.answers.plainHttp;
  }
  private retries = 0;
  async retryToken() {
    this.asked.push('retry');
    return this.answers.retry?.[this.retries++] ?? false;
  }
  async confirmWrite(summary: WriteSummary) {
    this.asked.push('write');
    this.written = summary;
    return this.answers.write ?? false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => T | undefined | false, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export function defineImportTests(): void {
  describe('Import Topology', function () {
    let api: KeyRoutingTestApi;
    let original: unknown;
    let originalGroups: unknown;
    const cfg = () => vscode.workspace.getConfiguration();
    const run = (ui: ImportUi, arg: unknown = { kind: 'pulsar-stats', source: 'admin' }) => api.testing!.importTopology(ui, arg);

    before(async () => {
      const ext = vscode.extensions.getExtension<KeyRoutingTestApi>(EXTENSION_ID);
      assert.ok(ext);
      api = await ext.activate();
      assert.ok(api.testing, 'the test-only API is there in test mode');
      original = cfg().inspect(TOPICS)?.workspaceValue;
      originalGroups = cfg().inspect(KAFKA_GROUPS)?.workspaceValue;
    });

    after(async () => {
      await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
      await cfg().update(KAFKA_GROUPS, originalGroups, vscode.ConfigurationTarget.Workspace);
      for (const k of ['keyRouting.pulsarAdmin.url', 'keyRouting.pulsarAdmin.timeoutSeconds']) await cfg().update(k, undefined, vscode.ConfigurationTarget.Workspace);
      await cfg().update('keyRouting.pulsarAdmin.caFile', undefined, vscode.ConfigurationTarget.Global);
    });

    it('imports a topic’s stats from the admin API, shows the change, writes it only on confirm', async () => {
      const server = await adminServer((req, res) => stats(req, res));
      try {
        const declined = new ScriptedUi({ url: server.url, token: '', write: false });
        const r1 = await run(declined);
        assert.equal(r1.outcome, 'cancelled');
        assert.deepEqual(cfg().inspect(TOPICS)?.workspaceValue, original, 'nothing written without the confirmation');
        assert.ok(declined.written);
        assert.deepEqual(declined.written.changes, [`replaces topic ${TOPIC}`]);
        const shown = (declined.written.after[TOPICS] as Array<Record<string, any>>).find((t) => t.name === TOPIC)!;
        assert.equal(shown.subscription.observed.consumers.length, 3);
        assert.match(shown.subscription.observed.at, /^\d{4}-\d\d-\d\dT/);

        const ui = new ScriptedUi({ url: server.url, token: '', write: true });
        const r2 = await run(ui);
        assert.equal(r2.outcome, 'written', r2.message);
        assert.deepEqual(ui.asked, ['topic', `url(${server.url})`, 'token', 'write'], 'no token: no plain-HTTP question');
        assert.deepEqual(server.seen.map((s) => s.path).slice(-2), ['/admin/v2/persistent/public/default/shipments/partitions', '/admin/v2/persistent/public/default/shipments/stats']);
        assert.ok(server.seen.every((s) => s.authorization === undefined));
        // The routes now come from the report: order-0 goes to C4 while C1 drains its hash.
        const route = await until('the observed route', () => api.route(['order-0'])[0].routes.find((r) => r.topic === TOPIC && r.observed));
        assert.equal(route.consumer, 'C4');
        assert.deepEqual(route.draining, { consumer: 'C1', unackMsgs: 2 });
        const written = (cfg().inspect<Array<Record<string, any>>>(TOPICS)!.workspaceValue!).find((t) => t.name === TOPIC)!;
        assert.equal(written.subscription.observed.consumers[0].drainingHashes[0].hash, 17872);
        assert.ok(!JSON.stringify(cfg().inspect(TOPICS)?.workspaceValue).includes('Bearer'));
      } finally {
        await server.close();
        await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
      }
    });

    it('an error status: the broker’s reason in the message, nothing written', async () => {
      const server = await adminServer((_req, res) => res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ reason: 'Topic persistent://public/default/shipments not found' })));
      try {
        const r = await run(new ScriptedUi({ url: server.url, token: '' }));
        assert.equal(r.outcome, 'failed');
        assert.match(r.message, /GET http:\/\/127\.0\.0\.1:\d+\/admin\/v2\/persistent\/public\/default\/shipments\/partitions: HTTP 404 Not Found: Topic persistent:\/\/public\/default\/shipments not found\. Nothing was written\.$/);
        assert.deepEqual(cfg().inspect(TOPICS)?.workspaceValue, original);
      } finally {
        await server.close();
      }
    });

    it('an answer that never comes: the timeout', async () => {
      const server = await adminServer(() => {
        /* never answers */
      });
      try {
        await cfg().update('keyRouting.pulsarAdmin.timeoutSeconds', 1, vscode.ConfigurationTarget.Workspace);
        const r = await run(new ScriptedUi({ url: server.url, token: '' }));
        assert.equal(r.outcome, 'failed');
        assert.match(r.message, /\/partitions: no answer within 1 s \(keyRouting\.pulsarAdmin\.timeoutSeconds\)/);
      } finally {
        await cfg().update('keyRouting.pulsarAdmin.timeoutSeconds', undefined, vscode.ConfigurationTarget.Workspace);
        await server.close();
      }
    });

    it('a refused token over plain HTTP: asked before sending, the refusal said, the token never shown', async () => {
      const server = await adminServer((req, res) => stats(req, res, 'the-right-one'));
      try {
        const ui = new ScriptedUi({ url: server.url, token: 'wrong-token-123', plainHttp: 'once', retry: [true, false], tokenAgain: 'wrong-again-456' });
        const r = await run(ui);
        assert.equal(r.outcome, 'failed');
        assert.match(r.message, /HTTP 401 Unauthorized: the broker did not accept the token \(Authentication required\)/);
        assert.ok(!r.message.includes('wrong-token-123') && !r.message.includes('wrong-again-456'));
        // (The URL box offers the last URL used; the script types this server's.)
        assert.deepEqual(ui.asked.map((a) => (a.startsWith('url(') ? 'url' : a)), ['topic', 'url', 'token', `plainHttp(${server.url})`, 'retry', 'tokenAgain', `plainHttp(${server.url})`, 'retry']);
        assert.deepEqual(server.seen.map((s) => s.authorization), ['Bearer wrong-token-123', 'Bearer wrong-again-456']);
        // The token is kept per URL: the next import asks for none, and the right one works.
        const fixed = new ScriptedUi({ url: server.url, plainHttp: 'always', retry: [true], tokenAgain: 'the-right-one', write: false });
        assert.equal((await run(fixed)).outcome, 'cancelled');
        assert.ok(!fixed.asked.includes('token'), 'the stored token was used');
        assert.ok(fixed.written, 'the stats arrived with the right token');
        const again = new ScriptedUi({ url: server.url, write: false });
        await run(again);
        assert.ok(!again.asked.some((a) => a.startsWith('plainHttp')), '"always" is remembered for the URL');
        assert.equal(server.seen[server.seen.length - 1].authorization, 'Bearer the-right-one');
      } finally {
        await server.close();
      }
    });

    it('a URL the workspace settings propose gets no token until the user confirms it', async () => {
      const server = await adminServer((req, res) => stats(req, res));
      try {
        const proposed = `${server.url}/`;
        await cfg().update('keyRouting.pulsarAdmin.url', proposed, vscode.ConfigurationTarget.Workspace);
        // Cancelled at the question: not one request.
        const cancelled = new ScriptedUi({ token: 'must-not-leak' });
        assert.equal((await run(cancelled)).outcome, 'cancelled');
        assert.deepEqual(cancelled.asked, ['topic', `url(${proposed})`, `confirmProposed(${server.url})`]);
        assert.equal(server.seen.length, 0);
        // Without a token: the requests go, with no Authorization header, and no token is asked for.
        const without = new ScriptedUi({ proposed: 'withoutToken', token: 'must-not-leak', write: false });
        await run(without);
        assert.ok(!without.asked.includes('token'));
        assert.ok(server.seen.length >= 2);
        assert.ok(server.seen.every((s) => s.authorization === undefined), JSON.stringify(server.seen));
        // Confirmed: now the token goes (and the confirmation is remembered for this URL).
        const confirmed = new ScriptedUi({ proposed: 'send', token: 'ok-token', plainHttp: 'once', write: false });
        await run(confirmed);
        assert.equal(server.seen[server.seen.length - 1].authorization, 'Bearer ok-token');
        const later = new ScriptedUi({ plainHttp: 'once', write: false });
        await run(later);
        assert.ok(!later.asked.some((a) => a.startsWith('confirmProposed')));
      } finally {
        await cfg().update('keyRouting.pulsarAdmin.url', undefined, vscode.ConfigurationTarget.Workspace);
        await server.close();
      }
    });

    it('TLS: an untrusted certificate is refused; the user’s CA file makes it trusted', async function () {
      // The folder holds a private key: removed however the test ends, the certificate's making too.
      const dir = mkdtempSync(join(tmpdir(), 'key-routing-tls-'));
      let server: Awaited<ReturnType<typeof adminServer>> | undefined;
      try {
        const key = join(dir, 'key.pem');
        const cert = join(dir, 'cert.pem');
        execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
        server = await adminServer((req, res) => stats(req, res), { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') });
        const r = await run(new ScriptedUi({ url: server.url, token: '' }));
        assert.equal(r.outcome, 'failed');
        assert.match(r.message, /TLS: self[- ]signed certificate.*keyRouting\.pulsarAdmin\.caFile/);
        await cfg().update('keyRouting.pulsarAdmin.caFile', cert, vscode.ConfigurationTarget.Global);
        const ok = new ScriptedUi({ url: server.url, token: '', write: false });
        await run(ok);
        assert.ok(ok.written, 'the stats arrived over verified TLS');
      } finally {
        await cfg().update('keyRouting.pulsarAdmin.caFile', undefined, vscode.ConfigurationTarget.Global);
        await server?.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('imports Pulsar stats from the clipboard, asking which topic they are of', async () => {
      await vscode.env.clipboard.writeText(STATS);
      const ui = new ScriptedUi({ write: false });
      assert.equal((await run(ui, { kind: 'pulsar-stats', source: 'clipboard' })).outcome, 'cancelled');
      assert.deepEqual(ui.asked, ['topic', 'write']);
      assert.equal(ui.written!.source, 'the clipboard');
      await vscode.env.clipboard.writeText('');
      const empty = await run(new ScriptedUi({}), { kind: 'pulsar-stats', source: 'clipboard' });
      assert.match(empty.message, /the clipboard is empty; copy the report first\. Nothing was written\.$/);
    });

    it('imports kafka-consumer-groups output: the group with its observed owners, and its topics', async () => {
      const ui = new ScriptedUi({ file: vscode.Uri.file(join(DATA, 'kafka-groups-describe.txt')), write: true });
      const r = await run(ui, { kind: 'kafka-groups', source: 'file' });
      try {
        assert.equal(r.outcome, 'written', r.message);
        const groups = cfg().inspect<Array<Record<string, any>>>(KAFKA_GROUPS)!.workspaceValue!;
        // The workspace's own billing group is replaced by the reported one.
        assert.deepEqual(groups.map((g) => g.name), ['billing']);
        assert.equal(groups[0].members.length, 3);
        // The describe output's rows: orders 2 and 3 are consumer-billing-2's.
        assert.deepEqual(groups[0].observed.owners.orders.slice(2, 4), Array(2).fill('consumer-billing-2-d23f0824-128b-2f33-0c5c-7fd0a6a3a450'));
        const topics = cfg().inspect<Array<Record<string, unknown>>>(TOPICS)!.workspaceValue!;
        assert.deepEqual(topics.filter((t) => t.name === 'orders' || t.name === 'payments').map((t) => t.partitions), [6, 3]);
      } finally {
        await cfg().update(KAFKA_GROUPS, originalGroups, vscode.ConfigurationTarget.Workspace);
        await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
      }
    });

    it('kafka-topics that grow a topic: a group of the workspace reporting the old count is written without its report, and the settings have no problem', async () => {
      const target = vscode.ConfigurationTarget.Workspace;
      await cfg().update(TOPICS, [{ name: 'orders', system: 'kafka', partitions: 3 }], target);
      await cfg().update(KAFKA_GROUPS, [{ name: 'seen', assignor: 'range', topics: ['orders'], members: [{ id: 'r1' }], observed: { owners: { orders: ['r1', 'r1', null] } } }], target);
      try {
        await until('the group in the model', () => api.model.topology.group('seen'));
        const ui = new ScriptedUi({ file: vscode.Uri.file(join(DATA, 'kafka-topics-describe.txt')), write: true });
        const r = await run(ui, { kind: 'kafka-topics', source: 'file' });
        assert.equal(r.outcome, 'written', r.message);
        assert.ok(ui.written!.notes.includes('observed: the broker\u2019s report no longer describes group seen (removed)'), ui.written!.notes.join('\n'));
        assert.deepEqual(cfg().inspect(KAFKA_GROUPS)?.workspaceValue, [{ name: 'seen', assignor: 'range', topics: ['orders'], members: [{ id: 'r1' }] }]);
        // The model follows: orders has 6 partitions and seen is computed by its assignor, with no finding.
        await until('the model to follow the import', () => api.model.settings.topics.find((t) => t.name === 'orders')?.partitions === 6);
        assert.deepEqual(api.model.findings.filter((f) => f.severity === 'error'), []);
      } finally {
        await cfg().update(KAFKA_GROUPS, originalGroups, target);
        await cfg().update(TOPICS, original, target);
      }
    });

    it('imports kafka-topics output from a file; a bad report writes nothing', async () => {
      const ui = new ScriptedUi({ file: vscode.Uri.file(join(DATA, 'kafka-topics-describe.txt')), write: true });
      const r = await run(ui, { kind: 'kafka-topics', source: 'file' });
      assert.equal(r.outcome, 'written', r.message);
      const topics = cfg().inspect<Array<Record<string, unknown>>>(TOPICS)!.workspaceValue!;
      assert.deepEqual(topics.find((t) => t.name === 'orders'), { name: 'orders', system: 'kafka', partitions: 6, topicId: 'GgSK5_X1Pp6B_v5u4SBqxg' });
      await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
      const bad = new ScriptedUi({ file: vscode.Uri.file(join(DATA, 'bad-pulsar-overlap.json')), write: true });
      const r2 = await run(bad, { kind: 'pulsar-stats', source: 'file' });
      assert.equal(r2.outcome, 'failed');
      assert.match(r2.message, /bad-pulsar-overlap\.json: subscriptions\["orders-sub"\]\.consumers\[1\] \("C2"\)\.keyHashRangeArrays\[0\]: \[16385, 32768\] overlaps/);
      assert.ok(!bad.asked.includes('write'), 'no preview of a report that failed');
      assert.deepEqual(cfg().inspect(TOPICS)?.workspaceValue, original);
    });

    it('imports the report of a 1,000-consumer subscription holding 60,000 ranges (a 1,000 x 100-point ring) and writes it whole', async function () {
      // VS Code's own writer formats such a value token by token, copying the file for each: this
      // report took it many minutes (src/extension/settingsText.ts).
      this.timeout(120_000);
      const report = JSON.parse(readFileSync(join(DATA, 'pulsar-4.0-ring.json'), 'utf8'));
      const sub = Object.values(report.subscriptions)[0] as { consumers: Array<Record<string, unknown>> };
      const model = sub.consumers[0];
      const consumers = Array.from({ length: 1000 }, (_, i) => ({
        ...model,
        consumerName: `ring-${i}`,
        connectedSince: new Date(Date.UTC(2024, 11, 1, 12) + i * 1000).toISOString(),
        drainingHashes: [],
        drainingHashesCount: 0,
        keyHashRangeArrays: [] as number[][],
      }));
      // The slots 1-65535 in 60,000 runs, dealt to the consumers in turn.
      for (let r = 0; r < 60_000; r++) consumers[r % 1000].keyHashRangeArrays.push([1 + Math.floor((r * 65535) / 60_000), Math.floor(((r + 1) * 65535) / 60_000)]);
      sub.consumers = consumers;
      const dir = mkdtempSync(join(tmpdir(), 'kr-import-'));
      try {
        const file = join(dir, 'ring-stats.json');
        writeFileSync(file, JSON.stringify(report));
        const ui = new ScriptedUi({ file: vscode.Uri.file(file), write: true });
        const r = await run(ui, { kind: 'pulsar-stats', source: 'file' });
        assert.equal(r.outcome, 'written', r.message);
        const topic = cfg().inspect<Array<Record<string, any>>>(TOPICS)!.workspaceValue!.find((t) => t.name === TOPIC)!;
        const observed = topic.subscription.observed.consumers as Array<{ name: string; ranges: number[][] }>;
        assert.deepEqual(observed.map((c) => c.name), consumers.map((c) => c.consumerName));
        assert.deepEqual(observed.map((c) => c.ranges), consumers.map((c) => c.keyHashRangeArrays));
      } finally {
        await cfg().update(TOPICS, original, vscode.ConfigurationTarget.Workspace);
        rmSync(dir, { recursive: true, force: true });
      }
    });

    // Issue 12's bad reports through the command: the message names the file and what is wrong
    // (the CLI tests check each wording), no preview, and the settings as they were.
    const badReports: Array<[ImportKind, string, RegExp]> = [
      ['pulsar-stats', 'bad-pulsar-truncated.json', /is truncated/],
      ['pulsar-stats', 'bad-pulsar-no-key-shared.json', /has no Key_Shared subscription/],
      ['pulsar-stats', 'bad-pulsar-gap.json', /leaves \[16385, 16389\] to nobody/],
      ['pulsar-stats', 'bad-pulsar-error.json', /is an error answer from the broker/],
      ['kafka-groups', 'bad-kafka-groups-error.txt', /is an error message, not a group description/],
      ['kafka-groups', 'kafka-topics-describe.txt', /import it as kafka-topics/],
      ['kafka-topics', 'bad-kafka-topics-error.txt', /is an error message, not a topic description/],
      ['kafka-topics', 'kafka-groups-describe.txt', /import it as kafka-groups/],
    ];
    for (const [kind, file, wrong] of badReports) {
      it(`a bad report writes nothing: ${kind} ${file}`, async () => {
        const ui = new ScriptedUi({ file: vscode.Uri.file(join(DATA, file)), write: true });
        const r = await run(ui, { kind, source: 'file' });
        assert.equal(r.outcome, 'failed', r.message);
        assert.ok(r.message.includes(`${file}: `), `the message names the file: ${r.message}`);
        assert.match(r.message, wrong);
        assert.match(r.message, /Nothing was written\.$/);
        assert.ok(!ui.asked.includes('write'), 'no preview of a report that failed');
        assert.deepEqual(cfg().inspect(TOPICS)?.workspaceValue, original);
        assert.deepEqual(cfg().inspect(KAFKA_GROUPS)?.workspaceValue, originalGroups);
      });
    }
  });
}
