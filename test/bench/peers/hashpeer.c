/*
 * The C peer of `npm run bench`: the same hashes as the engine, over the keys' bytes (bytes in: no
 * string decoding or encoding is timed), compiled with gcc -O3 at bench time. The bench writes a key
 * set to a file (test/bench/peers.mjs: u32 count, then per key u32 length and its UTF-8 bytes) and
 * drives this program over stdin/stdout, one line per request:
 *
 *   check HASH PARTITIONS OUTFILE  -> writes each key's result (int32, little-endian) to OUTFILE; "ok"
 *   time HASH PARTITIONS           -> one timed pass over every key: "WALL_NS CPU_NS CHECKSUM"
 *   quit
 *
 * HASH is one of the names in HASHES below; each is the engine's algorithm (the same steps, in C),
 * and for the client partitioners the partition the client derives from it (Sarama: |h| % n; the
 * Pulsar C++ client: masked hash % n; kafkajs 1.x: masked hash % n).
 * The partition count is read at run time, so the compiler cannot turn `% partitions` into a multiply. JavaStringHash is Java's String.hashCode,
 * over UTF-16 code units: those are decoded from the bytes once at load time (not timed), since a
 * Java String holds them already.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint32_t count;
static uint8_t *bytes;     /* every key's bytes, back to back */
static uint64_t *offsets;  /* key i is bytes[offsets[i] .. offsets[i + 1]) */
static uint16_t *units;    /* every key's UTF-16 code units, back to back */
static uint64_t *unitOffsets;

/* Kafka's Utils.murmur2. */
static inline int32_t murmur2(const uint8_t *d, uint32_t len) {
  const uint32_t m = 0x5bd1e995;
  uint32_t h = 0x9747b28cu ^ len;
  uint32_t i = 0;
  for (; i + 4 <= len; i += 4) {
    uint32_t k;
    memcpy(&k, d + i, 4); /* little-endian on x86 and arm64 */
    k *= m;
    k ^= k >> 24;
    k *= m;
    h *= m;
    h ^= k;
  }
  switch (len & 3) {
    case 3: h ^= (uint32_t)d[i + 2] << 16; /* fall through */
    case 2: h ^= (uint32_t)d[i + 1] << 8;  /* fall through */
    case 1: h ^= d[i]; h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return (int32_t)h;
}

static inline uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

/* MurmurHash3 x86_32, seed 0 (Pulsar's Murmur3_32Hash before its mask). */
static inline uint32_t murmur3(const uint8_t *d, uint32_t len) {
  const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
  uint32_t h = 0, i = 0, k;
  for (; i + 4 <= len; i += 4) {
    memcpy(&k, d + i, 4);
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  k = 0;
  switch (len & 3) {
    case 3: k ^= (uint32_t)d[i + 2] << 16; /* fall through */
    case 2: k ^= (uint32_t)d[i + 1] << 8;  /* fall through */
    case 1: k ^= d[i]; k *= c1; k = rotl32(k, 15); k *= c2; h ^= k;
  }
  h ^= len;
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

/* String.hashCode over UTF-16 code units, four units a step as the engine does it:
   h * 31^4 + c0 * 31^3 + c1 * 31^2 + c2 * 31 + c3. */
static inline int32_t javaStringHashCode(const uint16_t *u, uint64_t n) {
  uint32_t h = 0;
  uint64_t i = 0;
  for (; i + 4 <= n; i += 4) h = h * 923521u + u[i] * 29791u + u[i + 1] * 961u + u[i + 2] * 31u + u[i + 3];
  for (; i < n; i++) h = 31 * h + u[i];
  return (int32_t)h;
}

/* CRC-32 (IEEE 802.3, reflected 0xEDB88320), 8 bytes a step from 8 tables as the engine does it
   ("slicing-by-8"; table k is the CRC of a byte followed by k zero bytes). */
static uint32_t crcTables[8][256];
static void crcInit(void) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    crcTables[0][n] = c;
  }
  for (int k = 1; k < 8; k++)
    for (uint32_t n = 0; n < 256; n++) crcTables[k][n] = (crcTables[k - 1][n] >> 8) ^ crcTables[0][crcTables[k - 1][n] & 0xff];
}
static inline uint32_t crc32(const uint8_t *d, uint32_t len) {
  uint32_t c = 0xffffffffu, i = 0, a, b;
  for (; i + 8 <= len; i += 8) {
    memcpy(&a, d + i, 4);
    memcpy(&b, d + i + 4, 4);
    c ^= a;
    c = crcTables[7][c & 0xff] ^ crcTables[6][(c >> 8) & 0xff] ^ crcTables[5][(c >> 16) & 0xff] ^ crcTables[4][c >> 24] ^
        crcTables[3][b & 0xff] ^ crcTables[2][(b >> 8) & 0xff] ^ crcTables[1][(b >> 16) & 0xff] ^ crcTables[0][b >> 24];
  }
  for (; i < len; i++) c = crcTables[0][(c ^ d[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

/* FNV-1a 32 (Sarama, kafka-go, librdkafka fnv1a), as a signed int. */
static inline int32_t fnv1a(const uint8_t *d, uint32_t len) {
  uint32_t h = 0x811c9dc5u;
  for (uint32_t i = 0; i < len; i++) h = (h ^ d[i]) * 0x01000193u;
  return (int32_t)h;
}

/* Sarama's default partition: |int32(h)| % n, where |INT32_MIN| is 2^31. */
static inline int32_t saramaPartition(int32_t h, int32_t n) {
  uint32_t a = h < 0 ? (uint32_t)0 - (uint32_t)h : (uint32_t)h;
  return (int32_t)(a % (uint32_t)n);
}

/* A JavaScript number's ToInt32: an integral double below 2^63 in magnitude, modulo 2^32. */
static inline int32_t toInt32(double d) { return (int32_t)(uint32_t)(int64_t)d; }

/* kafkajs 1.x's murmur2, in JavaScript numbers: products are doubles (rounded past 2^53), and a
   partial last block is mixed as a full block of zeros past the end, then again as the tail. */
static inline int32_t kafkajsLegacy(const uint8_t *d, uint32_t len) {
  const double m = 0x5bd1e995;
  int32_t h = (int32_t)(0x9747b28cu ^ len);
  uint32_t blocks = (len + 3) / 4;
  for (uint32_t b = 0; b < blocks; b++) {
    uint32_t i = b * 4;
    int32_t b0 = i < len ? d[i] : 0, b1 = i + 1 < len ? d[i + 1] : 0, b2 = i + 2 < len ? d[i + 2] : 0, b3 = i + 3 < len ? d[i + 3] : 0;
    double k = (double)b0 + (double)(b1 << 8) + (double)(b2 << 16) + (double)(int32_t)((uint32_t)b3 << 24);
    k *= m;
    int32_t ki = toInt32(k) ^ (int32_t)((uint32_t)toInt32(k) >> 24);
    double k2 = (double)ki * m;
    double hd = (double)h * m;
    h = toInt32(hd) ^ toInt32(k2);
  }
  uint32_t tail = len & ~3u;
  double hd = h;
  switch (len & 3) {
    case 3: h ^= d[tail + 2] << 16; /* fall through */
    case 2: h ^= d[tail + 1] << 8;  /* fall through */
    case 1: h ^= d[tail]; hd = (double)h * m; break;
    default: hd = h;
  }
  h = toInt32(hd) ^ (int32_t)((uint32_t)toInt32(hd) >> 13);
  hd = (double)h * m;
  return toInt32(hd) ^ (int32_t)((uint32_t)toInt32(hd) >> 15);
}

/* The Pulsar C++ client's JavaStringHash: 31 * h + (signed char) byte in uint32, masked; a byte a
   step, as the client writes it (the engine folds four bytes a step). */
static inline int32_t javaStringHashCpp(const uint8_t *d, uint32_t len) {
  uint32_t h = 0;
  for (uint32_t i = 0; i < len; i++) h = 31 * h + (uint32_t)(int32_t)(int8_t)d[i];
  return (int32_t)(h & 0x7fffffff);
}

/* boost::hash<std::string> up to Boost 1.80 (64-bit size_t): hash_combine_impl<64> per signed char. */
static inline uint64_t boost180(const uint8_t *d, uint32_t len) {
  const uint64_t m = 0xc6a4a7935bd1e995ull;
  uint64_t h = 0;
  for (uint32_t i = 0; i < len; i++) {
    uint64_t k = (uint64_t)(int64_t)(int8_t)d[i];
    k *= m;
    k ^= k >> 47;
    k *= m;
    h ^= k;
    h *= m;
    h += 0xe6546b64;
  }
  return h;
}

static inline uint64_t hashMix(uint64_t x) {
  const uint64_t m = 0xe9846af9b1a615dull;
  x ^= x >> 32;
  x *= m;
  x ^= x >> 32;
  x *= m;
  x ^= x >> 28;
  return x;
}

/* Boost 1.81: little-endian 32-bit words, seed = hash_mix(seed + 0x9e3779b9 + w), then the last
   0..3 bytes under a 0x01 marker byte. */
static inline uint64_t boost181(const uint8_t *d, uint32_t len) {
  uint64_t seed = 0;
  uint32_t i = 0, w;
  for (; len - i >= 4; i += 4) {
    memcpy(&w, d + i, 4);
    seed = hashMix(seed + 0x9e3779b9u + w);
  }
  uint32_t rest = len - i;
  w = 1u << (8 * rest);
  if (rest > 2) w |= (uint32_t)d[i + 2] << 16;
  if (rest > 1) w |= (uint32_t)d[i + 1] << 8;
  if (rest > 0) w |= d[i];
  return hashMix(seed + 0x9e3779b9u + w);
}

static inline uint64_t mulx(uint64_t x, uint64_t y) {
  __uint128_t r = (__uint128_t)x * y;
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* Boost 1.82+ (mulxp1_hash): 8-byte words folded with mulx, the last 1..8 bytes as one word. */
static inline uint64_t boost182(const uint8_t *p, uint32_t n) {
  const uint64_t q = 0x9e3779b97f4a7c15ull, k = 0xdf442d22ce4859b9ull;
  uint64_t w = mulx(q, k), h = w ^ n, v;
  while (n >= 8) {
    memcpy(&v, p, 8);
    w += q;
    h ^= mulx(v + w, k);
    p += 8;
    n -= 8;
  }
  uint32_t a, b;
  v = 0;
  if (n >= 4) {
    memcpy(&a, p + n - 4, 4);
    memcpy(&b, p, 4);
    v = (uint64_t)a << ((n - 4) * 8) | b;
  } else if (n >= 1) {
    uint32_t x1 = (n - 1) & 2, x2 = n >> 1;
    v = (uint64_t)p[x1] << (x1 * 8) | (uint64_t)p[x2] << (x2 * 8) | p[0];
  }
  w += q;
  h ^= mulx(v + w, k);
  return mulx(h + w, k);
}

#define KEY(i) (bytes + offsets[i]), (uint32_t)(offsets[(i) + 1] - offsets[i])

static const char *HASHES[] = {"murmur2", "murmur3", "javaStringHash", "crc32", "fnv1a", "kafkajsLegacy", "javaStringHashCpp", "boost180", "boost181", "boost182"};
#define NHASHES (sizeof HASHES / sizeof HASHES[0])

/* One result per key: what is checked is what is timed. */
static inline __attribute__((always_inline)) int32_t resultOf(int hash, uint32_t i, int32_t partitions) {
  switch (hash) {
    case 0: return (murmur2(KEY(i)) & 0x7fffffff) % partitions;
    case 1: return (int32_t)(murmur3(KEY(i)) & 0x7fffffff);
    case 2: return javaStringHashCode(units + unitOffsets[i], unitOffsets[i + 1] - unitOffsets[i]) & 0x7fffffff;
    case 3: return (int32_t)crc32(KEY(i));
    case 4: return saramaPartition(fnv1a(KEY(i)), partitions);
    case 5: return (kafkajsLegacy(KEY(i)) & 0x7fffffff) % partitions;
    case 6: return javaStringHashCpp(KEY(i)) % partitions;
    case 7: return (int32_t)(boost180(KEY(i)) & 0x7fffffff) % partitions;
    case 8: return (int32_t)(boost181(KEY(i)) & 0x7fffffff) % partitions;
    case 9: return (int32_t)(boost182(KEY(i)) & 0x7fffffff) % partitions;
  }
  return 0;
}

/* One loop per hash (a constant `hash` folds the switch away), as tight as a program that had only that hash. */
#define PASS(h) for (uint32_t i = 0; i < count; i++) acc += (uint32_t)resultOf(h, i, partitions)
static int64_t timedPass(int hash, int32_t partitions) {
  int64_t acc = 0;
  switch (hash) {
    case 0: PASS(0); break;
    case 1: PASS(1); break;
    case 2: PASS(2); break;
    case 3: PASS(3); break;
    case 4: PASS(4); break;
    case 5: PASS(5); break;
    case 6: PASS(6); break;
    case 7: PASS(7); break;
    case 8: PASS(8); break;
    case 9: PASS(9); break;
  }
  return acc;
}

static double nowNs(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void fail(const char *what) {
  fprintf(stderr, "hashpeer: %s\n", what);
  exit(1);
}

static uint32_t readU32(FILE *f) {
  uint8_t b[4];
  if (fread(b, 1, 4, f) != 4) fail("truncated key file");
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* UTF-8 to UTF-16 code units (the key file holds well-formed UTF-8); returns the unit count. */
static uint64_t decodeUtf8(const uint8_t *d, uint32_t len, uint16_t *out) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < len;) {
    uint32_t c = d[i];
    if (c < 0x80) i += 1;
    else if (c < 0xe0) c = (c & 0x1f) << 6 | (d[i + 1] & 0x3f), i += 2;
    else if (c < 0xf0) c = (c & 0x0f) << 12 | (d[i + 1] & 0x3f) << 6 | (d[i + 2] & 0x3f), i += 3;
    else c = (c & 0x07) << 18 | (d[i + 1] & 0x3f) << 12 | (d[i + 2] & 0x3f) << 6 | (d[i + 3] & 0x3f), i += 4;
    if (c >= 0x10000) {
      out[n++] = (uint16_t)(0xd800 + ((c - 0x10000) >> 10));
      out[n++] = (uint16_t)(0xdc00 + ((c - 0x10000) & 0x3ff));
    } else {
      out[n++] = (uint16_t)c;
    }
  }
  return n;
}

static void load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail("cannot open the key file");
  count = readU32(f);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 4, SEEK_SET);
  bytes = malloc((size_t)size);
  offsets = malloc(((size_t)count + 1) * sizeof *offsets);
  units = malloc((size_t)size * sizeof *units);
  unitOffsets = malloc(((size_t)count + 1) * sizeof *unitOffsets);
  if (!bytes || !offsets || !units || !unitOffsets) fail("out of memory");
  uint64_t at = 0, unitAt = 0;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t len = readU32(f);
    offsets[i] = at;
    if (len > 0 && fread(bytes + at, 1, len, f) != len) fail("truncated key file");
    unitOffsets[i] = unitAt;
    unitAt += decodeUtf8(bytes + at, len, units + unitAt);
    at += len;
  }
  offsets[count] = at;
  unitOffsets[count] = unitAt;
  fclose(f);
}

static int hashIndex(const char *name) {
  for (unsigned h = 0; h < NHASHES; h++)
    if (strcmp(name, HASHES[h]) == 0) return (int)h;
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 2) fail("usage: hashpeer KEYFILE");
  crcInit();
  load(argv[1]);
  printf("ready %u\n", count);
  fflush(stdout);
  char line[4096], name[64], out[4000];
  int partitions;
  while (fgets(line, sizeof line, stdin)) {
    if (sscanf(line, "check %63s %d %3999s", name, &partitions, out) == 3) {
      int h = hashIndex(name);
      if (h < 0 || partitions < 1) { printf("error unknown hash %s\n", name); fflush(stdout); continue; }
      FILE *f = fopen(out, "wb");
      if (!f) fail("cannot write the results file");
      for (uint32_t i = 0; i < count; i++) {
        uint32_t r = (uint32_t)resultOf(h, i, partitions);
        uint8_t b[4] = {(uint8_t)r, (uint8_t)(r >> 8), (uint8_t)(r >> 16), (uint8_t)(r >> 24)};
        fwrite(b, 1, 4, f);
      }
      fclose(f);
      printf("ok\n");
    } else if (sscanf(line, "time %63s %d", name, &partitions) == 2) {
      int h = hashIndex(name);
      if (h < 0 || partitions < 1) { printf("error unknown hash %s\n", name); fflush(stdout); continue; }
      double w0 = nowNs(CLOCK_MONOTONIC), c0 = nowNs(CLOCK_THREAD_CPUTIME_ID);
      int64_t acc = timedPass(h, partitions);
      double c1 = nowNs(CLOCK_THREAD_CPUTIME_ID), w1 = nowNs(CLOCK_MONOTONIC);
      printf("%.0f %.0f %lld\n", w1 - w0, c1 - c0, (long long)acc);
    } else if (strncmp(line, "quit", 4) == 0) {
      break;
    } else {
      printf("error bad request\n");
    }
    fflush(stdout);
  }
  return 0;
}
