/**
 * Tiny DOM helpers. Text goes in through `textContent` only (never `innerHTML`), so names from
 * the settings cannot inject markup; event handlers are attached in code (the CSP forbids inline
 * ones).
 */
export type Child = Node | string | number | null | undefined | false;
export type Attrs = Record<string, string | number | boolean | undefined | null>;

const SVG_NS = 'http://www.w3.org/2000/svg';

// A key's table row is ten or more calls of `h`, a picture with 100 keys over a thousand, most of
// them before V8 has optimised this code: `for...in` and `append(string)` (which makes the
// text node natively) leave out an array per call and a call per text.
function apply(el: Element, attrs: Attrs | undefined, children: Child[]): void {
  if (attrs) {
    for (const k in attrs) {
      const v = attrs[k];
      if (v === undefined || v === null || v === false) continue;
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'number' ? String(c) : c);
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
}

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs, children);
  return el;
}

/**
 * `box` (a .deferred or .paged: panel.css skips laying one out while it is out of sight), as tall as
 * its table rows would be (about 1.6em each) until it is first drawn. A guess too short would
 * bring the boxes below it near enough to the view to be laid out at once.
 */
export function sizedByRows<T extends HTMLElement>(box: T): T {
  box.style.containIntrinsicSize = `auto ${box.getElementsByTagName('tr').length * 1.6 + 3}em`;
  return box;
}

/** The CSS class of an owner's colour (media/panel.css): `c0` to `c11`, or `unowned` for nobody's (-1). */
export function colourClass(color: number): string {
  return color < 0 ? 'unowned' : `c${color}`;
}

/**
 * Path data gathered by class and drawn as one `<path>` per class, not an element per piece: a
 * full ring is a run per pixel column, and a thousand elements cost more to lay out and paint than
 * to build.
 */
export class ClassPaths {
  readonly #byClass = new Map<string, string[]>();

  add(cls: string, d: string): void {
    let list = this.#byClass.get(cls);
    if (!list) this.#byClass.set(cls, (list = []));
    list.push(d);
  }

  /** A group of class `group` holding a path per class, in the order the classes first came. */
  group(group: string): SVGGElement {
    return svg('g', { class: group }, ...[...this.#byClass].map(([cls, d]) => svg('path', { class: cls, d: d.join('') })));
  }
}

/** Rounds pixel coordinates to keep the SVG text short. */
export function px(v: number): string {
  return (Math.round(v * 100) / 100).toString();
}

/**
 * Puts back into a freshly drawn tree the elements marked `data-keep` whose markup has not changed
 * since the last drawing (`current`). The page is drawn whole on every message, partial analysis
 * figures every 0.6 s among them; a button replaced between press and release loses its click, so
 * the buttons one presses while figures stream in (tabs, Cancel) stay the same elements. Mark an
 * element only where its markup fixes everything its listeners do.
 */
export function keepUnchanged(fresh: Element, current: ParentNode): void {
  for (const el of Array.from(fresh.querySelectorAll('[data-keep]'))) {
    const old = current.querySelector(`[data-keep="${CSS.escape(el.getAttribute('data-keep') ?? '')}"]`);
    if (old && old !== el && old.outerHTML === el.outerHTML) el.replaceWith(old);
  }
}
