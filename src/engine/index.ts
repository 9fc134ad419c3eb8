/**
 * The engine as a library (`dist/engine.js`, CommonJS, no `vscode`, no DOM): the hashes and
 * partitioners other tools and benchmarks call, and the topology model.
 */
import { utf8 } from './bytes';
import { murmur3Masked, murmur3OfString } from './pulsar/murmur3';

export { murmur2, toPositive } from './kafka/murmur2';
export { kafkaPartition, partitionForKey } from './kafka/partitioner';
// Every client's partitioning and hash (CONTRACT.md section 3), for tools and the benchmark.
export { PARTITIONERS, PARTITIONER_NAMES, place, partitionOfString } from './kafka/partitioners';
export { fnv1a, fnv1aOfString } from './kafka/fnv1a';
export { kafkajsLegacyMurmur2, kafkajsLegacyMurmur2OfString } from './kafka/partitioners/kafkajsLegacy';
export { serializeKey } from './kafka/serializers';
export { javaStringHashCpp, javaStringHashCppOfString } from './pulsar/javaStringHashCpp';
export { boostHash180, boostHash180OfString } from './pulsar/boostHash180';
export { boostHash181, boostHash181OfString } from './pulsar/boostHash181';
export { boostHash182, boostHash182OfString } from './pulsar/boostHash182';
export { murmur3 } from './pulsar/murmur3';
export { javaStringHash } from './pulsar/javaStringHash';
export { pulsarPartition, producerPlacement, clientKeyHash, HASHING_SCHEMES, signSafeMod } from './pulsar/producerRouting';
export { parseSettings } from './settings';
export { Topology } from './topology';
// The broker's report of a topic, as the panel draws it (CONTRACT.md section 4).
export { observedView, type PulsarObservedView, type KafkaObservedView } from './observed/view';
export { groupRouteFields } from './kafka/groupTopology';
export { parseEvent } from './events';
export { runWhatIf } from './whatIf';
export { stringKey, bytesKey } from './key';
export { crc32, crc32OfString } from './pulsar/crc32';
export { parseTopicName } from './pulsar/topicName';
export { NamespaceBundles, topicBundle, topicHash, bundleName } from './pulsar/namespaceBundles';
export { splitBoundaries, SPLIT_ALGORITHMS } from './pulsar/bundleSplit';
export { SharedConsumerAssignor } from './pulsar/sharedConsumerAssignor';
export { utf8 };

/**
 * Pulsar's `Murmur3_32Hash.makeHash` of a string key (UTF-8) or of bytes: masked to 31 bits. A
 * string is hashed from its code units where it is ASCII, else from a reused buffer.
 */
export function pulsarMurmur3Hash(key: string | Uint8Array): number {
  if (typeof key !== 'string') return murmur3Masked(key);
  return murmur3OfString(key) & 0x7fffffff;
}
