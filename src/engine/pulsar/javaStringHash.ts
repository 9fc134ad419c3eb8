/**
 * Pulsar's `JavaStringHash`: `String.hashCode()` over the UTF-16 code units, masked to 31 bits.
 * JavaScript strings are UTF-16 too, so the code units are the same as Java's.
 */
export function javaStringHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

export function javaStringHash(s: string): number {
  return javaStringHashCode(s) & 0x7fffffff;
}
