/**
 * What the panel remembers across reloads (`getState`/`setState`, and the serializer's revive):
 * the selected topic and view, the keys, zoom windows, and the what-if steps. Read back through
 * `sanitizeState`, which keeps only well-formed parts (a state from an older version, say).
 */
import type { TopologyEvent } from '../engine/events';
import { MAX_PARTITIONS } from '../engine/settings';
import type { KeyInput } from '../shared/protocol';
import type { ZoomWindow } from '../shared/view/segments';
import { isObject } from '../engine/jsonObject';

export type ViewKind = 'partitions' | 'ranges' | 'ring' | 'namespace' | 'whatif' | 'analysis';
export const VIEW_KINDS: readonly ViewKind[] = ['partitions', 'ranges', 'ring', 'namespace', 'whatif', 'analysis'];

export interface WhatIfState {
  /** Every step entered; the first `cursor` are applied (the rest can be redone). */
  events: TopologyEvent[];
  cursor: number;
}

export interface GroupWhatIfState {
  events: string[];
  cursor: number;
}

/** The key of a group's what-if in `PanelState.groupWhatIf`: the topic it is shown on, and the group. */
export function groupWhatIfKey(topic: string, group: string): string {
  return `${topic}|${group}`;
}

/** A group event as the panel's editor writes it (the engine parses it again and may refuse it). */
export function isGroupEvent(v: unknown): v is string {
  return typeof v === 'string' && v.length >= 2 && v.length <= 2400 && /^(\+|-|partitions=\d{1,10}$)/.test(v);
}

export interface PanelState {
  version: 1;
  topic?: string;
  /** Selected view per topic. */
  views: Record<string, ViewKind>;
  keys: KeyInput[];
  /** Zoom window per `topic|chart`. */
  zoom: Record<string, ZoomWindow>;
  whatIf: Record<string, WhatIfState>;
  /** The consumer group shown per Kafka topic. */
  groups?: Record<string, string>;
  /** A group's what-if steps (`+ID`, `+ID:TOPICS`, `-ID`, `partitions=N`) per `topic|group`. */
  groupWhatIf?: Record<string, GroupWhatIfState>;
  /** Split positions typed for specified_positions_divide, per namespace. */
  positions: Record<string, string>;
  /**
   * How dense charts are drawn: `auto` (canvas where SVG elements would be too many), or always
   * `svg` / `canvas` (the benchmark compares them).
   */
  renderer?: Renderer;
}

export type Renderer = 'auto' | 'svg' | 'canvas';
export const RENDERERS: readonly Renderer[] = ['auto', 'svg', 'canvas'];

export const MAX_KEYS = 100;
export const MAX_STEPS = 100;

export function emptyState(): PanelState {
  return { version: 1, views: {}, keys: [], zoom: {}, whatIf: {}, positions: {} };
}

function entries<T>(v: unknown, check: (x: unknown) => x is T): Record<string, T> {
  const out: Record<string, T> = Object.create(null);
  if (!isObject<unknown>(v)) return out;
  for (const [k, x] of Object.entries(v)) if (check(x)) out[k] = x;
  return out;
}

export function isKeyInput(v: unknown): v is KeyInput {
  return isObject<unknown>(v) && (v.format === 'utf8' || v.format === 'hex') && typeof v.value === 'string' && v.value.length <= 4096;
}

function isRange(v: unknown): v is [number, number] {
  return Array.isArray(v) && v.length === 2 && v.every((x) => Number.isInteger(x) && x >= 0 && x <= 65536) && v[0] <= v[1];
}

export function isEvent(v: unknown): v is TopologyEvent {
  if (!isObject<unknown>(v)) return false;
  if (v.kind === 'connect') return typeof v.name === 'string' && v.name !== '' && (v.ranges === undefined || (Array.isArray(v.ranges) && v.ranges.length > 0 && v.ranges.every(isRange)));
  if (v.kind === 'disconnect') return typeof v.id === 'string' && v.id !== '';
  if (v.kind === 'partitions') return Number.isInteger(v.count) && (v.count as number) >= 0 && (v.count as number) <= MAX_PARTITIONS;
  return false;
}

export function sanitizeState(raw: unknown): PanelState {
  const s = emptyState();
  if (!isObject<unknown>(raw) || raw.version !== 1) return s;
  if (typeof raw.topic === 'string') s.topic = raw.topic;
  s.views = entries(raw.views, (v): v is ViewKind => typeof v === 'string' && (VIEW_KINDS as readonly string[]).includes(v));
  s.keys = Array.isArray(raw.keys) ? raw.keys.filter(isKeyInput).slice(0, MAX_KEYS) : [];
  s.zoom = entries(raw.zoom, (v): v is ZoomWindow => isObject<unknown>(v) && Number.isFinite(v.from) && Number.isFinite(v.to));
  s.whatIf = entries(raw.whatIf, (v): v is WhatIfState => isObject<unknown>(v) && Array.isArray(v.events) && v.events.length <= MAX_STEPS && v.events.every(isEvent) && Number.isInteger(v.cursor) && (v.cursor as number) >= 0 && (v.cursor as number) <= v.events.length);
  const groups = entries(raw.groups, (v): v is string => typeof v === 'string' && v.length <= 400);
  if (Object.keys(groups).length) s.groups = groups;
  const gw = entries(raw.groupWhatIf, (v): v is GroupWhatIfState => isObject<unknown>(v) && Array.isArray(v.events) && v.events.length <= MAX_STEPS && v.events.every(isGroupEvent) && Number.isInteger(v.cursor) && (v.cursor as number) >= 0 && (v.cursor as number) <= v.events.length);
  if (Object.keys(gw).length) s.groupWhatIf = gw;
  s.positions = entries(raw.positions, (v): v is string => typeof v === 'string' && v.length <= 2000);
  if ((RENDERERS as readonly unknown[]).includes(raw.renderer)) s.renderer = raw.renderer as Renderer;
  return s;
}

export function sameKey(a: KeyInput, b: KeyInput): boolean {
  return a.format === b.format && a.value === b.value;
}
