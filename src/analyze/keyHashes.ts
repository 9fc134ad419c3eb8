/**
 * Every client hash the analyser may need for one key, computed from the key bytes (and, for the
 * Java client's Pulsar schemes, the routing text) into one reused object: each hash at most once
 * per key, only those some topic needs, nothing allocated (a byte key routed on its base64 text
 * by the Java client aside). Topics read their partition from these numbers.
 */
import { base64, utf8 } from '../engine/bytes';
import { crc32 } from '../engine/pulsar/crc32';
import { fnv1a } from '../engine/kafka/fnv1a';
import { murmur2 } from '../engine/kafka/murmur2';
import { kafkajsLegacyMurmur2 } from '../engine/kafka/partitioners/kafkajsLegacy';
import type { KafkaHashFunction } from '../engine/kafka/partitioners';
import { boostHash180 } from '../engine/pulsar/boostHash180';
import { boostHash181 } from '../engine/pulsar/boostHash181';
import { boostHash182 } from '../engine/pulsar/boostHash182';
import { javaStringHash } from '../engine/pulsar/javaStringHash';
import { javaStringHashCpp } from '../engine/pulsar/javaStringHashCpp';
import { murmur3 } from '../engine/pulsar/murmur3';
import type { HashingScheme } from '../engine/pulsar/producerRouting';
import { Utf8JavaHash } from './utf8JavaHash';

/** The hashes of one key (signed 32-bit for the Kafka ones; the Pulsar ones masked to 31 bits). */
export interface KeyHashes {
  /** Kafka: murmur2 of the key bytes (signed 32-bit). */
  murmur2: number;
  /** Murmur3_32 of the key bytes, masked to 31 bits (`Murmur3_32Hash.makeHash`): the sticky key hash source. */
  murmur3: number;
  /** The same before masking (signed 32-bit), computed with `murmur3`. */
  murmur3Raw: number;
  /** Pulsar producer routing, JavaStringHash scheme: `javaStringHash` of the routing key (masked). */
  routeJava: number;
  /** Pulsar producer routing, Murmur3_32Hash scheme: masked murmur3 of the routing key's UTF-8. */
  routeMurmur3: number;
  crc32: number;
  fnv1a: number;
  kafkajsMurmur2: number;
  cppJava: number;
  boost180: number;
  boost181: number;
  boost182: number;
}

export function emptyHashes(): KeyHashes {
  return { murmur2: 0, murmur3: 0, murmur3Raw: 0, routeJava: 0, routeMurmur3: 0, crc32: 0, fnv1a: 0, kafkajsMurmur2: 0, cppJava: 0, boost180: 0, boost181: 0, boost182: 0 };
}

/** Which hashes to compute. */
export type HashNeeds = { [K in Exclude<keyof KeyHashes, 'murmur3Raw'>]: boolean };

export function noNeeds(): HashNeeds {
  return { murmur2: false, murmur3: false, routeJava: false, routeMurmur3: false, crc32: false, fnv1a: false, kafkajsMurmur2: false, cppJava: false, boost180: false, boost181: false, boost182: false };
}

export type HashField = keyof HashNeeds;

const KAFKA_FIELD: Readonly<Record<KafkaHashFunction, HashField>> = {
  murmur2: 'murmur2',
  crc32: 'crc32',
  fnv1a: 'fnv1a',
  'kafkajs-murmur2': 'kafkajsMurmur2',
};

const PULSAR_FIELD: Readonly<Record<HashingScheme, HashField>> = {
  JavaStringHash: 'routeJava',
  Murmur3_32Hash: 'routeMurmur3',
  'JavaStringHash-cpp': 'cppJava',
  'BoostHash-1.80': 'boost180',
  'BoostHash-1.81': 'boost181',
  'BoostHash-1.82': 'boost182',
};

export function kafkaHashField(f: KafkaHashFunction | null): HashField | null {
  return f === null ? null : KAFKA_FIELD[f];
}

export function pulsarHashField(s: HashingScheme): HashField {
  return PULSAR_FIELD[s];
}

/** Fills the needed hashes of `bytes[0..length)`; `text` is the key as a string where the reader has it. */
export class KeyHasher {
  readonly hashes = emptyHashes();
  readonly #utf8Java = new Utf8JavaHash();

  constructor(readonly needs: HashNeeds) {}

  fill(bytes: Uint8Array, length: number, text: string | null): void {
    const n = this.needs;
    const h = this.hashes;
    if (n.murmur2) h.murmur2 = murmur2(bytes, length);
    if (n.murmur3 || n.routeMurmur3) {
      h.murmur3Raw = murmur3(bytes, length);
      h.murmur3 = h.murmur3Raw & 0x7fffffff;
    }
    if (n.crc32) h.crc32 = crc32(bytes, length) | 0;
    if (n.fnv1a) h.fnv1a = fnv1a(bytes, length);
    if (n.kafkajsMurmur2) h.kafkajsMurmur2 = kafkajsLegacyMurmur2(bytes, length);
    if (n.cppJava) h.cppJava = javaStringHashCpp(bytes, length);
    if (n.boost180) h.boost180 = boostHash180(bytes, length);
    if (n.boost181) h.boost181 = boostHash181(bytes, length);
    if (n.boost182) h.boost182 = boostHash182(bytes, length);
    if (n.routeJava || n.routeMurmur3) this.#routingKeyHashes(bytes, length, text);
  }

  /**
   * The Java client's Pulsar producer hashes of the routing key: the string key itself, or for bytes
   * that are not valid UTF-8 (a byte key) the base64 text the Java client routes on.
   */
  #routingKeyHashes(bytes: Uint8Array, length: number, text: string | null): void {
    const h = this.hashes;
    if (text !== null) {
      h.routeJava = javaStringHash(text);
      h.routeMurmur3 = h.murmur3;
    } else if (this.#utf8Java.run(bytes, length)) {
      h.routeJava = this.#utf8Java.hash & 0x7fffffff;
      h.routeMurmur3 = h.murmur3;
    } else {
      const b64 = base64(bytes.subarray(0, length));
      h.routeJava = javaStringHash(b64);
      h.routeMurmur3 = murmur3(utf8(b64)) & 0x7fffffff;
    }
  }
}
