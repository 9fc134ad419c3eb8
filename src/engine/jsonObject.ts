/**
 * A JSON object (not null, not an array): what the settings, a broker's report, a scenario file or
 * a saved panel state must be before their fields are read as data.
 */
export function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
