// The bench's plain JavaScript loops: each hash written the obvious way over bytes[from..to) (one
// load per byte, Math.imul for the multiplies), as a JavaScript program that already had the key's
// bytes would compute it. They show what JavaScript costs when no string is read, next to the C
// peer that gets the same bytes; they are checked against the engine on every key like every other
// contender.

export function plainMurmur2(b, from, to) {
  const m = 0x5bd1e995;
  const length = to - from;
  let h = 0x9747b28c ^ length;
  let i = from;
  for (; i + 4 <= to; i += 4) {
    let k = b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  switch (to - i) {
    case 3:
      h ^= b[i + 2] << 16;
    // falls through
    case 2:
      h ^= b[i + 1] << 8;
    // falls through
    case 1:
      h ^= b[i];
      h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

export function plainMurmur3(b, from, to) {
  let h = 0;
  let i = from;
  for (; i + 4 <= to; i += 4) {
    let k = b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (to - i) {
    case 3:
      k ^= b[i + 2] << 16;
    // falls through
    case 2:
      k ^= b[i + 1] << 8;
    // falls through
    case 1:
      k ^= b[i];
      k = Math.imul(k, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, 0x1b873593);
      h ^= k;
  }
  h ^= to - from;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function plainJavaStringHashCode(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

const CRC_TABLE = new Int32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[n] = c;
}

/** CRC-32 a byte at a time from one 256-entry table, unsigned. */
export function plainCrc32(b, from, to) {
  let c = -1;
  for (let i = from; i < to; i++) c = CRC_TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
