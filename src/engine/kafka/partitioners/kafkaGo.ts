/**
 * `kafka-go`: kafka-go's default `Writer` balancer, `RoundRobin`, which ignores the key: messages
 * go to the partitions in turn, whatever their key. With one partition that is partition 0.
 */
import { RANDOM, type Partitioner } from './partitioner';

export const kafkaGo: Partitioner = {
  name: 'kafka-go',
  hashFunction: null,
  hash: () => 0,
  hashes: () => false,
  partition: (_hash, _length, n) => (n === 1 ? 0 : RANDOM),
  formula: (n) => `next++ % ${n}`,
  randomNote: "kafka-go's default balancer (RoundRobin) ignores the key: each message goes to the next partition in turn",
  hashShare: (_p, n) => 1 / n,
};
