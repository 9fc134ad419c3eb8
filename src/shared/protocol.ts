/**
 * The messages between the extension host and the routing panel's webview: one union per
 * direction, one interface per message, discriminated by `type`.
 *
 * Handshake: the webview posts `ready` once its script runs; only then does the host post, and it
 * answers `ready` with `state` (the raw settings and the keys to show). A webview reloaded or
 * revived posts `ready` again and gets a fresh `state`. Requests carry a `requestId` chosen by the
 * webview; the reply carries the same `requestId`.
 *
 * The webview is untrusted as far as the host is concerned (it renders user data and could be
 * driven by anything that runs in its frame), so every message from it goes through
 * `parseFromWebviewMessage`, which checks every field and returns a fresh copy: the host acts only
 * on that copy, never on what arrived.
 *
 * No `vscode` and no DOM here: both sides import this file.
 */
import type { AnalysisResult } from '../analyze/figures';
import type { AnalyzeProgress } from '../analyze/run';
import type { TopologyEvent } from '../engine/events';
import type { PanelObserved } from './view/observedPanel';
import { MAX_PARTITIONS, type Settings } from '../engine/settings';
import type { TopicFrame } from './view/frame';

// ---------------------------------------------------------------------------------------------
// Shared value types

/** A key as the user gave it: its text (UTF-8 on the wire) or its bytes in hex. */
export interface KeyInput {
  format: 'utf8' | 'hex';
  value: string;
}

/** A consumer as written in `keyRouting.topics[i].subscription.consumers`. */
export interface ConsumerSetting {
  name: string;
  /** STICKY only: inclusive hash ranges. */
  ranges?: Array<[number, number]>;
}

/** A settings problem, with the setting's path. */
export interface ProblemInfo {
  path: string;
  message: string;
}

/** What the panel should show first (once: a later state keeps the topic the user chose). */
export interface Focus {
  topic?: string;
  /**
   * A what-if notification's Open Panel: the panel shows the topic's what-if with this consumer
   * (or, with `group`, this member of the topic's group) gone, as the notification counted it.
   */
  leave?: string;
  group?: string;
}

// ---------------------------------------------------------------------------------------------
// Host -> webview

/** The message types, host to webview. */
export const TO_WEBVIEW_TYPES = ['state', 'showKeys', 'applyResult', 'analysis', 'exportResult'] as const;

/** The answer to `ready`, and sent again whenever the settings change. */
export interface StateMessage {
  type: 'state';
  /**
   * The settings the extension routes with (parsed by the engine, with the last good entry of a
   * topic whose current entry is invalid), so the panel shows what route results say.
   */
  settings: Settings;
  /** Topics routed with their last good settings. */
  stale: string[];
  /** Keys to add to the panel's keys (a route result); the panel keeps its own as well. */
  keys: KeyInput[];
  problems: ProblemInfo[];
  focus?: Focus;
  /**
   * Each topic as the host's topology holds it, with the routes of the keys the panel told the host
   * about (`panelView`) and of `keys`, and the charts laid out for the panel's width: the panel draws from these instead of working every
   * selector's assignment out again. Absent from an older host; the panel then works it out.
   */
  frames?: TopicFrame[];
  /**
   * What a broker reported about each topic that has an `observed` block (the engine's
   * `observedView` as `panelObserved` slims it): the badge, the reported layout's draining hashes,
   * its comparison with the configured order's prediction, a Kafka group's observed owners.
   * Absent: nothing reported.
   */
  observed?: PanelObserved[];
}

/** A route result to show: its keys are added and its topic selected. */
export interface ShowKeysMessage {
  type: 'showKeys';
  keys: KeyInput[];
  focus?: Focus;
}

export type ApplyOutcome = 'applied' | 'cancelled' | 'rejected';

/** The reply to `applyToSettings`. */
export interface ApplyResultMessage {
  type: 'applyResult';
  requestId: number;
  outcome: ApplyOutcome;
  message: string;
}

/**
 * One run of "Analyze Keys" as the panel shows it: sent when it starts, with partial figures while
 * it runs, and once more when it ends. A what-if run re-analyses a base run's input for one topic
 * under the what-if steps (`whatIf`).
 */
export interface AnalysisRunInfo {
  id: number;
  /** What was analysed, for people: "keys.txt", "lines 3-40 of keys.txt". */
  source: string;
  /** How the keys were read, for people: "one key per line (text)". */
  inputLabel: string;
  /** Where it runs: "a worker thread", or "the extension host, in slices". */
  where: string;
  status: 'running' | 'complete' | 'cancelled' | 'failed';
  progress?: AnalyzeProgress;
  /** The figures so far while running (result.status 'partial'), the final ones after. */
  result?: AnalysisResult;
  error?: string;
  whatIf?: { baseId: number; topic: string; events: TopologyEvent[]; requestId?: number };
}

export interface AnalysisMessage {
  type: 'analysis';
  run: AnalysisRunInfo;
  /** A run the user just started: show the Analysis view. */
  reveal?: boolean;
}

export type ExportOutcome = 'saved' | 'cancelled' | 'failed';

/** The reply to `exportAnalysis`. */
export interface ExportResultMessage {
  type: 'exportResult';
  requestId: number;
  outcome: ExportOutcome;
  message: string;
}

export type ToWebviewMessage = StateMessage | ShowKeysMessage | ApplyResultMessage | AnalysisMessage | ExportResultMessage;

// ---------------------------------------------------------------------------------------------
// Webview -> host

/** The message types, webview to host. */
export const FROM_WEBVIEW_TYPES = ['ready', 'applyToSettings', 'applyGroupToSettings', 'webviewError', 'exportAnalysis', 'analyzeWhatIf', 'cancelAnalysis', 'panelView'] as const;

/** The webview's script runs and listens: the host may post now. */
export interface ReadyMessage {
  type: 'ready';
}

/**
 * A request to write a what-if's outcome to the workspace settings. The host asks the user to
 * confirm and answers with `applyResult`.
 */
export interface ApplyToSettingsMessage {
  type: 'applyToSettings';
  requestId: number;
  /** The topic's name as in the settings. */
  topic: string;
  /** The new partition count. */
  partitions?: number;
  /** The subscription's consumers after the change, in connection order. */
  consumers?: ConsumerSetting[];
}

/**
 * A request to write a consumer group's what-if to the workspace settings: its members after the
 * steps (in join order; `topics` where a member's subscription differs from the group's) and, where
 * a step grew the topic, its partition count. Answered with `applyResult`.
 */
export interface ApplyGroupMessage {
  type: 'applyGroupToSettings';
  requestId: number;
  group: string;
  members: Array<{ id: string; topics?: string[] }>;
  topic?: string;
  partitions?: number;
}

/** An error the webview's script caught, for the output channel. */
export interface WebviewErrorMessage {
  type: 'webviewError';
  message: string;
}

/** Save an analysis's figures as CSV or JSON: the host asks where (a save dialog) and writes the file. */
export interface ExportAnalysisMessage {
  type: 'exportAnalysis';
  requestId: number;
  runId: number;
  format: 'csv' | 'json';
}

/**
 * Analyse a run's input again for one topic under the what-if steps (the What-if view's applied
 * steps). The host answers with `analysis` messages whose `run.whatIf.requestId` is this one.
 */
export interface AnalyzeWhatIfMessage {
  type: 'analyzeWhatIf';
  requestId: number;
  /** The base run whose input is analysed again. */
  runId: number;
  topic: string;
  events: TopologyEvent[];
}

/** Stop a running analysis (as the progress notification's Cancel does). */
export interface CancelAnalysisMessage {
  type: 'cancelAnalysis';
  runId: number;
}

/**
 * What the panel shows (sent before `ready` and whenever it changes): its keys, in its order, its
 * width in CSS pixels and its topic, so that the host's `state` routes the keys and lays the charts
 * out for that width, that topic's frame first: the panel's first picture then needs no routing
 * and no pass over the segments.
 */
export interface PanelViewMessage {
  type: 'panelView';
  keys: KeyInput[];
  width?: number;
  topic?: string;
}

export type FromWebviewMessage = ReadyMessage | ApplyToSettingsMessage | ApplyGroupMessage | WebviewErrorMessage | ExportAnalysisMessage | AnalyzeWhatIfMessage | CancelAnalysisMessage | PanelViewMessage;

// ---------------------------------------------------------------------------------------------
// Validation of what the webview sends

/**
 * Limits: far above what the panel sends, far below what could hurt the host. An Apply carries a
 * subscription's or a group's whole list, so the lists go as far as the settings do (10,000
 * consumers or members, MAX_CONSUMERS and MAX_GROUP_MEMBERS) and a what-if's steps past that,
 * where the host's own check of the settings to write names what is wrong.
 */
export const LIMITS = {
  /** The whole message as JSON, in UTF-8 bytes. */
  messageBytes: 4 << 20,
  /** Nesting: applyToSettings -> consumers -> consumer -> ranges -> range is 5 levels. */
  depth: 5,
  /** Objects, arrays and values in the message: 10,100 STICKY consumers holding all 65,536 one-slot ranges need 227,000. */
  nodes: 250_000,
  /** Any one string, before its own field's limit applies. */
  anyString: 8 * 1024,
  topicName: 1024,
  consumerName: 256,
  consumers: 10_100,
  groupMembers: 10_100,
  groupTopics: 1000,
  /** As many as the hash space has slots (disjoint ranges can be no more). */
  rangesPerConsumer: 65536,
  errorMessage: 2000,
  /** As the settings allow (engine/settings.ts). */
  partitions: MAX_PARTITIONS,
  /** STICKY range bounds as the settings accept them. */
  rangeMax: 65536,
  requestId: 0x7fffffff,
  /** What-if steps sent for an analysis (the panel keeps at most 100). */
  whatIfSteps: 100,
  /** Keys the panel shows (`panelView`), and the length of one key's text or hex. */
  panelKeys: 100,
  keyValue: 4096,
  /** The panel's width in CSS pixels (a frame's layouts are made for it). */
  panelWidth: 16384,
} as const;

/** Why a message was refused; `path` names the offending field. */
export class ProtocolError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {}
  toString(): string {
    return `${this.path}: ${this.reason}`;
  }
}

export function isProtocolError(v: unknown): v is ProtocolError {
  return v instanceof ProtocolError;
}

/** Keys that could reach an object's prototype if the message were ever merged into one. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

class Refusal extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

function refuse(path: string, reason: string): never {
  throw new Refusal(path, reason);
}

/**
 * Checks a message from the webview and returns a fresh, fully typed copy of it, or why it was
 * refused. Never throws, whatever `raw` is (cyclic, deep, huge, with getters or odd prototypes).
 */
export function parseFromWebviewMessage(raw: unknown): FromWebviewMessage | ProtocolError {
  try {
    checkShape(raw);
    const bytes = utf8Length(JSON.stringify(raw));
    if (bytes > LIMITS.messageBytes) refuse('message', `is ${bytes} bytes as JSON; at most ${LIMITS.messageBytes} are accepted`);
    const msg = record(raw, 'message');
    const type = field(msg, 'type');
    switch (type) {
      case 'ready':
        onlyKeys(msg, 'message', ['type']);
        return { type: 'ready' };
      case 'webviewError':
        onlyKeys(msg, 'message', ['type', 'message']);
        return { type: 'webviewError', message: str(field(msg, 'message'), 'message.message', 0, LIMITS.errorMessage) };
      case 'applyToSettings':
        return parseApply(msg);
      case 'applyGroupToSettings':
        return parseApplyGroup(msg);
      case 'exportAnalysis':
        onlyKeys(msg, 'message', ['type', 'requestId', 'runId', 'format']);
        return {
          type: 'exportAnalysis',
          requestId: int(field(msg, 'requestId'), 'message.requestId', 0, LIMITS.requestId),
          runId: int(field(msg, 'runId'), 'message.runId', 0, LIMITS.requestId),
          format: oneOf(field(msg, 'format'), 'message.format', ['csv', 'json'] as const),
        };
      case 'analyzeWhatIf':
        return parseAnalyzeWhatIf(msg);
      case 'cancelAnalysis':
        onlyKeys(msg, 'message', ['type', 'runId']);
        return { type: 'cancelAnalysis', runId: int(field(msg, 'runId'), 'message.runId', 0, LIMITS.requestId) };
      case 'panelView': {
        onlyKeys(msg, 'message', ['type', 'keys', 'width', 'topic']);
        const out: PanelViewMessage = { type: 'panelView', keys: array(field(msg, 'keys'), 'message.keys', LIMITS.panelKeys).map((k, i) => parseKeyInput(k, `message.keys[${i}]`)) };
        const width = field(msg, 'width');
        if (width !== undefined) out.width = int(width, 'message.width', 1, LIMITS.panelWidth);
        const topic = field(msg, 'topic');
        if (topic !== undefined) out.topic = str(topic, 'message.topic', 1, LIMITS.topicName);
        return out;
      }
      default:
        return refuse('message.type', typeof type === 'string' ? `unknown message type ${JSON.stringify(type.slice(0, 40))}` : 'must be a string');
    }
  } catch (e) {
    if (e instanceof Refusal) return new ProtocolError(e.path, e.reason);
    // A RangeError from a pathological value, say: refuse the message rather than crash the host.
    return new ProtocolError('message', `cannot be read (${e instanceof Error ? e.name : 'error'})`);
  }
}

/**
 * The request id of a refused Apply, which the host answers with why (`applyResult`) so that the
 * panel does not wait for a confirmation that never comes; undefined for any other message.
 */
export function refusedApplyId(raw: unknown): number | undefined {
  try {
    const { type, requestId } = raw as Record<string, unknown>;
    // `int` throws where the id is not one the panel could have sent.
    if (['applyToSettings', 'applyGroupToSettings'].includes(type as string)) return int(requestId, '', 0, LIMITS.requestId);
  } catch {
    // Not an object (null, say), or no such id: nothing to answer.
  }
  return undefined;
}

function parseApply(msg: Record<string, unknown>): ApplyToSettingsMessage {
  onlyKeys(msg, 'message', ['type', 'requestId', 'topic', 'partitions', 'consumers']);
  const out: ApplyToSettingsMessage = {
    type: 'applyToSettings',
    requestId: int(field(msg, 'requestId'), 'message.requestId', 0, LIMITS.requestId),
    topic: str(field(msg, 'topic'), 'message.topic', 1, LIMITS.topicName),
  };
  const partitions = field(msg, 'partitions');
  if (partitions !== undefined) out.partitions = int(partitions, 'message.partitions', 0, LIMITS.partitions);
  const consumers = field(msg, 'consumers');
  if (consumers !== undefined) {
    const list = array(consumers, 'message.consumers', LIMITS.consumers);
    out.consumers = list.map((c, i) => parseConsumer(c, `message.consumers[${i}]`));
  }
  if (out.partitions === undefined && out.consumers === undefined) refuse('message', 'applyToSettings needs "partitions" or "consumers"');
  return out;
}

function parseApplyGroup(msg: Record<string, unknown>): ApplyGroupMessage {
  onlyKeys(msg, 'message', ['type', 'requestId', 'group', 'members', 'topic', 'partitions']);
  const out: ApplyGroupMessage = {
    type: 'applyGroupToSettings',
    requestId: int(field(msg, 'requestId'), 'message.requestId', 0, LIMITS.requestId),
    group: str(field(msg, 'group'), 'message.group', 1, LIMITS.topicName),
    members: array(field(msg, 'members'), 'message.members', LIMITS.groupMembers).map((m, i) => {
      const path = `message.members[${i}]`;
      const r = record(m, path);
      onlyKeys(r, path, ['id', 'topics']);
      const member: { id: string; topics?: string[] } = { id: str(field(r, 'id'), `${path}.id`, 1, LIMITS.consumerName) };
      const topics = field(r, 'topics');
      if (topics !== undefined) member.topics = array(topics, `${path}.topics`, LIMITS.groupTopics).map((t, j) => str(t, `${path}.topics[${j}]`, 1, LIMITS.topicName));
      return member;
    }),
  };
  const topic = field(msg, 'topic');
  const partitions = field(msg, 'partitions');
  if ((topic === undefined) !== (partitions === undefined)) refuse('message', 'applyGroupToSettings takes "topic" and "partitions" together');
  if (topic !== undefined) {
    out.topic = str(topic, 'message.topic', 1, LIMITS.topicName);
    out.partitions = int(partitions, 'message.partitions', 1, LIMITS.partitions);
  }
  return out;
}

function parseConsumer(raw: unknown, path: string): ConsumerSetting {
  const c = record(raw, path);
  onlyKeys(c, path, ['name', 'ranges']);
  const out: ConsumerSetting = { name: str(field(c, 'name'), `${path}.name`, 1, LIMITS.consumerName) };
  const ranges = field(c, 'ranges');
  if (ranges !== undefined) out.ranges = parseRangeList(ranges, `${path}.ranges`);
  return out;
}

function parseAnalyzeWhatIf(msg: Record<string, unknown>): AnalyzeWhatIfMessage {
  onlyKeys(msg, 'message', ['type', 'requestId', 'runId', 'topic', 'events']);
  const events = array(field(msg, 'events'), 'message.events', LIMITS.whatIfSteps);
  if (events.length === 0) refuse('message.events', 'must hold at least one step');
  return {
    type: 'analyzeWhatIf',
    requestId: int(field(msg, 'requestId'), 'message.requestId', 0, LIMITS.requestId),
    runId: int(field(msg, 'runId'), 'message.runId', 0, LIMITS.requestId),
    topic: str(field(msg, 'topic'), 'message.topic', 1, LIMITS.topicName),
    events: events.map((e, i) => parseEventValue(e, `message.events[${i}]`)),
  };
}

function parseKeyInput(raw: unknown, path: string): KeyInput {
  const k = record(raw, path);
  onlyKeys(k, path, ['format', 'value']);
  return { format: oneOf(field(k, 'format'), `${path}.format`, ['utf8', 'hex'] as const), value: str(field(k, 'value'), `${path}.value`, 0, LIMITS.keyValue) };
}

/** A what-if step as the panel keeps it (engine/events.ts): connect, disconnect or partitions. */
function parseEventValue(raw: unknown, path: string): TopologyEvent {
  const e = record(raw, path);
  const kind = field(e, 'kind');
  switch (kind) {
    case 'connect': {
      onlyKeys(e, path, ['kind', 'name', 'ranges']);
      const name = str(field(e, 'name'), `${path}.name`, 1, LIMITS.consumerName);
      const ranges = field(e, 'ranges');
      return ranges === undefined ? { kind: 'connect', name } : { kind: 'connect', name, ranges: parseRangeList(ranges, `${path}.ranges`) };
    }
    case 'disconnect':
      onlyKeys(e, path, ['kind', 'id']);
      return { kind: 'disconnect', id: str(field(e, 'id'), `${path}.id`, 1, LIMITS.consumerName) };
    case 'partitions':
      onlyKeys(e, path, ['kind', 'count']);
      return { kind: 'partitions', count: int(field(e, 'count'), `${path}.count`, 0, LIMITS.partitions) };
    default:
      return refuse(`${path}.kind`, 'must be "connect", "disconnect" or "partitions"');
  }
}

/** Inclusive STICKY ranges, `[[start, end], ...]`, each within the settings' bounds. */
function parseRangeList(raw: unknown, path: string): Array<[number, number]> {
  const list = array(raw, path, LIMITS.rangesPerConsumer);
  if (list.length === 0) refuse(path, 'must not be empty (omit it instead)');
  return list.map((r, i) => {
    const rp = `${path}[${i}]`;
    const pair = array(r, rp, 2);
    if (pair.length !== 2) refuse(rp, 'must be [start, end]');
    const start = int(pair[0], `${rp}[0]`, 0, LIMITS.rangeMax);
    const end = int(pair[1], `${rp}[1]`, 0, LIMITS.rangeMax);
    if (start > end) refuse(rp, `start ${start} is greater than end ${end}`);
    return [start, end];
  });
}

function oneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) refuse(path, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
  return v as T;
}

/**
 * A bounded walk over the value before anything else reads it: plain data only (no functions,
 * symbols, class instances, accessors), depth, node count and string size limited. A cycle
 * exceeds the depth limit, so JSON.stringify afterwards is safe.
 */
function checkShape(root: unknown): void {
  const stack: Array<{ v: unknown; depth: number; path: string }> = [{ v: root, depth: 0, path: 'message' }];
  let nodes = 0;
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (++nodes > LIMITS.nodes) refuse('message', `has more than ${LIMITS.nodes} values`);
    if (v === null || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) refuse(path, 'must be a finite number');
      continue;
    }
    if (typeof v === 'string') {
      if (v.length > LIMITS.anyString) refuse(path, `is a string of ${v.length} characters; at most ${LIMITS.anyString} are accepted`);
      continue;
    }
    if (typeof v !== 'object') refuse(path, `has a value of type ${typeof v}; only JSON data is accepted`);
    if (depth >= LIMITS.depth) refuse(path, `is nested deeper than ${LIMITS.depth} levels`);
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype) refuse(path, 'must be a plain array');
      if (v.length > LIMITS.nodes) refuse(path, `has ${v.length} items`);
      for (let i = 0; i < v.length; i++) {
        const d = Object.getOwnPropertyDescriptor(v, i);
        if (!d || !('value' in d)) refuse(`${path}[${i}]`, 'must be a plain value');
        stack.push({ v: d.value, depth: depth + 1, path: `${path}[${i}]` });
      }
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) refuse(path, 'must be a plain object');
    if (Object.getOwnPropertySymbols(v).length > 0) refuse(path, 'must not have symbol keys');
    const keys = Object.getOwnPropertyNames(v);
    if (keys.length > LIMITS.nodes) refuse(path, `has ${keys.length} keys`);
    for (const k of keys) {
      const kp = `${path}.${k.slice(0, 40)}`;
      if (FORBIDDEN_KEYS.has(k)) refuse(kp, `the key ${JSON.stringify(k)} is not accepted`);
      if (k.length > 64) refuse(kp, 'key too long');
      const d = Object.getOwnPropertyDescriptor(v, k)!;
      if (!('value' in d)) refuse(kp, 'must be a plain value, not an accessor');
      // An undefined field is an absent one (JSON leaves it out).
      if (d.value === undefined) continue;
      stack.push({ v: d.value, depth: depth + 1, path: kp });
    }
  }
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function record(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) refuse(path, 'must be an object');
  return v as Record<string, unknown>;
}

/** An own property (checkShape already refused accessors and prototype keys). */
function field(o: Record<string, unknown>, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

function onlyKeys(o: Record<string, unknown>, path: string, allowed: string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) refuse(`${path}.${k.slice(0, 40)}`, 'is not a field of this message');
}

function str(v: unknown, path: string, min: number, max: number): string {
  if (typeof v !== 'string') refuse(path, 'must be a string');
  if (v.length < min) refuse(path, min === 1 ? 'must not be empty' : `must have at least ${min} characters`);
  if (v.length > max) refuse(path, `has ${v.length} characters; at most ${max} are accepted`);
  return v;
}

function int(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) refuse(path, 'must be an integer');
  if (v < min || v > max) refuse(path, `must be from ${min} to ${max} (got ${v})`);
  return v;
}

function array(v: unknown, path: string, max: number): unknown[] {
  if (!Array.isArray(v)) refuse(path, 'must be an array');
  if (v.length > max) refuse(path, `has ${v.length} items; at most ${max} are accepted`);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Checks of what the host sends (the webview trusts the host, but a stale or foreign message
// must not break the page).

export function isToWebviewMessage(v: unknown): v is ToWebviewMessage {
  if (typeof v !== 'object' || v === null) return false;
  const t = (v as { type?: unknown }).type;
  return (TO_WEBVIEW_TYPES as readonly unknown[]).includes(t);
}
