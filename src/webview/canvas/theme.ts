/**
 * The canvas charts' colours, read from the same CSS rules the SVG charts use (media/panel.css,
 * every colour a `--vscode-*` variable): a hidden SVG holds one element per rule, and its computed
 * styles are the theme. So light, dark and high-contrast themes (with their contrast borders)
 * look the same drawn either way, and a theme change is picked up by reading them again: VS Code
 * changes the variables on <html> and the theme class on <body>, which an observer watches.
 */
import { svg } from '../dom';

export interface Theme {
  /** Consumer colours c0..c11. */
  palette: string[];
  /** Between segments: the editor background, or the contrast border in high contrast. */
  segStroke: string;
  segStrokeWidth: number;
  highContrast: boolean;
  /** Unowned: the widget background with hatch lines. */
  unownedFill: string;
  hatch: string;
  mixedAlpha: number;
  fadedAlpha: number;
  tickMixedAlpha: number;
  moved: string;
  cursor: string;
  markerLine: string;
  text: string;
  muted: string;
  badge: string;
  badgeText: string;
  arc: string;
  wedgeFill: string;
  wedgeAlpha: number;
  wedgeStroke: string;
  labelFill: string;
  labelHalo: string;
  cell: string;
  cellStroke: string;
  cellHit: string;
  cellHitText: string;
  emphasis: string;
  font: string;
  boldFont: string;
  /** Changes whenever the theme is read again, so cached drawings know they are stale. */
  version: number;
}

const PROBES: Array<[string, string]> = [
  ...Array.from({ length: 12 }, (_, i): [string, string] => [`c${i}`, `seg c${i}`]),
  ['seg', 'seg c0'],
  ['mixed', 'seg c0 mixed'],
  ['faded', 'seg c0 faded'],
  ['tickMixed', 'tick c0 mixed'],
  ['hatch', 'hatch-line'],
  ['moved', 'moved'],
  ['cursor', 'cursor'],
  ['markerLine', 'marker-line'],
  ['badge', 'marker-badge'],
  ['arc', 'arc'],
  ['wedge', 'zoom-wedge'],
  ['cell', 'cell'],
  ['cellHit', 'cell hit'],
  ['emphasis', 'cell emphasised'],
];
const TEXT_PROBES: Array<[string, string]> = [
  ['text', 'marker-hash'],
  ['muted', 'zoom-note'],
  ['badgeText', 'marker-badge-text'],
  ['label', 'seg-label'],
  ['cellHitText', 'cell-label hit'],
];

let current: Theme | undefined;
let version = 0;
const listeners = new Set<() => void>();
let observing = false;

/** The theme as the CSS says now (read once, then again after a theme change). */
export function theme(): Theme {
  if (!current) current = readTheme();
  return current;
}

/**
 * Reads the theme and has the canvas fonts' digits drawn once while the panel waits for the host's
 * first state (main.ts), so that the first picture does not: in the panel bench that took 5-7 ms
 * off its main-thread CPU. Watches for theme changes from then on.
 */
export function preloadTheme(): void {
  const t = theme();
  watch();
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return;
  for (const font of [t.font, t.boldFont]) {
    ctx.font = font;
    ctx.fillText('0123456789', 0, 9);
  }
}

/** Calls `f` after every theme change (and starts watching for them). */
export function onThemeChange(f: () => void): () => void {
  listeners.add(f);
  watch();
  return () => listeners.delete(f);
}

function watch(): void {
  if (observing || typeof MutationObserver === 'undefined') return;
  observing = true;
  const changed = () => {
    const before = current;
    current = undefined;
    const now = theme();
    if (before && sameColours(before, now)) {
      current = before;
      return;
    }
    for (const f of listeners) f();
  };
  const observer = new MutationObserver(changed);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'style', 'data-vscode-theme-kind'] });
}

function sameColours(a: Theme, b: Theme): boolean {
  for (const k of Object.keys(a) as Array<keyof Theme>) {
    if (k === 'version') continue;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return false;
  }
  return true;
}

function readTheme(): Theme {
  const probe = svg('svg', { class: 'theme-probe', 'aria-hidden': 'true', focusable: 'false', width: 0, height: 0 });
  const els = new Map<string, SVGElement>();
  for (const [name, cls] of PROBES) {
    const el = svg('rect', { class: cls });
    els.set(name, el);
    probe.append(el);
  }
  for (const [name, cls] of TEXT_PROBES) {
    const el = svg('text', { class: cls });
    els.set(name, el);
    probe.append(el);
  }
  document.body.append(probe);
  try {
    const st = (name: string) => getComputedStyle(els.get(name)!);
    const fill = (name: string) => colour(st(name).fill);
    const stroke = (name: string) => colour(st(name).stroke);
    const alpha = (name: string) => {
      const v = Number.parseFloat(st(name).opacity);
      return Number.isFinite(v) ? v : 1;
    };
    const text = st('text');
    const family = text.fontFamily || 'sans-serif';
    const seg = st('seg');
    const highContrast = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
    const t: Theme = {
      palette: Array.from({ length: 12 }, (_, i) => fill(`c${i}`)),
      segStroke: colour(seg.stroke),
      segStrokeWidth: Number.parseFloat(seg.strokeWidth) || 0.5,
      highContrast,
      unownedFill: colour(getComputedStyle(document.body).getPropertyValue('--vscode-editorWidget-background').trim() || 'transparent'),
      hatch: stroke('hatch'),
      mixedAlpha: alpha('mixed'),
      fadedAlpha: alpha('faded'),
      tickMixedAlpha: alpha('tickMixed'),
      moved: fill('moved'),
      cursor: stroke('cursor'),
      markerLine: stroke('markerLine'),
      text: fill('text'),
      muted: fill('muted'),
      badge: fill('badge'),
      badgeText: fill('badgeText'),
      arc: stroke('arc'),
      wedgeFill: fill('wedge'),
      wedgeAlpha: alpha('wedge'),
      wedgeStroke: stroke('wedge'),
      labelFill: fill('label'),
      labelHalo: stroke('label'),
      cell: fill('cell'),
      cellStroke: stroke('cell'),
      cellHit: fill('cellHit'),
      cellHitText: fill('cellHitText'),
      emphasis: stroke('emphasis'),
      font: `11px ${family}`,
      boldFont: `bold 11px ${family}`,
      version: ++version,
    };
    return t;
  } finally {
    probe.remove();
  }
}

/** A computed colour as canvas takes it; `none` and paint servers (url(...)) become transparent. */
function colour(v: string): string {
  const s = (v ?? '').trim();
  if (s === '' || s === 'none' || s.startsWith('url(')) return 'transparent';
  return s;
}

/** The colour of palette index `c` (-1: unowned, drawn with the hatch instead). */
export function paletteColour(t: Theme, c: number): string {
  return c < 0 ? t.unownedFill : t.palette[c % t.palette.length];
}

const hatchCache = new WeakMap<CanvasRenderingContext2D, { version: number; dpr: number; pattern: CanvasPattern | null }>();

/** The hatch that fills unowned ranges (as the SVG's `hatch-unowned` pattern), per context. */
export function hatchPattern(ctx: CanvasRenderingContext2D, t: Theme, dpr: number): CanvasPattern | string {
  const cached = hatchCache.get(ctx);
  if (cached && cached.version === t.version && cached.dpr === dpr && cached.pattern) return cached.pattern;
  const size = Math.max(1, Math.round(6 * dpr));
  const tile = document.createElement('canvas');
  tile.width = size;
  tile.height = size;
  const c = tile.getContext('2d');
  if (!c) return t.unownedFill;
  c.fillStyle = t.unownedFill;
  c.fillRect(0, 0, size, size);
  c.strokeStyle = t.hatch;
  c.lineWidth = 1.5 * dpr;
  // Diagonal lines that join up across tiles.
  c.beginPath();
  c.moveTo(-1, size + 1);
  c.lineTo(size + 1, -1);
  c.moveTo(-1, 1);
  c.lineTo(1, -1);
  c.moveTo(size - 1, size + 1);
  c.lineTo(size + 1, size - 1);
  c.stroke();
  const pattern = ctx.createPattern(tile, 'repeat');
  // The pattern lives in device pixels; the context draws in CSS pixels.
  pattern?.setTransform(new DOMMatrix([1 / dpr, 0, 0, 1 / dpr, 0, 0]));
  hatchCache.set(ctx, { version: t.version, dpr, pattern });
  return pattern ?? t.unownedFill;
}
