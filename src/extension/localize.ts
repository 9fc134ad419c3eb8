/**
 * How pure modules (no `vscode` import, unit-tested in Node) localise: they take the extension
 * host's `vscode.l10n` as a parameter named `l10n` and call `l10n.t` with a literal message, the form the
 * localisation tooling collects. Outside VS Code, `ENGLISH` fills the `{0}` placeholders as
 * `vscode.l10n.t` does when no translation is loaded.
 */
export interface Localizer {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

export const ENGLISH: Localizer = {
  t: (message, ...args) => message.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m)),
};
