// Types of scripts/l10n-strings.mjs for the unit test.
export function extractSourceStrings(root: string): { strings: Map<string, Set<string>>; dynamic: string[] };
export function manifestKeys(root: string): Set<string>;
export function englishBundle(root: string): Record<string, string>;
export function placeholders(s: string): string[];
