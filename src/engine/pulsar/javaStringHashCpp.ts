/**
 * The Pulsar C++ client's `JavaStringHash`, a port of Java's `String.hashCode` that is not the same
 * function: `hash = 31 * hash + val[i]` in uint32 over the key's bytes (`std::string`, UTF-8 for
 * a text key), each byte read as `char`, which is signed on x86-64, so a byte >= 0x80 adds a
 * negative value; then `& INT32_MAX`. For ASCII keys it equals Java's; for other keys it does not
 * (Java hashes UTF-16 code units). On a platform with unsigned `char` (aarch64) it would differ again.
 */
export function javaStringHashCpp(bytes: Uint8Array, length: number = bytes.length): number {
  let h = 0;
  for (let i = 0; i < length; i++) h = (Math.imul(h, 31) + ((bytes[i] << 24) >> 24)) | 0;
  return h & 0x7fffffff;
}
