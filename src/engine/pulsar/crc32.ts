/**
 * CRC-32 as Guava's `Hashing.crc32()` computes it: the standard IEEE 802.3 / zlib CRC-32
 * (reflected polynomial 0xEDB88320, initial value and final xor 0xFFFFFFFF), which Guava takes from
 * `java.util.zip.CRC32`. The broker's `NamespaceBundleFactory` hashes topic names with it and
 * widens the 32 bits with `padToLong()`, i.e. unsigned; so this returns 0..0xffffffff.
 */

const TABLE = buildTable();

function buildTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** CRC-32 of `bytes[0..length)`, unsigned. */
export function crc32(bytes: Uint8Array, length: number = bytes.length): number {
  let c = 0xffffffff;
  for (let i = 0; i < length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
