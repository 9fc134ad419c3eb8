import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { utf8 } from '../../src/engine/bytes';
import { boostHash181Low, boostHash181LowJs, boostHash181OfString, boostHash181OfStringJs } from '../../src/engine/pulsar/boostHash181';
import { boostHash182Low, boostHash182LowJs, boostHash182OfString, boostHash182OfStringJs } from '../../src/engine/pulsar/boostHash182';
import { boostModuleBytes, boostWasm } from '../../src/engine/pulsar/boostWasm';
import * as A from './fixtures/clientAnswers';
import { edgeString, javaUtf8Reference, randInt, randomBytes, rng } from './helpers';

// BoostHash 1.81 / 1.82 run in a WebAssembly module assembled in boostWasm.ts where WebAssembly
// runs, and in JavaScript elsewhere. Both paths must give the C++ client's hash: the JavaScript one
// against the known answers here (the wasm one meets them through boostHash18xLow in
// clientPartitioners.test.ts and the slow references in clientStringHashes.test.ts), and the two
// against each other on random bytes and strings.

const low = (h: string): number => parseInt(h.slice(8), 16);

describe('BoostHash 1.81 / 1.82 in WebAssembly and in JavaScript', () => {
  test('the assembled module validates and instantiates in Node', () => {
    assert.equal(WebAssembly.validate(boostModuleBytes()), true);
    assert.notEqual(boostWasm(), null);
  });

  test('the JavaScript path meets boost::hash<std::string> on every corpus key', () => {
    A.KEYS.forEach((key, i) => {
      const b = utf8(key);
      assert.equal(boostHash181LowJs(b), low(A.BOOST_181[i]), `1.81 ${JSON.stringify(key)}`);
      assert.equal(boostHash182LowJs(b), low(A.BOOST_182[i]), `1.82 ${JSON.stringify(key)}`);
    });
  });

  test('wasm and JavaScript agree on random bytes of every length 0..300, after longer keys left bytes behind', () => {
    const r = rng(41);
    // The module reads up to 8 bytes past a key's end and masks them off: a long key first leaves
    // non-zero bytes there for every shorter key after it.
    const long = randomBytes(r, 4096);
    assert.equal(boostHash182Low(long), boostHash182LowJs(long));
    for (let n = 0; n <= 300; n++) {
      for (let k = 0; k < 6; k++) {
        const b = k === 0 ? new Uint8Array(n).fill(0xff) : randomBytes(r, n);
        assert.equal(boostHash181Low(b), boostHash181LowJs(b), `1.81 of ${n} bytes`);
        assert.equal(boostHash182Low(b), boostHash182LowJs(b), `1.82 of ${n} bytes`);
        // A key inside a larger buffer (the byte entry points' `length`).
        const big = new Uint8Array(n + 9).fill(0xa5);
        big.set(b);
        assert.equal(boostHash181Low(big, n), boostHash181LowJs(b), `1.81 of ${n} of ${n + 9} bytes`);
        assert.equal(boostHash182Low(big, n), boostHash182LowJs(b), `1.82 of ${n} of ${n + 9} bytes`);
      }
    }
  });

  test('wasm and JavaScript agree on random strings with lone surrogates, pairs and U+0000', () => {
    const r = rng(42);
    for (let i = 0; i < 3000; i++) {
      const s = edgeString(r, randInt(r, 0, 90), i % 3 === 0 ? 0.9 : 0.2);
      const b = javaUtf8Reference(s);
      assert.equal(boostHash181OfString(s), boostHash181LowJs(b) & 0x7fffffff, `1.81 of ${JSON.stringify(s)}`);
      assert.equal(boostHash182OfString(s), boostHash182LowJs(b) & 0x7fffffff, `1.82 of ${JSON.stringify(s)}`);
      // The string path where WebAssembly does not run.
      assert.equal(boostHash181OfStringJs(s), boostHash181LowJs(b) & 0x7fffffff, `1.81 (JS) of ${JSON.stringify(s)}`);
      assert.equal(boostHash182OfStringJs(s), boostHash182LowJs(b) & 0x7fffffff, `1.82 (JS) of ${JSON.stringify(s)}`);
    }
  });

  test('short ASCII keys, written four units to a word, after longer keys left bytes behind', () => {
    const r = rng(44);
    for (let n = 0; n <= 30; n++) {
      for (const s of [edgeString(r, n, 0), '\x7f'.repeat(n), edgeString(r, n, 0).slice(0, -1) + 'é']) {
        // A 0xff-filled key first: every byte past the next key's end is then non-zero.
        boostHash182Low(new Uint8Array(64).fill(0xff));
        const b = javaUtf8Reference(s);
        assert.equal(boostHash181OfString(s), boostHash181LowJs(b) & 0x7fffffff, `1.81 of ${JSON.stringify(s)}`);
        boostHash181Low(new Uint8Array(64).fill(0xff));
        assert.equal(boostHash182OfString(s), boostHash182LowJs(b) & 0x7fffffff, `1.82 of ${JSON.stringify(s)}`);
      }
    }
  });

  test('keys larger than the module memory grow it, and keys after the growth still hash right', () => {
    const r = rng(43);
    const huge = edgeString(r, 70_000, 0.5); // up to 210,000 bytes: more than one 64 KiB page
    const hb = javaUtf8Reference(huge);
    assert.equal(boostHash182OfString(huge), boostHash182LowJs(hb) & 0x7fffffff);
    assert.equal(boostHash181OfString(huge), boostHash181LowJs(hb) & 0x7fffffff);
    // The byte path grows it again while the string path's encoder holds the old view.
    const bigBytes = randomBytes(r, 400_000);
    assert.equal(boostHash182Low(bigBytes), boostHash182LowJs(bigBytes));
    for (const s of ['', 'a', 'user-123456', 'order-12345678-123', '\ud800', 'é'.repeat(30), edgeString(r, 50, 0.5)]) {
      const b = javaUtf8Reference(s);
      assert.equal(boostHash181OfString(s), boostHash181LowJs(b) & 0x7fffffff, `1.81 of ${JSON.stringify(s)}`);
      assert.equal(boostHash182OfString(s), boostHash182LowJs(b) & 0x7fffffff, `1.82 of ${JSON.stringify(s)}`);
    }
  });
});
