/**
 * How a Kafka producer turns the key the user types into the bytes its partitioner hashes: the
 * topic's `keySerializer` (CONTRACT.md section 3). A key text the serializer cannot take gives a
 * message instead of bytes (the route reports it for that key and goes on).
 */
import { parseHex, utf8 } from '../../bytes';
import type { MessageKey } from '../../key';
import { avroString, wireFormat, zigZagVarint } from './avro';
import { doubleBytes, parseJavaDouble } from './double';
import { bigEndian, INT, LONG, parseInteger, SHORT, type IntegerType } from './integers';
import { canonicalUuid } from './uuid';

export type KeySerializerName = 'string' | 'short' | 'int' | 'long' | 'double' | 'uuid' | 'bytes' | 'avro-string' | 'avro-int' | 'avro-long';

export const KEY_SERIALIZERS: readonly KeySerializerName[] = ['string', 'short', 'int', 'long', 'double', 'uuid', 'bytes', 'avro-string', 'avro-int', 'avro-long'];

/** The serializers that write the Schema Registry wire format (they need a `schemaId`). */
export function needsSchemaId(name: KeySerializerName): boolean {
  return name.startsWith('avro-');
}

export type Serialized = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

/** The key's bytes as the serializer writes them. `schemaId` is used by the `avro-*` serializers. */
export function serializeKey(name: KeySerializerName, key: MessageKey, schemaId = 0): Serialized {
  if (name === 'string') return { ok: true, bytes: key.bytes };
  if (name === 'bytes' && key.hex) return { ok: true, bytes: key.bytes };
  const text = key.text;
  if (text === null) return { ok: false, error: `the key's bytes are not UTF-8 text; a ${name} key is typed as text` };
  switch (name) {
    case 'short':
      return integer(text, SHORT, (v) => bigEndian(v, 2));
    case 'int':
      return integer(text, INT, (v) => bigEndian(v, 4));
    case 'long':
      return integer(text, LONG, (v) => bigEndian(v, 8));
    case 'double': {
      const v = parseJavaDouble(text);
      if (v === null) return { ok: false, error: `${JSON.stringify(text)} is not a double (Double.parseDouble refuses it)` };
      return { ok: true, bytes: doubleBytes(v) };
    }
    case 'uuid': {
      const u = canonicalUuid(text);
      return u.ok ? { ok: true, bytes: utf8(u.text) } : u;
    }
    case 'bytes':
      try {
        return { ok: true, bytes: parseHex(text) };
      } catch (e) {
        return { ok: false, error: `${JSON.stringify(text)} is not hex (${(e as Error).message})` };
      }
    case 'avro-string':
      return { ok: true, bytes: wireFormat(schemaId, avroString(utf8(text))) };
    case 'avro-int':
      return integer(text, INT, (v) => wireFormat(schemaId, zigZagVarint(v, 32)));
    case 'avro-long':
      return integer(text, LONG, (v) => wireFormat(schemaId, zigZagVarint(v, 64)));
  }
}

function integer(text: string, type: IntegerType, write: (v: bigint) => Uint8Array): Serialized {
  const v = parseInteger(text, type);
  return typeof v === 'string' ? { ok: false, error: v } : { ok: true, bytes: write(v) };
}
