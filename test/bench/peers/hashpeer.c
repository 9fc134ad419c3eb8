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
 * HASH is one of the names in HASHES below; each is the engine's algorithm (the same steps, in C).
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

#define KEY(i) (bytes + offsets[i]), (uint32_t)(offsets[(i) + 1] - offsets[i])

static const char *HASHES[] = {"murmur2", "murmur3", "javaStringHash", "crc32"};
#define NHASHES (sizeof HASHES / sizeof HASHES[0])

/* One result per key: what is checked is what is timed. */
static inline __attribute__((always_inline)) int32_t resultOf(int hash, uint32_t i, int32_t partitions) {
  switch (hash) {
    case 0: return (murmur2(KEY(i)) & 0x7fffffff) % partitions;
    case 1: return (int32_t)(murmur3(KEY(i)) & 0x7fffffff);
    case 2: return javaStringHashCode(units + unitOffsets[i], unitOffsets[i + 1] - unitOffsets[i]) & 0x7fffffff;
    case 3: return (int32_t)crc32(KEY(i));
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
