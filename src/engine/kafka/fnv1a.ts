/**
 * FNV-1a 32 (offset basis 0x811c9dc5, prime 0x01000193) over the key bytes, as Go's `hash/fnv`
 * `New32a` (Sarama, kafka-go) and librdkafka's `rd_fnv1a` compute it. Returned as a signed
 * 32-bit int: the clients that use it differ only in what they do with the sign.
 */
export function fnv1a(bytes: Uint8Array, length: number = bytes.length): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h;
}
