/**
 * A canvas sized in CSS pixels and drawn at the screen's resolution (devicePixelRatio), and the
 * frame scheduler the charts share (the SVG bar's zoom too): a chart asks to be drawn, and every
 * chart asked for is drawn once in the next animation frame however many times it was asked (a
 * wheel turn sends many events a frame).
 */
import { onThemeChange } from './theme';

/** The context every chart draws with (a prepared canvas's context is made with the same). */
const CONTEXT: CanvasRenderingContext2DSettings = { alpha: true };

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
    // A spare of this size (see `prepareCanvas`) is taken instead of a new canvas.
    const key = backingSize(width, height, deviceRatio()).join('x');
    this.canvas = spares.get(key) ?? document.createElement('canvas');
    spares.delete(key);
    for (const k in attrs) this.canvas.setAttribute(k, attrs[k]);
    const ctx = this.canvas.getContext('2d', CONTEXT);
    if (!ctx) throw new Error('this webview cannot draw on a canvas');
    this.ctx = ctx;
    this.resize(width, height);
  }

  /** Sets the size (CSS pixels) and the backing store for the current resolution; clears it. */
  resize(width: number, height: number): void {
    const dpr = deviceRatio();
    const w = Math.max(1, Math.round(width));
    const hh = Math.max(1, Math.round(height));
    if (w !== this.width || hh !== this.height || dpr !== this.dpr) {
      this.width = w;
      this.height = hh;
      this.dpr = dpr;
      const [pw, ph] = backingSize(w, hh, dpr);
      // Setting a dimension, even to the value it has, clears the canvas; a prepared one keeps its store.
      if (this.canvas.width !== pw) this.canvas.width = pw;
      if (this.canvas.height !== ph) this.canvas.height = ph;
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

const deviceRatio = (): number => Math.max(1, window.devicePixelRatio || 1);

/** The backing store's size in device pixels for a canvas of `width` x `height` CSS pixels. */
function backingSize(width: number, height: number, dpr: number): [number, number] {
  return [Math.round(Math.max(1, Math.round(width)) * dpr), Math.round(Math.max(1, Math.round(height)) * dpr)];
}

// Canvases made ahead of the charts that draw on them. The first drawing on a canvas allocates
// its backing store, and with software rendering on the 2-core test machine that cost 3-8 ms
// for the ring's 460 x 460 px and 2-4 ms for a bar (fresh memory, and this machine's page faults
// are dear): a tenth of a first picture. So the panel makes the canvases its first picture will
// most likely draw on while it waits for the host to answer `ready` (`App.prepareCanvases`); a
// Surface of such a size takes the spare. Only canvases no chart has used are kept, so a chart's
// listeners and state never outlive it.

/** Spare canvases, with their backing stores made, by size in device pixels ("WxH"). */
const spares = new Map<string, HTMLCanvasElement>();

/** Makes a spare canvas of `width` x `height` CSS pixels at the screen's resolution. */
export function prepareCanvas(width: number, height: number): void {
  const canvas = document.createElement('canvas');
  const size = backingSize(width, height, deviceRatio());
  [canvas.width, canvas.height] = size;
  // The first drawing allocates the store (getContext alone does not).
  canvas.getContext('2d', CONTEXT)?.clearRect(0, 0, 1, 1);
  spares.set(size.join('x'), canvas);
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
