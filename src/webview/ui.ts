/** The tooltip shown on hover and the live region that reads keyboard moves out. */
import { h } from './dom';

export class Ui {
  readonly tooltip = h('div', { id: 'tooltip', role: 'tooltip', hidden: true });
  readonly live = h('div', { id: 'live', class: 'sr-only', 'aria-live': 'polite' });

  showTip(clientX: number, clientY: number, lines: string[]): void {
    const t = this.tooltip;
    t.replaceChildren(...lines.map((l, i) => h('div', { class: i === 0 ? 'tip-title' : 'tip-line' }, l)));
    t.hidden = false;
    const pad = 12;
    const w = t.offsetWidth;
    const hgt = t.offsetHeight;
    const x = Math.min(clientX + pad, window.innerWidth - w - 4);
    const y = clientY + pad + hgt > window.innerHeight ? clientY - hgt - pad : clientY + pad;
    t.style.left = `${Math.max(4, x)}px`;
    t.style.top = `${Math.max(4, y)}px`;
  }

  hideTip(): void {
    this.tooltip.hidden = true;
  }

  announce(text: string): void {
    this.live.textContent = text;
  }
}
