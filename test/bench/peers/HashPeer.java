// The JVM peer of `npm run bench`: what a Java client does with a String key, timed in the JVM that
// runs it. Kafka's StringSerializer is `key.getBytes(UTF_8)`, then the producer hashes the bytes
// with murmur2; Pulsar's Murmur3_32Hash.makeHash(String) encodes the same way; JavaStringHash is
// String.hashCode(); Guava's Hashing.crc32() (the broker's bundle hash) is java.util.zip.CRC32 over
// the UTF-8 bytes; the C++ client's hashes (JavaStringHash-cpp, Boost) and the Go and kafkajs 1.x
// partitioners' hashes run over getBytes(UTF_8) here too, as the same functions in Java. So each timed pass is the JVM's encode + hash, as a producer pays it per record.
// The hash functions are this file's own code, written from the algorithms' descriptions.
//
// Same protocol as hashpeer.c (test/bench/peers.mjs drives both): `java HashPeer.java KEYFILE`, then
//   check HASH PARTITIONS OUTFILE | time HASH PARTITIONS | quit
// The key file holds UTF-8 bytes; each key is decoded to a String once at load time.
import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

public final class HashPeer {
  static String[] keys;

  /** Kafka's Utils.murmur2. */
  static int murmur2(byte[] data) {
    int length = data.length;
    int m = 0x5bd1e995;
    int h = 0x9747b28c ^ length;
    int blocks = length >> 2;
    for (int b = 0; b < blocks; b++) {
      int i = b << 2;
      int k = (data[i] & 0xff) | ((data[i + 1] & 0xff) << 8) | ((data[i + 2] & 0xff) << 16) | ((data[i + 3] & 0xff) << 24);
      k *= m;
      k ^= k >>> 24;
      k *= m;
      h *= m;
      h ^= k;
    }
    int i = blocks << 2;
    switch (length & 3) {
      case 3: h ^= (data[i + 2] & 0xff) << 16;
      case 2: h ^= (data[i + 1] & 0xff) << 8;
      case 1: h ^= data[i] & 0xff; h *= m;
    }
    h ^= h >>> 13;
    h *= m;
    h ^= h >>> 15;
    return h;
  }

  /** MurmurHash3 x86_32, seed 0, masked as Pulsar's Murmur3_32Hash.makeHash. */
  static int murmur3Masked(byte[] data) {
    int length = data.length;
    int h = 0;
    int blocks = length >> 2;
    for (int b = 0; b < blocks; b++) {
      int i = b << 2;
      int k = (data[i] & 0xff) | ((data[i + 1] & 0xff) << 8) | ((data[i + 2] & 0xff) << 16) | ((data[i + 3] & 0xff) << 24);
      k *= 0xcc9e2d51;
      k = Integer.rotateLeft(k, 15);
      k *= 0x1b873593;
      h ^= k;
      h = Integer.rotateLeft(h, 13);
      h = h * 5 + 0xe6546b64;
    }
    int i = blocks << 2;
    int k = 0;
    switch (length & 3) {
      case 3: k ^= (data[i + 2] & 0xff) << 16;
      case 2: k ^= (data[i + 1] & 0xff) << 8;
      case 1: k ^= data[i] & 0xff; k *= 0xcc9e2d51; k = Integer.rotateLeft(k, 15); k *= 0x1b873593; h ^= k;
    }
    h ^= length;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h & Integer.MAX_VALUE;
  }

  static final CRC32 crc = new CRC32();

  static int crc32(byte[] data) {
    crc.reset();
    crc.update(data, 0, data.length);
    return (int) crc.getValue();
  }

  /** FNV-1a 32 (Sarama's default partitioner's hash). */
  static int fnv1a(byte[] d) {
    int h = 0x811c9dc5;
    for (byte b : d) h = (h ^ (b & 0xff)) * 0x01000193;
    return h;
  }

  /** Sarama's partition: |int32(h)| % n, where |Integer.MIN_VALUE| is 2^31. */
  static int saramaPartition(int h, int n) {
    return (int) (Math.abs((long) h) % n);
  }

  /** A JavaScript number's ToInt32, for an integral double below 2^63 in magnitude. */
  static int toInt32(double d) {
    return (int) (long) d;
  }

  /** kafkajs 1.x's murmur2 in JavaScript numbers: double products, a partial last block mixed as a full one. */
  static int kafkajsLegacy(byte[] d) {
    int len = d.length;
    double m = 0x5bd1e995;
    int h = 0x9747b28c ^ len;
    int blocks = (len + 3) / 4;
    for (int b = 0; b < blocks; b++) {
      int i = b * 4;
      int b0 = i < len ? d[i] & 0xff : 0, b1 = i + 1 < len ? d[i + 1] & 0xff : 0, b2 = i + 2 < len ? d[i + 2] & 0xff : 0, b3 = i + 3 < len ? d[i + 3] & 0xff : 0;
      double k = (double) b0 + (b1 << 8) + (b2 << 16) + (b3 << 24);
      k *= m;
      int ki = toInt32(k) ^ (toInt32(k) >>> 24);
      h = toInt32((double) h * m) ^ toInt32((double) ki * m);
    }
    int tail = len & ~3;
    double hd = h;
    switch (len & 3) {
      case 3: h ^= (d[tail + 2] & 0xff) << 16;
      case 2: h ^= (d[tail + 1] & 0xff) << 8;
      case 1: h ^= d[tail] & 0xff; hd = (double) h * m;
    }
    h = toInt32(hd) ^ (toInt32(hd) >>> 13);
    hd = (double) h * m;
    return toInt32(hd) ^ (toInt32(hd) >>> 15);
  }

  /** The Pulsar C++ client's JavaStringHash: 31 * h + (signed) byte, masked. */
  static int javaStringHashCpp(byte[] d) {
    int h = 0;
    for (byte b : d) h = 31 * h + b;
    return h & Integer.MAX_VALUE;
  }

  /** boost::hash<std::string> up to 1.80: hash_combine_impl<64> per signed char. */
  static long boost180(byte[] d) {
    long m = 0xc6a4a7935bd1e995L, h = 0;
    for (byte b : d) {
      long k = b;
      k *= m;
      k ^= k >>> 47;
      k *= m;
      h ^= k;
      h *= m;
      h += 0xe6546b64L;
    }
    return h;
  }

  static long hashMix(long x) {
    long m = 0xe9846af9b1a615dL;
    x ^= x >>> 32;
    x *= m;
    x ^= x >>> 32;
    x *= m;
    x ^= x >>> 28;
    return x;
  }

  static int le32(byte[] d, int i) {
    return (d[i] & 0xff) | (d[i + 1] & 0xff) << 8 | (d[i + 2] & 0xff) << 16 | (d[i + 3] & 0xff) << 24;
  }

  /** Boost 1.81: little-endian 32-bit words through hash_mix, the rest under a 0x01 marker. */
  static long boost181(byte[] d) {
    long seed = 0;
    int i = 0, len = d.length;
    for (; len - i >= 4; i += 4) seed = hashMix(seed + 0x9e3779b9L + (le32(d, i) & 0xffffffffL));
    int rest = len - i;
    long w = 1L << (8 * rest);
    if (rest > 2) w |= (d[i + 2] & 0xff) << 16;
    if (rest > 1) w |= (d[i + 1] & 0xff) << 8;
    if (rest > 0) w |= d[i] & 0xff;
    return hashMix(seed + 0x9e3779b9L + w);
  }

  static long mulx(long x, long y) {
    long hi = Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
    return (x * y) ^ hi;
  }

  /** Boost 1.82+ (mulxp1_hash): 8-byte words through mulx, the last 1..8 bytes as one word. */
  static long boost182(byte[] p) {
    long q = 0x9e3779b97f4a7c15L, k = 0xdf442d22ce4859b9L;
    int n = p.length, i = 0;
    long w = mulx(q, k), h = w ^ n, v;
    for (; n >= 8; i += 8, n -= 8) {
      v = (le32(p, i) & 0xffffffffL) | (long) le32(p, i + 4) << 32;
      w += q;
      h ^= mulx(v + w, k);
    }
    v = 0;
    if (n >= 4) {
      v = (le32(p, i + n - 4) & 0xffffffffL) << ((n - 4) * 8) | (le32(p, i) & 0xffffffffL);
    } else if (n >= 1) {
      int x1 = (n - 1) & 2, x2 = n >> 1;
      v = (long) (p[i + x1] & 0xff) << (x1 * 8) | (long) (p[i + x2] & 0xff) << (x2 * 8) | (p[i] & 0xff);
    }
    w += q;
    h ^= mulx(v + w, k);
    return mulx(h + w, k);
  }

  static int resultOf(String hash, String key, int partitions) {
    switch (hash) {
      case "fnv1a": return saramaPartition(fnv1a(key.getBytes(StandardCharsets.UTF_8)), partitions);
      case "kafkajsLegacy": return (kafkajsLegacy(key.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitions;
      case "javaStringHashCpp": return javaStringHashCpp(key.getBytes(StandardCharsets.UTF_8)) % partitions;
      case "boost180": return (int) (boost180(key.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitions;
      case "boost181": return (int) (boost181(key.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitions;
      case "boost182": return (int) (boost182(key.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitions;
      case "murmur2": return (murmur2(key.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitions;
      case "murmur3": return murmur3Masked(key.getBytes(StandardCharsets.UTF_8));
      case "javaStringHash": return key.hashCode() & Integer.MAX_VALUE;
      case "crc32": return crc32(key.getBytes(StandardCharsets.UTF_8));
      default: throw new IllegalArgumentException(hash);
    }
  }

  // One method per hash, so that each loop is compiled for its hash alone.
  static long passMurmur2(String[] ks, int partitions) {
    long acc = 0;
    for (String k : ks) acc += (murmur2(k.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitions;
    return acc;
  }

  static long passMurmur3(String[] ks) {
    long acc = 0;
    for (String k : ks) acc += murmur3Masked(k.getBytes(StandardCharsets.UTF_8));
    return acc;
  }

  static long passJavaStringHash(String[] ks) {
    long acc = 0;
    for (String k : ks) acc += k.hashCode() & Integer.MAX_VALUE;
    return acc;
  }

  static long passCrc32(String[] ks) {
    long acc = 0;
    for (String k : ks) acc += crc32(k.getBytes(StandardCharsets.UTF_8)) & 0xffffffffL;
    return acc;
  }

  static long passFnv1a(String[] ks, int n) {
    long acc = 0;
    for (String k : ks) acc += saramaPartition(fnv1a(k.getBytes(StandardCharsets.UTF_8)), n);
    return acc;
  }

  static long passKafkajsLegacy(String[] ks, int n) {
    long acc = 0;
    for (String k : ks) acc += (kafkajsLegacy(k.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % n;
    return acc;
  }

  static long passJavaStringHashCpp(String[] ks, int n) {
    long acc = 0;
    for (String k : ks) acc += javaStringHashCpp(k.getBytes(StandardCharsets.UTF_8)) % n;
    return acc;
  }

  static long passBoost180(String[] ks, int n) {
    long acc = 0;
    for (String k : ks) acc += (int) (boost180(k.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % n;
    return acc;
  }

  static long passBoost181(String[] ks, int n) {
    long acc = 0;
    for (String k : ks) acc += (int) (boost181(k.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % n;
    return acc;
  }

  static long passBoost182(String[] ks, int n) {
    long acc = 0;
    for (String k : ks) acc += (int) (boost182(k.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % n;
    return acc;
  }

  public static void main(String[] args) throws IOException {
    byte[] file = java.nio.file.Files.readAllBytes(Path.of(args[0]));
    ByteBuffer in = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    int count = in.getInt();
    keys = new String[count];
    for (int i = 0; i < count; i++) {
      int len = in.getInt();
      keys[i] = new String(file, in.position(), len, StandardCharsets.UTF_8);
      in.position(in.position() + len);
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    out.println("ready " + count);
    for (String line; (line = stdin.readLine()) != null; ) {
      String[] w = line.trim().split(" ");
      try {
        if (w[0].equals("check") && w.length == 4) {
          int partitions = Integer.parseInt(w[2]);
          ByteBuffer res = ByteBuffer.allocate(4 * count).order(ByteOrder.LITTLE_ENDIAN);
          for (String k : keys) res.putInt(resultOf(w[1], k, partitions));
          try (FileChannel ch = FileChannel.open(Path.of(w[3]), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            res.flip();
            while (res.hasRemaining()) ch.write(res);
          }
          out.println("ok");
        } else if (w[0].equals("time") && w.length == 3) {
          int partitions = Integer.parseInt(w[2]);
          String[] ks = keys;
          if (w[1].equals("javaStringHash")) {
            // String caches its hashCode: hash fresh copies (as a consumer of freshly decoded keys would).
            ks = new String[count];
            for (int i = 0; i < count; i++) ks[i] = new String(keys[i].toCharArray());
          } else {
            resultOf(w[1], "", 1); // an unknown name fails before the clock starts
          }
          long w0 = System.nanoTime(), c0 = threads.getCurrentThreadCpuTime();
          long acc;
          switch (w[1]) {
            case "murmur2": acc = passMurmur2(ks, partitions); break;
            case "murmur3": acc = passMurmur3(ks); break;
            case "javaStringHash": acc = passJavaStringHash(ks); break;
            case "fnv1a": acc = passFnv1a(ks, partitions); break;
            case "kafkajsLegacy": acc = passKafkajsLegacy(ks, partitions); break;
            case "javaStringHashCpp": acc = passJavaStringHashCpp(ks, partitions); break;
            case "boost180": acc = passBoost180(ks, partitions); break;
            case "boost181": acc = passBoost181(ks, partitions); break;
            case "boost182": acc = passBoost182(ks, partitions); break;
            default: acc = passCrc32(ks); break;
          }
          long c1 = threads.getCurrentThreadCpuTime(), w1 = System.nanoTime();
          out.println((w1 - w0) + " " + (c1 - c0) + " " + acc);
        } else if (w[0].equals("quit")) {
          break;
        } else {
          out.println("error bad request");
        }
      } catch (IllegalArgumentException e) {
        out.println("error unknown hash " + e.getMessage());
      }
    }
  }
}
