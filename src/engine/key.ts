/**
 * A message key as the clients see it: a string key (UTF-8 on the wire) or a byte key.
 */
import { base64, decodeUtf8, utf8 } from './bytes';

export interface MessageKey {
  /** The key's bytes on the wire (Kafka's serialized key; Pulsar's sticky-key bytes). */
  readonly bytes: Uint8Array;
  /** The string key, or null for bytes that are not valid UTF-8 (a byte key). */
  readonly text: string | null;
  /**
   * True where the key was given as its bytes (hex input) rather than typed as text: a Kafka
   * `bytes` key serializer takes these bytes as they are instead of reading the text as hex.
   */
  readonly hex?: boolean;
}

export function stringKey(text: string): MessageKey {
  return { bytes: utf8(text), text };
}

/**
 * Bytes that decode as valid UTF-8 are that string key; other bytes are a byte key. `hex`: the
 * bytes were given as hex (see `MessageKey.hex`).
 */
export function bytesKey(bytes: Uint8Array, hex = false): MessageKey {
  return hex ? { bytes, text: decodeUtf8(bytes), hex } : { bytes, text: decodeUtf8(bytes) };
}

/**
 * The text Pulsar's Java client routes a keyed message on (`Message.getKey()`): the string key,
 * or for a key set with `keyBytes(...)` its base64 text.
 */
export function pulsarRoutingKey(key: MessageKey): string {
  return key.text ?? base64(key.bytes);
}
