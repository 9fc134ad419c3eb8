/**
 * The Confluent Schema Registry wire format of a primitive Avro key, as `KafkaAvroSerializer`
 * writes it: the magic byte 0x00, the schema id as a 4-byte big-endian int, then Avro's binary
 * encoding of the value: `int` and `long` as zig-zag varints (7 bits a byte, low groups first,
 * high bit set on all but the last), `string` as the varint length of its UTF-8 bytes, then
 * the bytes.
 */

/** Zig-zag then varint, for an int or long value. */
export function zigZagVarint(v: bigint, bits: 32 | 64): number[] {
  let z = BigInt.asUintN(bits, (v << 1n) ^ (v >> BigInt(bits - 1)));
  const out: number[] = [];
  while (z >= 0x80n) {
    out.push(Number(z & 0x7fn) | 0x80);
    z >>= 7n;
  }
  out.push(Number(z));
  return out;
}

/** 0x00, the schema id big-endian, then the Avro body. */
export function wireFormat(schemaId: number, body: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = 0;
  new DataView(out.buffer).setInt32(1, schemaId, false);
  out.set(body, 5);
  return out;
}

/** An Avro `string`: the zig-zag varint length, then the UTF-8 bytes. */
export function avroString(utf8: Uint8Array): Uint8Array {
  const len = zigZagVarint(BigInt(utf8.length), 64);
  const out = new Uint8Array(len.length + utf8.length);
  out.set(len, 0);
  out.set(utf8, len.length);
  return out;
}
