// The JavaScript contenders of `npm run bench`: the engine (dist/engine.js), the libraries a user
// would otherwise reach for, and a plain loop per hash over the keys' bytes encoded beforehand
// (bytes in, as the C peer gets them: what JavaScript costs when no string has to be read). Each is
// wrapped as a loop over a key array so that every contender gets its own monomorphic call site.
// `check(keys)` compares a contender with the engine on every key before it is timed and throws on
// the first disagreement.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { plainCrc32, plainJavaStringHashCode, plainMurmur2, plainMurmur3 } from './plainLoops.mjs';

export const PARTITIONS = 12;

export function loadContenders(root) {
  const require = createRequire(join(root, 'package.json'));
  const engine = require(join(root, 'dist/engine.js'));
  // kafkajs 2.x: its DefaultPartitioner is `createDefaultPartitioner(murmur2)` in
  // src/producer/partitioners/default; calling the factory gives the function the producer calls
  // per message, `({ topic, partitionMetadata, message }) => partition`.
  const kafkajsPartitioner = require('kafkajs/src/producer/partitioners/default')();
  const kafkajsMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2');
  const m2p = require('murmur2-partitioner');
  const mm3 = require('murmurhash3js-revisited');
  const partitionMetadata = Array.from({ length: PARTITIONS }, (_, i) => ({ partitionId: i, leader: 0 }));
  const encoder = new TextEncoder();
  // As a user imports them: plain functions (the CommonJS bundle exposes its exports as getters).
  const { kafkaPartition, pulsarMurmur3Hash, javaStringHash, stringKey } = engine;
  // An engine from before crc32OfString (to bench an older build) hashes a string's bytes.
  const crc32OfString = engine.crc32OfString ?? ((key) => engine.crc32(engine.utf8(key)));

  // The Pulsar topic the full-route contender routes on: 8 partitions (JavaStringHash producer
  // routing) and a 4.0 consistent-hashing Key_Shared subscription of 10 consumers.
  const { settings } = engine.parseSettings({
    'keyRouting.topics': [
      {
        name: 'persistent://public/default/bench',
        system: 'pulsar',
        partitions: 8,
        brokerVersion: '4.0',
        subscription: { consumers: Array.from({ length: 10 }, (_, i) => `consumer-${i}`) },
      },
    ],
  });
  const pulsarTopic = new engine.Topology(settings, []).topics[0];

  const kafka = (name, run, one) => ({ name, family: 'kafka', run, one });
  const murmur3 = (name, run, one) => ({ name, family: 'murmur3', run, one });
  // A plain loop is timed on the set's bytes (`encoded`: one buffer and an offset per key, as the
  // C peer holds them) and checked on each key's freshly encoded bytes.
  // Each its own loop (see `own`): the four plain hashes share this literal.
  const plain = (family, hash) => ({
    name: 'plain Math.imul loop (bytes in)',
    family,
    plain: true,
    run: own(
      ['hash'],
      'return (keys, { bytes, offsets }) => { let acc = 0; for (let i = 0; i < keys.length; i++) acc += hash(bytes, offsets[i], offsets[i + 1]); return acc; };',
      hash,
    ),
    one: (key) => {
      const b = encoder.encode(key);
      return hash(b, 0, b.length);
    },
  });

  return {
    engine,
    contenders: [
      kafka(
        'engine kafkaPartition(string)',
        (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += kafkaPartition(keys[i], PARTITIONS);
          return acc;
        },
        (key) => kafkaPartition(key, PARTITIONS),
      ),
      kafka(
        'kafkajs DefaultPartitioner',
        (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += kafkajsPartitioner({ topic: 'bench', partitionMetadata, message: { key: keys[i] } });
          return acc;
        },
        (key) => kafkajsPartitioner({ topic: 'bench', partitionMetadata, message: { key } }),
      ),
      kafka(
        'kafkajs murmur2 only',
        (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += (kafkajsMurmur2(keys[i]) & 0x7fffffff) % PARTITIONS;
          return acc;
        },
        (key) => (kafkajsMurmur2(key) & 0x7fffffff) % PARTITIONS,
      ),
      kafka(
        'murmur2-partitioner',
        (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += m2p.partition(keys[i], PARTITIONS);
          return acc;
        },
        (key) => m2p.partition(key, PARTITIONS),
      ),
      plain('kafka', (b, from, to) => (plainMurmur2(b, from, to) & 0x7fffffff) % PARTITIONS),
      murmur3(
        'engine pulsarMurmur3Hash(string)',
        (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += pulsarMurmur3Hash(keys[i]);
          return acc;
        },
        (key) => pulsarMurmur3Hash(key),
      ),
      murmur3(
        'murmurhash3js-revisited (naive)',
        (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += mm3.x86.hash32(encoder.encode(keys[i])) & 0x7fffffff;
          return acc;
        },
        (key) => mm3.x86.hash32(encoder.encode(key)) & 0x7fffffff,
      ),
      plain('murmur3', (b, from, to) => plainMurmur3(b, from, to) & 0x7fffffff),
      {
        name: 'engine javaStringHash(string)',
        family: 'javaStringHash',
        run: (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += javaStringHash(keys[i]);
          return acc;
        },
        one: (key) => javaStringHash(key),
      },
      // String.hashCode is over UTF-16 code units: its plain loop reads them with charCodeAt.
      {
        name: 'plain Math.imul loop (code units)',
        family: 'javaStringHash',
        plain: true,
        run: (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += plainJavaStringHashCode(keys[i]) & 0x7fffffff;
          return acc;
        },
        one: (key) => plainJavaStringHashCode(key) & 0x7fffffff,
      },
      {
        name: 'engine crc32OfString(string)',
        family: 'crc32',
        run: (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += crc32OfString(keys[i]);
          return acc;
        },
        one: (key) => crc32OfString(key),
      },
      { ...plain('crc32', plainCrc32), name: 'plain table loop (bytes in)' },
      // The other clients' hashes, string key -> partition through the engine's string entry points.
      ...CLIENT_FAMILIES.map(({ family, name }) => {
        const one = clientPartitionOf(engine, family);
        return { name, family, run: ownLoop(one), one };
      }),
      // The floor under every string hash: reading the key's characters, hashing nothing. A
      // JavaScript hash reads a key through one of these two (code units, or the bytes TextEncoder
      // writes); a goal's time below the faster of them is out of reach for any such hash.
      {
        name: 'read every code unit (charCodeAt, 4 at a time)',
        family: 'read',
        floor: true,
        run: (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += readUnits(keys[i]);
          return acc;
        },
      },
      {
        name: 'read its UTF-8 bytes (TextEncoder.encodeInto)',
        family: 'read',
        floor: true,
        run: (keys) => {
          const into = new Uint8Array(4096);
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += encoder.encodeInto(keys[i], into).written;
          return acc;
        },
      },
      {
        name: 'engine Pulsar Key_Shared route',
        family: 'route',
        run: (keys) => {
          let acc = 0;
          for (let i = 0; i < keys.length; i++) acc += pulsarTopic.route(stringKey(keys[i])).stickyKeyHash;
          return acc;
        },
        one: (key) => pulsarTopic.route(stringKey(key)),
      },
    ],
  };
}

/** Every code unit of `s` read, four to a step as the engine's ASCII paths read them, and summed. */
function readUnits(s) {
  const n = s.length;
  let acc = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) acc = (acc + (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 8) | (s.charCodeAt(i + 2) << 16) | (s.charCodeAt(i + 3) << 24))) | 0;
  for (; i < n; i++) acc = (acc + s.charCodeAt(i)) | 0;
  return acc;
}

/** The client partitioners' families and how the engine computes them from a string key. */
const CLIENT_FAMILIES = [
  { family: 'fnv1a', name: "engine partitionOfString(sarama)" },
  { family: 'kafkajsLegacy', name: "engine partitionOfString(kafkajs-legacy)" },
  { family: 'javaStringHashCpp', name: "engine pulsarPartition(JavaStringHash-cpp)" },
  { family: 'boost180', name: "engine pulsarPartition(BoostHash-1.80)" },
  { family: 'boost181', name: "engine pulsarPartition(BoostHash-1.81)" },
  { family: 'boost182', name: "engine pulsarPartition(BoostHash-1.82)" },
];
const PULSAR_SCHEME = { javaStringHashCpp: 'JavaStringHash-cpp', boost180: 'BoostHash-1.80', boost181: 'BoostHash-1.81', boost182: 'BoostHash-1.82' };
const KAFKA_PARTITIONER = { fnv1a: 'sarama', kafkajsLegacy: 'kafkajs-legacy' };

/**
 * Functions made from source text of their own. Closures of one function literal share V8's
 * feedback and optimized code, so the six client families' loops, written once and mapped over
 * the families, were one call site calling six functions: megamorphic, not inlined. Measured on the
 * short keys that made Sarama's FNV-1a 31.1 ns a key against 16.7 with a loop of its own, BoostHash
 * 1.81 36.2 against 26.9. A user's code calls one client's hash at a call site of its own, and so
 * does each peer (a pass per hash in HashPeer.java and hashpeer.c).
 */
const own = (params, body, ...args) => new Function(...params, body)(...args);

/** A loop over the keys calling `one`, with a call site of its own (see `own`). */
const ownLoop = (one) => own(['one'], 'return (keys) => { let acc = 0; for (let i = 0; i < keys.length; i++) acc += one(keys[i]); return acc; };', one);

/**
 * The engine's string -> partition for a client family, as a user writes it: the partitioner, or
 * the scheme as a literal, in a function of its own (see `own`).
 */
function clientPartitionOf(engine, family) {
  if (KAFKA_PARTITIONER[family]) {
    return own(['partitionOfString', 'p'], `return (key) => partitionOfString(p, key, ${PARTITIONS});`, engine.partitionOfString, engine.PARTITIONERS[KAFKA_PARTITIONER[family]]);
  }
  return own(['pulsarPartition'], `return (key) => pulsarPartition(${JSON.stringify(PULSAR_SCHEME[family])}, key, ${PARTITIONS});`, engine.pulsarPartition);
}

/** The same partition from the engine's byte functions on freshly encoded bytes (`place` / `producerPlacement`). */
function clientBytePartitionOf(engine, family) {
  const encoder = new TextEncoder();
  if (KAFKA_PARTITIONER[family]) {
    const p = engine.PARTITIONERS[KAFKA_PARTITIONER[family]];
    return (key) => {
      const b = encoder.encode(key);
      return engine.place(p, b, b.length, PARTITIONS).partition;
    };
  }
  const scheme = PULSAR_SCHEME[family];
  return (key) => engine.producerPlacement(scheme, engine.bytesKey(encoder.encode(key)), PARTITIONS).partition;
}

/** The engine's answer per family, which every peer must give on every key. */
export function referenceOf(engine, family) {
  if (CLIENT_FAMILIES.some((f) => f.family === family)) return clientPartitionOf(engine, family);
  if (family === 'kafka') return (key) => engine.kafkaPartition(key, PARTITIONS);
  if (family === 'murmur3') return (key) => engine.pulsarMurmur3Hash(key);
  if (family === 'javaStringHash') return (key) => engine.javaStringHash(key);
  if (family === 'crc32') return engine.crc32OfString ?? ((key) => engine.crc32(engine.utf8(key)));
  return null;
}

/**
 * The engine's string paths are checked against its byte paths on bytes TextEncoder writes (the
 * key sets are well formed, so these are Java's bytes too), or for JavaStringHash against the
 * plain loop over code units, so the engine is not only compared with itself.
 */
function engineCheckOf(engine, family) {
  const encoder = new TextEncoder();
  if (family === 'kafka') return (key) => (engine.murmur2(encoder.encode(key)) & 0x7fffffff) % PARTITIONS;
  if (family === 'murmur3') return (key) => engine.murmur3(encoder.encode(key)) & 0x7fffffff;
  if (family === 'javaStringHash') return (key) => plainJavaStringHashCode(key) & 0x7fffffff;
  if (family === 'crc32') return (key) => engine.crc32(encoder.encode(key));
  if (CLIENT_FAMILIES.some((f) => f.family === family)) return clientBytePartitionOf(engine, family);
  throw new Error(`no check for ${family}`);
}

/**
 * Checks a contender against independent answers on every key: peers against the engine, the
 * engine's string paths against its byte paths on freshly encoded bytes (so the engine is not only
 * compared with itself), and the full route against the selector's own lookup.
 */
export function check(engine, c, keys) {
  if (c.floor) return; // it computes nothing to check
  const encoder = new TextEncoder();
  if (c.family === 'route') {
    for (let i = 0; i < keys.length; i++) {
      const r = c.one(keys[i]);
      const h = engine.murmur3(encoder.encode(keys[i])) & 0x7fffffff;
      const sticky = (h % 65535) + 1; // 4.0 ring: reduced into [1, 65535]
      if (r.stickyKeyHash !== sticky || r.consumer === null) {
        throw new Error(`${c.name} disagrees on key #${i} ${JSON.stringify(keys[i])}: ${JSON.stringify(r)} (sticky key hash ${sticky})`);
      }
    }
    return;
  }
  const ref = c.name.startsWith('engine') ? engineCheckOf(engine, c.family) : referenceOf(engine, c.family);
  for (let i = 0; i < keys.length; i++) {
    const want = ref(keys[i]);
    const got = c.one(keys[i]);
    if (got !== want) throw new Error(`${c.name} disagrees with the engine on key #${i} ${JSON.stringify(keys[i])}: ${got} vs ${want}`);
  }
}
