/**
 * A canvas sized in CSS pixels and drawn at the screen's resolution (devicePixelRatio), and the
 * frame scheduler the charts share (the SVG bar's zoom too): a chart asks to be drawn, and every
 * chart asked for is drawn once in the next animation frame however many times it was asked (a
 * wheel turn sends many events a frame).
 */
import { h } from '../dom';
import { onThemeChange } from './theme';

export interface Drawable {
  draw(): void;
  /** False once the chart left the page: it is dropped instead of drawn. */
  readonly alive: boolean;
}

export class Surface {
  readonly canvas: HTMLCanvasElement;
  readonly ctx: CanvasRenderingContext2D;
  width = 0;
  height = 0;
  dpr = 1;

  constructor(width: number, height: number, attrs: Record<string, string>) {
    this.canvas = h('canvas', attrs);
    const ctx = this.canvas.getContext('2d', { alpha: true });
    if (!ctx) throw new Error('this webview cannot draw on a canvas');
    this.ctx = ctx;
    this.resize(width, height);
  }

  /** Sets the size (CSS pixels) and the backing store for the current resolution; clears it. */
  resize(width: number, height: number): void {
    const dpr = Math.max(1, window.devicePixelRatio || 1);
    const w = Math.max(1, Math.round(width));
    const hh = Math.max(1, Math.round(height));
    if (w !== this.width || hh !== this.height || dpr !== this.dpr) {
      this.width = w;
      this.height = hh;
      this.dpr = dpr;
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(hh * dpr);
      this.canvas.style.width = `${w}px`;
      this.canvas.style.height = `${hh}px`;
    }
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.ctx.clearRect(0, 0, w, hh);
  }

  /** Pointer position in CSS pixels relative to the canvas. */
  at(ev: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }
}

const dirty = new Set<Drawable>();
const live = new Set<Drawable>();
let scheduled = false;

/** Draws `d` in the next animation frame (once, however often it is asked). */
export function requestDraw(d: Drawable): void {
  dirty.add(d);
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    const todo = [...dirty];
    dirty.clear();
    for (const x of todo) if (x.alive) x.draw();
  });
}

/** The charts' warm-ups (their zoom layouts), which the panel's idle warm-up runs (`App.warmUp`). */
const warmUps: Array<() => void> = [];

/** Queues `task`, a chart's warm-up, for the panel's next idle moments. */
export function warmLater(task: () => void): void {
  warmUps.push(task);
}

/** Runs the first queued warm-up; false when none was queued. */
export function warmNext(): boolean {
  const task = warmUps.shift();
  task?.();
  return task !== undefined;
}

/** Keeps `d` to be drawn again when the theme or the resolution changes. */
export function register(d: Drawable): void {
  live.add(d);
  watch();
}

let watching = false;
function watch(): void {
  if (watching) return;
  watching = true;
  const redrawAll = () => {
    for (const d of [...live]) {
      if (d.alive) requestDraw(d);
      else live.delete(d);
    }
  };
  onThemeChange(redrawAll);
  // A window moved to a screen of another resolution, or zoomed: the media query stops matching.
  const listen = () => {
    const mq = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    mq.addEventListener('change', () => {
      redrawAll();
      listen();
    }, { once: true });
  };
  listen();
}
