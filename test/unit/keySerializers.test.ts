import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { serializeKey, type KeySerializerName } from '../../src/engine/kafka/serializers';
import { parseJavaDouble } from '../../src/engine/kafka/serializers/double';
import { javaDigit, parseJavaLong } from '../../src/engine/kafka/serializers/javaDigits';
import { bytesKey, stringKey } from '../../src/engine/key';
import { rng, randInt } from './helpers';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function ser(name: KeySerializerName, text: string, schemaId = 0): string {
  const r = serializeKey(name, stringKey(text), schemaId);
  assert.ok(r.ok, `${name} ${JSON.stringify(text)}: ${r.ok ? '' : r.error}`);
  return hex(r.bytes);
}

function refused(name: KeySerializerName, text: string): string {
  const r = serializeKey(name, stringKey(text), 1);
  assert.ok(!r.ok, `${name} should refuse ${JSON.stringify(text)}`);
  return r.error;
}

// Kafka's own ShortSerializer / IntegerSerializer / LongSerializer / DoubleSerializer / UUIDSerializer
// (apache/kafka at the reference commit, compiled from source with OpenJDK 17), given the value
// Short.parseShort / Integer.parseInt / Long.parseLong / Double.parseDouble / UUID.fromString read
// from the text on the left: the bytes on the right (UUIDSerializer: the text it sends).
const SHORT: Array<[string, string]> = [
  ["0", "0000"],
  ["1", "0001"],
  ["-1", "ffff"],
  ["32767", "7fff"],
  ["-32768", "8000"],
  ["+5", "0005"],
  ["007", "0007"],
  ["-0", "0000"],
];
const INT: Array<[string, string]> = [
  ["0", "00000000"],
  ["-1", "ffffffff"],
  ["2147483647", "7fffffff"],
  ["-2147483648", "80000000"],
  ["42", "0000002a"],
  ["+42", "0000002a"],
  ["-0", "00000000"],
  ["0042", "0000002a"],
];
const LONG: Array<[string, string]> = [
  ["0", "0000000000000000"],
  ["-1", "ffffffffffffffff"],
  ["9223372036854775807", "7fffffffffffffff"],
  ["-9223372036854775808", "8000000000000000"],
  ["1234567890123", "0000011f71fb04cb"],
  ["+7", "0000000000000007"],
  ["-0", "0000000000000000"],
];
const DOUBLE: Array<[string, string]> = [
  ["0", "0000000000000000"],
  ["-0.0", "8000000000000000"],
  ["0.0", "0000000000000000"],
  ["1", "3ff0000000000000"],
  ["-1.5", "bff8000000000000"],
  ["NaN", "7ff8000000000000"],
  ["-NaN", "7ff8000000000000"],
  ["+NaN", "7ff8000000000000"],
  ["Infinity", "7ff0000000000000"],
  ["-Infinity", "fff0000000000000"],
  ["+Infinity", "7ff0000000000000"],
  ["4.9E-324", "0000000000000001"],
  ["2.2250738585072014E-308", "0010000000000000"],
  ["2.225073858507201E-308", "000fffffffffffff"],
  ["1.7976931348623157E308", "7fefffffffffffff"],
  ["1e309", "7ff0000000000000"],
  ["-1e309", "fff0000000000000"],
  ["1e-400", "0000000000000000"],
  ["0.1", "3fb999999999999a"],
  ["3.141592653589793", "400921fb54442d18"],
  ["1.5d", "3ff8000000000000"],
  ["2f", "4000000000000000"],
  ["  7  ", "401c000000000000"],
  [".5", "3fe0000000000000"],
  ["5.", "4014000000000000"],
  ["0x1p0", "3ff0000000000000"],
  ["0x1.8p1", "4008000000000000"],
  ["-0x.8p-1", "bfd0000000000000"],
  ["0X1P-1074", "0000000000000001"],
  ["0x1.fffffffffffffp1023", "7fefffffffffffff"],
  ["0x1.00000000000008p0", "3ff0000000000000"],
  ["0x1.000000000000080000001p0", "3ff0000000000001"],
  ["0x1.00000000000018p0", "3ff0000000000002"],
  ["9007199254740993", "4340000000000000"],
  ["1e23", "44b52d02c7e14af6"],
  ["2.4e-320", "00000000000012fa"],
  ["\t1\n", "3ff0000000000000"],
  ["123456789012345678901234567890", "45f8ee90ff6c373e"],
  ["0.30000000000000004", "3fd3333333333334"],
  ["1E+2", "4059000000000000"],
  ["1e-2D", "3f847ae147ae147b"],
];
const UUID: Array<[string, string]> = [
  ["123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000"],
  ["123E4567-E89B-12D3-A456-426614174000", "123e4567-e89b-12d3-a456-426614174000"],
  ["1-2-3-4-5", "00000001-0002-0003-0004-000000000005"],
  ["00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"],
  ["ffffffff-ffff-ffff-ffff-ffffffffffff", "ffffffff-ffff-ffff-ffff-ffffffffffff"],
  ["+1-+2-+3-+4-+5", "00000001-0002-0003-0004-000000000005"],
  ["123456789-0-0-0-0", "23456789-0000-0000-0000-000000000000"],
  ["0-0-0-0-1234567890123", "00000000-0000-0000-0000-234567890123"],
  ["\uff11-\uff12-\uff13-\uff14-\uff21\uff42", "00000001-0002-0003-0004-0000000000ab"],
  ["\u0663-\u0664-0-0-0", "00000003-0004-0000-0000-000000000000"],
  ["0-0-0-0-7fffffffffffffff", "00000000-0000-0000-0000-ffffffffffff"],
];
// Texts OpenJDK 17's Double.parseDouble and UUID.fromString refuse.
const BAD_DOUBLE = ["", " ", "abc", "1e", "0x1", "0x1.8", "1.5e+", "nan", "inf", "Inf", "1_000", "1,5", "--1", "1ff", "0x", ".", "e5", "1.5dd", "\u0661"];
const BAD_UUID = ["", "-1--1--1--1--1", "1--1-1-1-1", "abc", "1-2-3-4", "1-2-3-4-5-6", "g-0-0-0-0", "-0-0-0-0", "0-0-0-0-", "0-0-0-0-8000000000000000", "0-0-0-0-10000000000000000", "123e4567-e89b-12d3-a456-4266141740000", "123e4567e89b12d3a456426614174000", " 1-2-3-4-5", "+-0-0-0-0", "0-0-0-0-+"];
// Avro 1.8.2 (Debian libavro-java) GenericDatumWriter + BinaryEncoder of the value, after the wire format
// prefix KafkaAvroSerializer writes (0x00, the schema id as a big-endian int): ids 42, 7 and 2147483647.
const AVRO_INT: Array<[string, string]> = [
  ["0", "000000002a00"],
  ["1", "000000002a02"],
  ["-1", "000000002a01"],
  ["63", "000000002a7e"],
  ["64", "000000002a8001"],
  ["-64", "000000002a7f"],
  ["-65", "000000002a8101"],
  ["8191", "000000002afe7f"],
  ["8192", "000000002a808001"],
  ["-8193", "000000002a818001"],
  ["2147483647", "000000002afeffffff0f"],
  ["-2147483648", "000000002affffffff0f"],
];
const AVRO_LONG: Array<[string, string]> = [
  ["0", "000000000700"],
  ["1", "000000000702"],
  ["-1", "000000000701"],
  ["63", "00000000077e"],
  ["64", "00000000078001"],
  ["-64", "00000000077f"],
  ["-65", "00000000078101"],
  ["2147483648", "00000000078080808010"],
  ["-2147483649", "00000000078180808010"],
  ["9223372036854775807", "0000000007feffffffffffffffff01"],
  ["-9223372036854775808", "0000000007ffffffffffffffffff01"],
];
const AVRO_STRING: Array<[string, string]> = [
  ["", "007fffffff00"],
  ["a", "007fffffff0261"],
  ["user-1", "007fffffff0c757365722d31"],
  ["\u00e9\u65e5\ud83d\ude00", "007fffffff12c3a9e697a5f09f9880"],
  ["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "007fffffff7e787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878"],
  ["yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy", "007fffffff800179797979797979797979797979797979797979797979797979797979797979797979797979797979797979797979797979797979797979797979797979797979"],
];

describe('Kafka key serializers against Kafka\'s own classes', () => {
  test('short, int, long: big-endian two\'s complement, extremes included', () => {
    for (const [text, want] of SHORT) assert.equal(ser('short', text), want, text);
    for (const [text, want] of INT) assert.equal(ser('int', text), want, text);
    for (const [text, want] of LONG) assert.equal(ser('long', text), want, text);
  });

  test('double: Double.parseDouble then doubleToLongBits (canonical NaN, -0.0, subnormals, hex floats, rounding ties)', () => {
    for (const [text, want] of DOUBLE) assert.equal(ser('double', text), want, JSON.stringify(text));
  });

  test('double: the texts Java refuses are per-key errors', () => {
    for (const text of BAD_DOUBLE) assert.match(refused('double', text), /is not a double/, JSON.stringify(text));
  });

  test('uuid: UUID.fromString read, canonical lower-case text sent (UTF-8)', () => {
    for (const [text, want] of UUID) assert.equal(ser('uuid', text), Buffer.from(want).toString('hex'), JSON.stringify(text));
    for (const text of BAD_UUID) assert.match(refused('uuid', text), /is not a UUID/, JSON.stringify(text));
  });

  test('avro-int, avro-long, avro-string: the Schema Registry wire format around Avro\'s binary encoding', () => {
    for (const [text, want] of AVRO_INT) assert.equal(ser('avro-int', text, 42), want, text);
    for (const [text, want] of AVRO_LONG) assert.equal(ser('avro-long', text, 7), want, text);
    for (const [text, want] of AVRO_STRING) assert.equal(ser('avro-string', text, 2147483647), want, JSON.stringify(text));
  });
});

describe('Kafka key serializers: bad keys and the other serializers', () => {
  test('out-of-range and garbage integers name the type and its range', () => {
    assert.equal(refused('long', 'abc'), '"abc" is not a long (-9223372036854775808..9223372036854775807)');
    assert.equal(refused('long', '9223372036854775808'), '"9223372036854775808" is not a long (-9223372036854775808..9223372036854775807)');
    assert.equal(refused('long', '-9223372036854775809'), '"-9223372036854775809" is not a long (-9223372036854775808..9223372036854775807)');
    assert.equal(refused('int', '2147483648'), '"2147483648" is not an int (-2147483648..2147483647)');
    assert.equal(refused('int', '-2147483649'), '"-2147483649" is not an int (-2147483648..2147483647)');
    assert.equal(refused('short', '32768'), '"32768" is not a short (-32768..32767)');
    assert.equal(refused('short', '-32769'), '"-32769" is not a short (-32768..32767)');
    assert.equal(refused('avro-int', '2147483648'), '"2147483648" is not an int (-2147483648..2147483647)');
    assert.equal(refused('avro-long', '1.5'), '"1.5" is not a long (-9223372036854775808..9223372036854775807)');
    // Integer.parseInt takes no spaces, no fraction, no hex, no lone sign, nothing empty.
    for (const text of ['', ' 1', '1 ', '1.0', '0x10', '+', '-', '1e3', '١٢x']) assert.match(refused('int', text), /is not an int/, JSON.stringify(text));
  });

  test('Java reads any Unicode decimal digit (Character.digit): ٤٢ and ４２ are 42', () => {
    assert.equal(ser('int', '\u0664\u0662'), '0000002a');
    assert.equal(ser('int', '\uff14\uff12'), '0000002a');
    assert.equal(javaDigit('\u0669'.charCodeAt(0), 10), 9);
    assert.equal(javaDigit('\uff21'.charCodeAt(0), 16), 10);
    assert.equal(javaDigit('\uff27'.charCodeAt(0), 16), -1); // 'Ｇ' is 16, not below the radix
    assert.equal(javaDigit('\u00b2'.charCodeAt(0), 10), -1); // superscript two is No, not Nd
    assert.equal(javaDigit(0xd835, 10), -1); // a surrogate half is no digit
  });

  test('parseJavaLong matches BigInt on random decimal texts, overflow at the exact bounds', () => {
    const r = rng(7);
    for (let i = 0; i < 3000; i++) {
      const digits = randInt(r, 1, 20);
      let s = (r() < 0.5 ? '-' : '') + String(randInt(r, 1, 9));
      for (let j = 1; j < digits; j++) s += String(randInt(r, 0, 9));
      const v = BigInt(s);
      const inRange = v >= -(2n ** 63n) && v < 2n ** 63n;
      if (inRange) assert.equal(parseJavaLong(s, 0, s.length, 10), v, s);
      else assert.throws(() => parseJavaLong(s, 0, s.length, 10), s);
    }
  });

  test('string: the key\'s UTF-8 bytes; bytes: the key is hex (or the hex input\'s bytes as they are)', () => {
    assert.equal(ser('string', 'é'), 'c3a9');
    assert.equal(ser('bytes', '00ff7F'), '00ff7f');
    assert.equal(ser('bytes', ''), '');
    assert.match(refused('bytes', 'xyz'), /^"xyz" is not hex \(invalid hex: "x" at position 0\)/);
    assert.match(refused('bytes', 'abc'), /^"abc" is not hex \(invalid hex: odd number of digits \(3\)\)/);
    assert.match(refused('bytes', 'zz'), /^"zz" is not hex \(invalid hex: "z" at position 0\)/);
    // Given as hex (--key-format hex), the bytes are the key; typed text would be read as hex again.
    const raw = serializeKey('bytes', bytesKey(Uint8Array.from([0xde, 0xad]), true));
    assert.ok(raw.ok && hex(raw.bytes) === 'dead');
  });

  test('typed serializers need text: bytes that are not UTF-8 are a per-key error', () => {
    const r = serializeKey('int', bytesKey(Uint8Array.from([0xff, 0x31])));
    assert.ok(!r.ok);
    assert.match(r.error, /not UTF-8 text/);
  });

  test('a text key given as hex is read as text: 0x3432 is "42"', () => {
    const r = serializeKey('int', bytesKey(Uint8Array.from([0x34, 0x32]), true));
    assert.ok(r.ok && hex(r.bytes) === '0000002a');
  });

  test('parseJavaDouble agrees with JavaScript\'s reader on decimal texts both accept', () => {
    const r = rng(11);
    for (let i = 0; i < 3000; i++) {
      const mant = `${randInt(r, 0, 99999)}.${randInt(r, 0, 999999)}`;
      const text = `${r() < 0.5 ? '-' : ''}${mant}e${randInt(r, -330, 310)}`;
      assert.ok(Object.is(parseJavaDouble(text), Number(text)), text);
    }
  });

  test('hex floats round to nearest, ties to even, through the subnormal range', () => {
    // 2^-1075 is half the smallest subnormal: a tie, rounded to even (0); anything above rounds up.
    assert.equal(parseJavaDouble('0x1p-1075'), 0);
    assert.equal(parseJavaDouble('0x1.0000001p-1075'), 2 ** -1074);
    assert.equal(parseJavaDouble('0x3p-1075'), 2 ** -1073); // 1.5 units: tie, to even (2 units)
    assert.equal(parseJavaDouble('0x1p1024'), Infinity);
    assert.equal(parseJavaDouble('-0x0p99999999999999999999'), -0);
    assert.ok(Object.is(parseJavaDouble('-0x0p99999999999999999999'), -0));
    assert.equal(parseJavaDouble('0x1p99999999999999999999'), Infinity);
    assert.equal(parseJavaDouble('0x1.fffffffffffff8p1023'), Infinity); // rounds up past the largest double
  });
});
