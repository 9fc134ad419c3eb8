/**
 * A setting written into the text of a settings file (pure: no `vscode`; settingsWrite.ts writes
 * the file). VS Code's own writer (`WorkspaceConfiguration.update`) formats the new value with
 * jsonc-parser's `modify`, which makes one edit per token and copies the whole text for each: its
 * time grows with the square of the value's size. Writing a STICKY subscription of 2,000 consumers
 * x 16 ranges took it 199 s in Node (the window froze as long), 2,000 x 4 ranges 24 s; a broker's
 * report of a 1,000 x 100 ring (100,000 ranges) would take far longer. Here the value is printed
 * once, each range on one line.
 */
import { parseTree, propertyNamed, type JsoncNode } from './jsoncTree';

/**
 * `value` as a settings file holds it, its lines after the first indented by `indent`, `unit` a
 * level, and each [start, end] pair (a range) on one line. A raw line break is never inside a JSON
 * string, so the pattern meets only the printed structure.
 */
export function settingsJson(value: unknown, indent: string, unit: string): string {
  return JSON.stringify(value, null, unit)
    .replace(/\n/g, `\n${indent}`)
    .replace(/\[\n\s*(-?\d+),\n\s*(-?\d+)\n\s*\]/g, '[$1, $2]');
}

/**
 * `text`, a settings file, with the setting at `path` (["settings", key] in a .code-workspace file)
 * set to `value`: its value's text replaced (the last of duplicate keys, which VS Code reads), or
 * the property added at the end of its object. Undefined where the text does not parse (as VS Code
 * reads it) or an object on the path is missing; a text nested past the parser's stack throws.
 */
export function withSetting(text: string, path: readonly string[], value: unknown): string | undefined {
  let node: JsoncNode | undefined = parseTree(text);
  // The indentation of `offset`'s line.
  const indentAt = (offset: number) => /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1))![0];
  for (let depth = 0; node?.type === 'object'; depth++) {
    const props = node.children!;
    const prop = propertyNamed(node, path[depth]);
    const indent = indentAt(prop?.offset ?? props.at(-1)?.offset ?? node.offset) || '  '.repeat(depth + 1);
    const json = (v: unknown) => settingsJson(v, indent, indent.slice(0, indent.length / (depth + 1)) || '  ');
    if (depth === path.length - 1) {
      const at = prop?.children![1] ?? props.at(-1);
      const end = at ? at.offset + at.length : node.offset + 1;
      if (prop) return text.slice(0, at!.offset) + json(value) + text.slice(end);
      return `${text.slice(0, end)}${at ? ',' : ''}\n${indent}${JSON.stringify(path[depth])}: ${json(value)}${at ? '' : '\n'}${text.slice(end)}`;
    }
    node = prop?.children![1];
  }
  return undefined;
}
