// The JVM peer of `npm run bench`: what a Java client does with a String key, timed in the JVM that
// runs it. Kafka's StringSerializer is `key.getBytes(UTF_8)`, then the producer hashes the bytes
// with murmur2; Pulsar's Murmur3_32Hash.makeHash(String) encodes the same way; JavaStringHash is
// String.hashCode(); Guava's Hashing.crc32() (the broker's bundle hash) is java.util.zip.CRC32 over
// the UTF-8 bytes. So each timed pass is the JVM's encode + hash, as a producer pays it per record.
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

  static int resultOf(String hash, String key, int partitions) {
    switch (hash) {
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
