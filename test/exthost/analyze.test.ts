/**
 * "Analyze Keys" in the real extension host: a generated file of 20,000 keys through the real
 * worker thread, every figure compared with counts made here key by key with the engine's route
 * on the workspace's settings; cancellation of a large file (the worker stops at once and nothing
 * claims to be complete); malformed CSV and hex lines reported with their line numbers; a
 * selection analysed on the extension host; a what-if; export.
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import type { AnalysisResult, TopologyFigures } from '../../src/analyze/figures';
import { parseEvent } from '../../src/engine/events';
import { bytesKey, stringKey, type MessageKey } from '../../src/engine/key';
import { parseHex } from '../../src/engine/bytes';
import { namespaceBundles, parseSettings, type Settings } from '../../src/engine/settings';
import { topicBundle } from '../../src/engine/pulsar/namespaceBundles';
import { PulsarTopicState, Topology, type TopicState } from '../../src/engine/topology';
import type { KeyRoutingTestApi } from '../../src/extension/extension';
import type { AnalysisOutcome } from '../../src/extension/analysis/service';

const EXTENSION_ID = 'key-routing.key-routing-inspector';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => T | undefined | false, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function folder(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the tests need the examples workspace open');
  return f.uri;
}

function workspaceSettings(): Settings {
  const raw = JSON.parse(readFileSync(join(folder().fsPath, '.vscode', 'settings.json'), 'utf8'));
  const { settings, problems } = parseSettings(raw);
  assert.deepEqual(problems, []);
  return settings;
}

/** A seeded PRNG (mulberry32), so every run analyses the same keys. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 20,000 keys: hot repeats, many distinct ones, non-ASCII, an empty key. */
function generateKeys(n: number): string[] {
  const r = rng(20_000);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = r();
    if (p < 0.05) out.push('hot-key');
    else if (p < 0.15) out.push(`warm-${Math.floor(r() * 10)}`);
    else if (p < 0.2) out.push(`ключ-${Math.floor(r() * 1000)}`);
    else if (p < 0.2005) out.push('');
    else out.push(`user-${Math.floor(r() * 1_000_000)}`);
  }
  return out;
}

interface Expected {
  partitions: Map<string, number[]>;
  consumers: Map<string, Map<string, number>>;
  unowned: Map<string, number>;
}

/** Counts key by key with the engine's route: the reference the analyser must equal. */
function countByRoute(topics: TopicState[], keys: MessageKey[]): Expected {
  const e: Expected = { partitions: new Map(), consumers: new Map(), unowned: new Map() };
  for (const t of topics) {
    e.partitions.set(t.name, new Array(t.partitions).fill(0));
    const sub = t instanceof PulsarTopicState ? t.subscription : undefined;
    if (sub) {
      e.consumers.set(t.name, new Map(sub.consumers.map((c) => [c.id, 0])));
      e.unowned.set(t.name, 0);
    }
  }
  for (const k of keys) {
    for (const t of topics) {
      const r = t.route(k) as { partition: number | null; consumer?: string | null };
      if (r.partition !== null) e.partitions.get(t.name)![r.partition]++;
      if (r.consumer !== undefined) {
        if (r.consumer === null) e.unowned.set(t.name, e.unowned.get(t.name)! + 1);
        else e.consumers.get(t.name)!.set(r.consumer, e.consumers.get(t.name)!.get(r.consumer)! + 1);
      }
    }
  }
  return e;
}

function skewOf(counts: number[]): { maxOverMean: number; cv: number } {
  const mean = counts.reduce((s, c) => s + c, 0) / counts.length;
  const sd = Math.sqrt(counts.reduce((s, c) => s + (c - mean) ** 2, 0) / counts.length);
  return { maxOverMean: Math.max(...counts) / mean, cv: sd / mean };
}

const close = (a: number | null | undefined, b: number, what: string) => assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);

/** Every figure of one topology against the key-by-key counts. */
function checkFigures(name: string, f: TopologyFigures, e: Expected, total: number, settings: Settings, topic: TopicState): void {
  const parts = e.partitions.get(name)!;
  if (topic.partitions > 0) {
    assert.deepEqual(f.partitionKeys!.map((p) => p.keys), parts, `${name}: keys per partition`);
    const s = skewOf(parts);
    close(f.partitionSkew!.maxOverMean, s.maxOverMean, `${name}: partition max/mean`);
    close(f.partitionSkew!.cv, s.cv, `${name}: partition CV`);
    f.partitionKeys!.forEach((p) => close(p.keyShare, parts[p.partition] / total, `${name}: p${p.partition} key share`));
  } else {
    assert.equal(f.partitionKeys, undefined);
  }
  const cons = e.consumers.get(name);
  if (cons) {
    assert.deepEqual(new Map(f.consumers!.map((c) => [c.id, c.keys])), cons, `${name}: keys per consumer`);
    assert.equal(f.unowned, e.unowned.get(name), `${name}: unowned keys`);
    const s = skewOf([...cons.values()]);
    close(f.consumerSkew!.maxOverMean, s.maxOverMean, `${name}: consumer max/mean`);
    close(f.consumerSkew!.cv, s.cv, `${name}: consumer CV`);
  }
  if (topic instanceof PulsarTopicState) {
    // Keys per bundle: each partition topic's bundle from the engine's namespace layout.
    const want = new Map<string, number>();
    const ns = settings.namespaces.find((n) => name.startsWith(`persistent://${n.name}/`));
    if (ns) {
      const layout = namespaceBundles(ns);
      const names = topic.partitions > 0 ? parts.map((_, p) => `${name}-partition-${p}`) : [name];
      names.forEach((n, p) => {
        const b = topicBundle(n, layout).bundle.name;
        want.set(b, (want.get(b) ?? 0) + (topic.partitions > 0 ? parts[p] : total));
      });
      assert.deepEqual(new Map(f.bundles!.map((b) => [b.bundle, b.keys])), want, `${name}: keys per bundle`);
    }
  }
}

export function defineAnalyzeTests(): void {
  describe('Analyze Keys in the extension host', function () {
    this.timeout(120_000);
    let api: KeyRoutingTestApi;
    let dir: string;

    before(async () => {
      const ext = vscode.extensions.getExtension<KeyRoutingTestApi>(EXTENSION_ID);
      assert.ok(ext);
      api = await ext.activate();
      dir = join(folder().fsPath, 'analysis');
      mkdirSync(dir, { recursive: true });
    });

    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('is a command of the Key Routing category', async () => {
      assert.ok((await vscode.commands.getCommands(true)).includes('keyRouting.analyzeKeys'));
    });

    it('20,000 keys through the worker thread: every figure equals the engine\'s route, key by key', async () => {
      const keys = generateKeys(20_000);
      const file = join(dir, 'keys-20k.txt');
      writeFileSync(file, keys.join('\n') + '\n');
      const outcome = (await vscode.commands.executeCommand<AnalysisOutcome>('keyRouting.analyzeKeys', { uri: vscode.Uri.file(file), layout: 'lines' }))!;
      assert.equal(outcome.status, 'complete', outcome.error);
      assert.equal(outcome.where, 'a worker thread');
      const r = outcome.result!;
      assert.equal(r.status, 'complete');
      assert.equal(r.input.keys, 20_000);
      // Run from the palette or a menu, the result goes to the workbench as JSON: the outcome only.
      assert.deepEqual(JSON.parse(JSON.stringify(outcome)), { runId: outcome.runId, status: 'complete', where: 'a worker thread', source: outcome.source });
      assert.equal(r.problems.count, 0);
      const settings = workspaceSettings();
      const topics = new Topology(settings, []).topics;
      assert.deepEqual(r.topics.map((t) => t.topic), topics.map((t) => t.name));
      const expected = countByRoute(topics, keys.map((k) => stringKey(k)));
      for (const t of topics) checkFigures(t.name, r.topics.find((x) => x.topic === t.name)!, expected, keys.length, settings, t);
      // The heaviest key, counted exactly (second pass over the file).
      const hot = keys.filter((k) => k === 'hot-key').length;
      assert.equal(r.heavyKeys.method, 'misra-gries+exact-pass');
      assert.deepEqual([r.heavyKeys.keys[0].key, r.heavyKeys.keys[0].count, r.heavyKeys.keys[0].exact], ['hot-key', hot, true]);
      const warm = new Map<string, number>();
      for (const k of keys) if (k.startsWith('warm-')) warm.set(k, (warm.get(k) ?? 0) + 1);
      for (const [k, n] of warm) assert.equal(r.heavyKeys.keys.find((x) => x.key === k)?.count, n, k);
      // The routing panel received the final figures.
      assert.equal(await until('the panel to have the result', () => api.analysis.panelStatus(outcome.runId) === 'complete' && 'complete'), 'complete');
    });

    it('cancel stops the worker promptly, and nothing claims to be complete', async () => {
      const file = join(dir, 'keys-large.txt');
      const lines = 3_000_000;
      const parts: string[] = [];
      for (let i = 0; i < lines; i += 100_000) {
        let chunk = '';
        for (let j = i; j < Math.min(lines, i + 100_000); j++) chunk += `customer-${(j * 7919) % 1_000_003}\n`;
        parts.push(chunk);
      }
      writeFileSync(file, parts.join(''));
      const size = statSync(file).size;
      const started = vscode.commands.executeCommand<AnalysisOutcome>('keyRouting.analyzeKeys', { uri: vscode.Uri.file(file), layout: 'lines' });
      // Wait until the worker is well into the file: progress reported and partial figures shown.
      const running = await until('the run to show partial figures', () => {
        const r = api.analysis.running;
        return r && r.progress && r.progress.bytes > 0 && r.partials > 0 && r;
      });
      assert.equal(running.where, 'a worker thread');
      assert.equal(await until('the panel to show the run', () => api.analysis.panelStatus(running.id)), 'running', 'the panel shows the partial figures of a running analysis');
      running.cancel();
      const outcome = (await started)!;
      assert.equal(outcome.status, 'cancelled');
      assert.ok(outcome.stopMs !== undefined, 'the stop was timed');
      console.log(`      (cancelled after ${outcome.result?.input.keys} of ${lines} keys; the worker thread had exited ${outcome.stopMs} ms after the cancel)`);
      // The worker checks for a cancel between 1 MiB slices and answers it with its figures so
      // far; only a worker that does not answer within the grace period is ended by force. Prompt
      // is that state (the worker answered), not a wall-clock bound that machine load can break.
      assert.equal(outcome.stoppedBy, 'itself', `the worker did not answer the cancel (ended by force after ${outcome.stopMs} ms)`);
      const r = outcome.result!;
      assert.equal(r.status, 'cancelled');
      assert.ok(r.input.bytes < size, `read ${r.input.bytes} of ${size} bytes`);
      assert.ok(r.input.keys < lines);
      assert.equal(api.analysis.running, undefined, 'no run left');
      assert.equal(await until('the panel to hear of it', () => api.analysis.panelStatus(outcome.runId)), 'cancelled');
      // A cancelled analysis cannot be exported as CSV, which could not say it is partial.
      const csv = await api.analysis.exportTo(outcome.runId, 'csv', vscode.Uri.file(join(dir, 'cancelled.csv')));
      assert.equal(csv.outcome, 'failed');
      assert.match(csv.message, /partial/);
    });

    it('a malformed CSV line is reported with its line number and skipped, the rest analysed', async () => {
      const file = join(dir, 'orders.csv');
      const rows = ['id,key,amount', '1,user-1,10', '2,user-2,20', '3,"user-3,30', '4,user-4,40', '5', '6,"user,6",60', '', '7,user-7,70'];
      writeFileSync(file, rows.join('\n') + '\n');
      const outcome = (await vscode.commands.executeCommand<AnalysisOutcome>('keyRouting.analyzeKeys', { uri: vscode.Uri.file(file), layout: 'csv', column: 'key' }))!;
      assert.equal(outcome.status, 'complete', outcome.error);
      const r = outcome.result!;
      // Line 4 opens a quote it never closes; line 6 has no column 2. Line 8 is empty (skipped, not a problem).
      assert.deepEqual(r.problems.first.map((p) => p.line), [4, 6]);
      assert.equal(r.problems.count, 2);
      assert.equal(r.input.blankLines, 1);
      const good = ['user-1', 'user-2', 'user-4', 'user,6', 'user-7'];
      assert.equal(r.input.keys, good.length);
      const topics = new Topology(workspaceSettings(), []).topics;
      const e = countByRoute(topics, good.map((k) => stringKey(k)));
      assert.deepEqual(r.topics[0].partitionKeys!.map((p) => p.keys), e.partitions.get(topics[0].name));
    });

    it('a bad hex line is reported with its line number; hex keys route as bytes', async () => {
      const file = join(dir, 'keys.hex');
      writeFileSync(file, ['75736572', 'ff00fe', 'zz', 'abc', '00'].join('\n') + '\n');
      const outcome = (await vscode.commands.executeCommand<AnalysisOutcome>('keyRouting.analyzeKeys', { uri: vscode.Uri.file(file), layout: 'lines', keyFormat: 'hex' }))!;
      const r = outcome.result!;
      assert.deepEqual(r.problems.first.map((p) => p.line), [3, 4]);
      assert.match(r.problems.first[0].message, /invalid hex/);
      const topics = new Topology(workspaceSettings(), []).topics;
      const e = countByRoute(topics, ['75736572', 'ff00fe', '00'].map((h) => bytesKey(parseHex(h))));
      for (const t of topics) if (t.partitions > 0) assert.deepEqual(r.topics.find((x) => x.topic === t.name)!.partitionKeys!.map((p) => p.keys), e.partitions.get(t.name), t.name);
    });

    it('a selection is analysed on the extension host, in slices, with the same figures', async () => {
      const file = join(dir, 'keys-20k.txt');
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(100, 0, 600, 0);
      const outcome = (await vscode.commands.executeCommand<AnalysisOutcome>('keyRouting.analyzeKeys', { selection: true, layout: 'lines' }))!;
      assert.equal(outcome.status, 'complete', outcome.error);
      assert.match(outcome.where, /extension host/);
      assert.match(outcome.source, /selection of keys-20k\.txt \(lines 101–601\)/);
      const keys = readFileSync(file, 'utf8').split('\n').slice(100, 600);
      const r = outcome.result!;
      assert.equal(r.input.keys, 500);
      const settings = workspaceSettings();
      const topics = new Topology(settings, []).topics;
      const e = countByRoute(topics, keys.map((k) => stringKey(k)));
      for (const t of topics) checkFigures(t.name, r.topics.find((x) => x.topic === t.name)!, e, keys.length, settings, t);
    });

    it('under a what-if: the figures after the change equal the route on the changed topology', async () => {
      const file = join(dir, 'keys-20k.txt');
      const keys = readFileSync(file, 'utf8').split('\n').slice(0, -1);
      const topic = 'persistent://public/default/payments';
      const outcome = (await vscode.commands.executeCommand<AnalysisOutcome>('keyRouting.analyzeKeys', { uri: vscode.Uri.file(file), layout: 'lines', whatIf: { topic, events: ['+C5', 'partitions=5'] } }))!;
      assert.equal(outcome.status, 'complete', outcome.error);
      const r = outcome.result!;
      assert.deepEqual(r.topics.map((t) => t.topic), [topic]);
      const settings = workspaceSettings();
      const beforeT = new Topology(settings, []).topic(topic)!;
      const afterT = new Topology(settings, []).topic(topic)!;
      for (const ev of ['+C5', 'partitions=5']) assert.ok(afterT.apply(parseEvent(ev)).ok, ev);
      const mk = keys.map((k) => stringKey(k));
      const e = countByRoute([afterT], mk);
      checkFigures(topic, r.topics[0].after!, e, keys.length, settings, afterT);
      let moved = 0;
      for (const k of mk) {
        const b = beforeT.route(k) as { partition: number | null; consumer?: string | null };
        const a = afterT.route(k) as { partition: number | null; consumer?: string | null };
        if (a.partition !== b.partition || a.consumer !== b.consumer) moved++;
      }
      assert.equal(r.topics[0].after!.movedKeys, moved);
    });

    it('exports the figures as CSV and JSON', async () => {
      const file = join(dir, 'keys-20k.txt');
      const outcome = (await vscode.commands.executeCommand<AnalysisOutcome>('keyRouting.analyzeKeys', { uri: vscode.Uri.file(file), layout: 'lines' }))!;
      const csvUri = vscode.Uri.file(join(dir, 'export.csv'));
      const jsonUri = vscode.Uri.file(join(dir, 'export.json'));
      assert.equal((await api.analysis.exportTo(outcome.runId, 'csv', csvUri)).outcome, 'saved');
      assert.equal((await api.analysis.exportTo(outcome.runId, 'json', jsonUri)).outcome, 'saved');
      const json = JSON.parse(readFileSync(jsonUri.fsPath, 'utf8')) as AnalysisResult;
      assert.deepEqual({ ...json, elapsedMs: 0 }, { ...outcome.result!, elapsedMs: 0 });
      const csv = readFileSync(csvUri.fsPath, 'utf8').split('\r\n');
      assert.equal(csv[0], 'section,topic,scenario,name,keys,key_share,hash_share,exact');
      const orders = outcome.result!.topics[0];
      for (const p of orders.partitionKeys!) assert.ok(csv.some((l) => l.startsWith(`partition,${orders.topic},before,${p.partition},${p.keys},`)), `partition ${p.partition}`);
    });
  });
}
