/**
 * A JSON object (not null, not an array): what the settings, a broker's report, a scenario file or
 * a saved panel state must be before their fields are read as data. Validators of untrusted input
 * (the webview's saved state, the command line's input files) ask for `isObject<unknown>`, so that
 * each field is checked before it is used.
 */
export function isObject<T = any>(v: unknown): v is Record<string, T> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
