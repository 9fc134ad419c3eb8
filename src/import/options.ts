/** What every importer takes and gives. */

export interface ImportOptions {
  /** The file or source the report came from, as messages name it. */
  source: string;
  /** `--topic`: the topic the stats belong to (stats of one topic do not carry its name). */
  topic?: string;
  /** `--subscription`: the Key_Shared subscription to import. */
  subscription?: string;
  /** `--assignor`: the Kafka group's assignor. */
  assignor?: string;
  /** When the report was taken, where known (an admin REST answer's time). */
  at?: string;
  /**
   * The settings the import adds to: entries of the same name keep what a report cannot tell
   * (a Pulsar topic's hashing scheme, replicaPoints; a Kafka topic's partitioner).
   */
  base?: Record<string, unknown>;
}

/** Settings entries to add (replacing entries of the same name), and what the user should know. */
export interface Imported {
  topics: Array<Record<string, unknown>>;
  groups: Array<Record<string, unknown>>;
  notes: string[];
}

/** The entry named `name` in the list `key` of `base`, if it is an object. */
export function existingEntry(base: Record<string, unknown> | undefined, key: string, name: string): Record<string, any> | undefined {
  const list = base?.[key];
  if (!Array.isArray(list)) return undefined;
  const found = list.find((e) => typeof e === 'object' && e !== null && (e as Record<string, unknown>).name === name);
  return found as Record<string, any> | undefined;
}
