/**
 * Kafka's `org.apache.kafka.common.Uuid`, as topic ids are printed (`kafka-topics.sh --describe`:
 * `TopicId: GgSK5_X1Pp6B_v5u4SBqxg`): 16 bytes in URL-safe base64 without padding. The KIP-848
 * assignors iterate topic ids in `HashSet<Uuid>` order and sort them with `Uuid.compareTo`, so
 * both are reproduced here.
 */
import type { KeyType } from './javaHashMap';

export interface Uuid {
  /** The 64-bit halves as four signed 32-bit words: most significant high, low; least significant high, low. */
  readonly msbHi: number;
  readonly msbLo: number;
  readonly lsbHi: number;
  readonly lsbLo: number;
  /** The canonical text (as `Uuid.toString()`). */
  readonly text: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * `Uuid.fromString`, with its checks: at most 24 characters, URL-safe base64 (padding optional),
 * decoding to exactly 16 bytes. Like Java's decoder it ignores the unused low bits of the last
 * character, so the canonical text (`text`) may differ from the input. Returns a reason on failure.
 */
export function parseUuid(s: string): Uuid | string {
  if (s.length > 24) return `${JSON.stringify(s)} is too long to be a base64 UUID (at most 24 characters)`;
  const body = s.replace(/=+$/, '');
  if (s.length - body.length > 2) return `${JSON.stringify(s)} has too much padding`;
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of body) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return `${JSON.stringify(s)} is not URL-safe base64 (character ${JSON.stringify(ch)})`;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  if (body.length % 4 === 1) return `${JSON.stringify(s)} is not valid base64 (a final unit of one character)`;
  if (bytes.length !== 16) return `${JSON.stringify(s)} decodes to ${bytes.length} bytes; a UUID has 16 (22 base64 characters)`;
  return uuidFromBytes(bytes);
}

function word(b: number[], o: number): number {
  return ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) | 0;
}

export function uuidFromBytes(b: ArrayLike<number>): Uuid {
  const arr = Array.from(b);
  let text = '';
  for (let i = 0; i < 16; i += 3) {
    const n = (arr[i] << 16) | ((arr[i + 1] ?? 0) << 8) | (arr[i + 2] ?? 0);
    text += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    if (i + 1 < 16) text += ALPHABET[(n >> 6) & 63];
    if (i + 2 < 16) text += ALPHABET[n & 63];
  }
  return { msbHi: word(arr, 0), msbLo: word(arr, 4), lsbHi: word(arr, 8), lsbLo: word(arr, 12), text };
}

/** `Uuid.hashCode()`: the two halves XORed, then the high and low words of that XORed. */
export function uuidHashCode(u: Uuid): number {
  return (u.msbHi ^ u.lsbHi ^ u.msbLo ^ u.lsbLo) | 0;
}

/** `Uuid.compareTo`: the most significant half, then the least, each as a signed 64-bit number. */
export function compareUuid(a: Uuid, b: Uuid): number {
  return compareLong(a.msbHi, a.msbLo, b.msbHi, b.msbLo) || compareLong(a.lsbHi, a.lsbLo, b.lsbHi, b.lsbLo);
}

function compareLong(ah: number, al: number, bh: number, bl: number): number {
  if (ah !== bh) return ah < bh ? -1 : 1;
  const ua = al >>> 0;
  const ub = bl >>> 0;
  return ua === ub ? 0 : ua < ub ? -1 : 1;
}

export const UUID: KeyType<Uuid> = {
  hashCode: uuidHashCode,
  id: (u) => u.text,
  compare: compareUuid,
};
