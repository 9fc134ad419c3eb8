/** A key as the panel shows it: the user's input, the message key it stands for, or why it is not one. */
import { parseHex } from '../../engine/bytes';
import { bytesKey, stringKey } from '../../engine/key';
import type { KeyInput } from '../protocol';
import type { ShownKey } from './topicView';

export interface KeyEntry {
  input: KeyInput;
  shown?: ShownKey;
  error?: string;
}

export function toShownKey(k: KeyInput): KeyEntry {
  if (k.format === 'utf8') return { input: k, shown: { label: k.value, key: stringKey(k.value) } };
  try {
    const key = bytesKey(parseHex(k.value));
    return { input: k, shown: { label: key.text ?? `0x${k.value.toLowerCase()}`, key } };
  } catch (e) {
    return { input: k, error: (e as Error).message };
  }
}

/** One string per key input, for lookups (the format and the value cannot run together). */
export function keyId(k: KeyInput): string {
  return `${k.format}:${k.value}`;
}
