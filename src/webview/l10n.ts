/**
 * The webview's strings in the display language. The host puts the extension's loaded
 * translations (vscode.l10n.bundle: English message -> translation, nothing in English) into the
 * page's `key-routing-l10n` meta tag (panel/html.ts): data, not script, so the CSP stays as strict.
 * `l10n.t` is called as the extension host's is, so one extractor collects both.
 */
function loadStrings(): Record<string, string> {
  try {
    const raw = typeof document === 'undefined' ? null : document.querySelector('meta[name="key-routing-l10n"]')?.getAttribute('content');
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

const strings = loadStrings();

export const l10n = {
  t(message: string, ...args: Array<string | number>): string {
    const s = typeof strings[message] === 'string' ? strings[message] : message;
    return s.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));
  },
  /** `t` with marked-up arguments: the sentence's parts, its {n} replaced by `nodes[n]` wherever the translation puts them. */
  parts(message: string, ...nodes: Node[]): Array<string | Node> {
    return this.t(message).split(/\{(\d+)\}/).map((p, i) => (i % 2 ? nodes[Number(p)] : p));
  },
};
