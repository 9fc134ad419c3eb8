// The manifest's `%key%` placeholders, renamed short in the package (scripts/pack-vsix.mjs), and
// the check that the renaming changed nothing VS Code shows (scripts/check-vsix.mjs).
//
// Why: the keys (`config.topics.partitioner.enumDescriptions.librdkafka-consistent`, 138 of them)
// are written three times, in package.json and in each package.nls file, and each file is
// compressed on its own: they cost about 1.2 KB of the 200 KB package. VS Code only looks them up,
// so in the package they can be any names; the sources keep the readable ones.

/** The manifest's string files: `package.nls.json` (the default) and one per language. */
export const NLS_FILE = /^package\.nls(\.[a-z-]+)?\.json$/;

/** `%key%`: how a manifest string refers to a package.nls entry (the whole string, nothing around it). */
const PLACEHOLDER = /^%(.+)%$/;

/** Short names for `keys`, in their order: a, b, ..., z, 10, 11, ... (base 36, never a clash). */
export function shortNames(keys) {
  return new Map(keys.map((k, i) => [k, (i + 10).toString(36)]));
}

/** `value` (any JSON) with every string `%key%` passed through `f(key, string)`. */
function mapStrings(value, f) {
  if (typeof value === 'string') {
    const m = PLACEHOLDER.exec(value);
    return m ? f(m[1], value) : value;
  }
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}

/** What a translation entry says: a string, or `{ message, comment }` (undefined for none). */
export const entryText = (e) => (typeof e === 'string' ? e : e?.message);

/**
 * The manifest and its nls files with the keys renamed: `nls` maps a file name
 * (`package.nls.json`, `package.nls.zh-cn.json`) to its parsed entries. Keys are named in the order
 * of the default file; a placeholder without an entry there is left as it is (VS Code shows it as
 * written, and the check names it).
 */
export function shortenNlsKeys(manifest, nls) {
  const defaults = nls['package.nls.json'] ?? {};
  const names = shortNames(Object.keys(defaults));
  const rename = (entries) => Object.fromEntries(Object.entries(entries).map(([k, v]) => [names.get(k) ?? k, v]));
  // A language's entry that says what the default one says is left out: VS Code reads the default
  // file's entry for a key the language's file lacks (the product's name, the serializers' class
  // names, ...).
  const own = (file, entries) => (file === 'package.nls.json' ? entries : Object.fromEntries(Object.entries(entries).filter(([k, v]) => entryText(v) !== entryText(defaults[k]))));
  return {
    manifest: mapStrings(manifest, (key, s) => (names.has(key) ? `%${names.get(key)}%` : s)),
    nls: Object.fromEntries(Object.entries(nls).map(([file, entries]) => [file, rename(own(file, entries))])),
  };
}

/**
 * The manifest as VS Code shows it in a language: each placeholder replaced by the language's entry
 * (a string, or `{ message }`), else the default file's, else left as written.
 */
export function resolveManifest(manifest, defaults, localized = {}) {
  return mapStrings(manifest, (key, s) => entryText(localized[key]) ?? entryText(defaults[key]) ?? s);
}

/** Placeholders in the manifest that no entry of the default nls file answers. */
export function unresolvedPlaceholders(manifest, defaults) {
  const missing = [];
  mapStrings(manifest, (key, s) => {
    if (!(key in defaults)) missing.push(key);
    return s;
  });
  return missing;
}
