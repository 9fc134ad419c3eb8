import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32 } from '../../src/engine/pulsar/crc32';
import { parseTopicName, TopicNameError, namespaceNameProblem } from '../../src/engine/pulsar/topicName';
import {
  NamespaceBundles,
  bundleName,
  equalBoundaries,
  javaLongDecode,
  parseBundleRange,
  topicBundle,
  topicHash,
} from '../../src/engine/pulsar/namespaceBundles';
import { namespaceBundles, parseSettings, type Problem } from '../../src/engine/settings';
import { randInt, randomBytes, rng } from './helpers';

const enc = (s: string) => new TextEncoder().encode(s);

describe('CRC-32 (Guava Hashing.crc32)', () => {
  test('known answers: "123456789" is 0xcbf43926, "" is 0', () => {
    assert.equal(crc32(enc('123456789')), 0xcbf43926);
    assert.equal(crc32(new Uint8Array(0)), 0);
  });

  test('equals zlib crc32 on random bytes of every length up to 300, and honours the length argument', () => {
    const r = rng(7);
    for (let n = 0; n <= 300; n++) {
      const b = randomBytes(r, n);
      assert.equal(crc32(b), zlibCrc32(b), `length ${n}`);
      const padded = new Uint8Array(n + 5);
      padded.set(b);
      padded.fill(0xab, n);
      assert.equal(crc32(padded, n), zlibCrc32(b));
    }
  });

  test('unsigned: results span the high half of the 32-bit range', () => {
    const r = rng(11);
    let high = 0;
    for (let i = 0; i < 2000; i++) {
      const h = crc32(randomBytes(r, 8));
      assert.ok(Number.isInteger(h) && h >= 0 && h <= 0xffffffff);
      if (h >= 0x80000000) high++;
    }
    assert.ok(high > 800 && high < 1200);
  });
});

describe('TopicName resolution', () => {
  test('short names resolve as Pulsar resolves them', () => {
    assert.equal(parseTopicName('x').fullName, 'persistent://public/default/x');
    assert.equal(parseTopicName('tenant/ns/x').fullName, 'persistent://tenant/ns/x');
    // StringUtils.split drops empty pieces: "/x/" is one piece.
    assert.equal(parseTopicName('/x/').fullName, 'persistent://public/default/x');
    assert.equal(parseTopicName('x').namespace, 'public/default');
    assert.equal(parseTopicName('tenant/ns/x').namespace, 'tenant/ns');
  });

  test('full names keep their domain; the domain is matched ignoring case and written in lower case', () => {
    const np = parseTopicName('non-persistent://t/ns/x');
    assert.equal(np.domain, 'non-persistent');
    assert.equal(np.fullName, 'non-persistent://t/ns/x');
    assert.equal(parseTopicName('PERSISTENT://t/ns/x').fullName, 'persistent://t/ns/x');
    // Java's equalsIgnoreCase: the long s (U+017F) upper-cases to S.
    assert.equal(parseTopicName('per\u017Fistent://t/ns/x').fullName, 'persistent://t/ns/x');
  });

  test('a partition topic is a name of its own, hashed as written', () => {
    const p = parseTopicName('persistent://public/default/orders-partition-3');
    assert.equal(p.fullName, 'persistent://public/default/orders-partition-3');
    assert.equal(p.partitionIndex, 3);
    assert.equal(parseTopicName('orders-partition-03').partitionIndex, -1);
    assert.equal(parseTopicName('orders').partitionIndex, -1);
    assert.equal(topicHash(p.fullName), zlibCrc32('persistent://public/default/orders-partition-3'));
    assert.notEqual(topicHash(p.fullName), topicHash('persistent://public/default/orders'));
  });

  test('legacy names with a cluster: four parts, the local name keeps further slashes', () => {
    const t = parseTopicName('persistent://prop/cluster/ns/a/b');
    assert.equal(t.cluster, 'cluster');
    assert.equal(t.namespace, 'prop/cluster/ns');
    assert.equal(t.localName, 'a/b');
    assert.equal(t.fullName, 'persistent://prop/cluster/ns/a/b');
  });

  test('bad names get a clear error', () => {
    const bad: [string, RegExp][] = [
      ['', /short topic name/],
      ['a/b', /short topic name "a\/b": it should be <tenant>\/<namespace>\/<topic> or <topic>/],
      ['a/b/c/d', /short topic name/],
      ['kafka://a/b/c', /domain "kafka" is not "persistent" or "non-persistent"/],
      ['persistent://a/b', /expected domain:\/\/tenant\/namespace\/topic/],
      ['persistent://a/b/', /local name is empty/],
      ['persistent://a b/ns/x', /"a b" has characters Pulsar does not allow/],
      ['persistent:///ns/x', /part is empty/],
      ['a/b//c', /part is empty/],
    ];
    for (const [name, re] of bad) {
      assert.throws(() => parseTopicName(name), (e: unknown) => e instanceof TopicNameError && re.test((e as Error).message), name);
    }
  });

  test('namespace names: two parts, or three (legacy), of allowed characters', () => {
    assert.equal(namespaceNameProblem('public/default'), null);
    assert.equal(namespaceNameProblem('t/c/ns'), null);
    assert.equal(namespaceNameProblem('t.a-b_c=:/n'), null);
    assert.match(namespaceNameProblem('public')!, /tenant\/namespace/);
    assert.match(namespaceNameProblem('a/b/c/d')!, /tenant\/namespace/);
    assert.match(namespaceNameProblem('a//b')!, /empty/);
    assert.match(namespaceNameProblem('a/b c')!, /not allow/);
  });
});

describe('namespace bundles', () => {
  test('the default 4 bundles are 0x00000000, 0x40000000, 0x80000000, 0xc0000000, 0xffffffff', () => {
    assert.deepEqual(equalBoundaries(4), [0x00000000, 0x40000000, 0x80000000, 0xc0000000, 0xffffffff]);
    const layout = NamespaceBundles.equal(4);
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => layout.bundle(i).name),
      ['0x00000000_0x40000000', '0x40000000_0x80000000', '0x80000000_0xc0000000', '0xc0000000_0xffffffff'],
    );
  });

  test('3 bundles use 0x55555555 and 0xaaaaaaaa', () => {
    assert.deepEqual(equalBoundaries(3), [0, 0x55555555, 0xaaaaaaaa, 0xffffffff]);
  });

  test('equal splits are PoliciesUtil.getBundles: steps of 2^32/n, the last boundary always 0xffffffff', () => {
    for (const n of [1, 2, 5, 6, 7, 16, 100, 128, 1000, 4097]) {
      const seg = (1n << 32n) / BigInt(n);
      const expected = [...Array(n).keys()].map((i) => Number(BigInt(i) * seg)).concat([0xffffffff]);
      assert.deepEqual(equalBoundaries(n), expected, `n=${n}`);
    }
    assert.deepEqual(equalBoundaries(1), [0, 0xffffffff]);
  });

  test('bundle names are 0x%08x_0x%08x in lower case', () => {
    assert.equal(bundleName(0, 0x40000000), '0x00000000_0x40000000');
    assert.equal(bundleName(0xabc, 0xffffffff), '0x00000abc_0xffffffff');
  });

  test('lookup: the greatest boundary <= hash; boundaries belong to the bundle they open; the last bundle is closed at 0xffffffff', () => {
    const layout = NamespaceBundles.equal(4);
    assert.equal(layout.bundleOf(0).name, '0x00000000_0x40000000');
    assert.equal(layout.bundleOf(0x3fffffff).name, '0x00000000_0x40000000');
    assert.equal(layout.bundleOf(0x40000000).name, '0x40000000_0x80000000');
    assert.equal(layout.bundleOf(0xfffffffe).name, '0xc0000000_0xffffffff');
    assert.equal(layout.bundleOf(0xffffffff).name, '0xc0000000_0xffffffff');
    const explicit = NamespaceBundles.fromBoundaries([0, 0x40000000, 0xffffffff]);
    assert.equal(explicit.bundleOf(0x40000000).name, '0x40000000_0xffffffff');
    assert.equal(explicit.bundleOf(0xffffffff).name, '0x40000000_0xffffffff');
  });

  test('a topic is hashed by its full name: CRC-32 of persistent://public/default/orders', () => {
    const layout = NamespaceBundles.equal(4);
    const full = topicBundle('persistent://public/default/orders', layout);
    const short = topicBundle('orders', layout);
    assert.equal(full.hash, zlibCrc32('persistent://public/default/orders'));
    assert.deepEqual(short, full);
    assert.equal(full.bundle.name, ['0x00000000_0x40000000', '0x40000000_0x80000000', '0x80000000_0xc0000000', '0xc0000000_0xffffffff'][Math.floor(full.hash / 0x40000000)]);
    // Non-ASCII names are hashed on their UTF-8 bytes.
    assert.equal(topicBundle('tenant/ns/заказы', layout).hash, zlibCrc32(Buffer.from('persistent://tenant/ns/заказы', 'utf8')));
  });

  test('property: every hash falls in exactly one bundle, the one whose range holds it (equal and explicit layouts)', () => {
    const r = rng(3);
    const layouts: NamespaceBundles[] = [];
    for (const n of [1, 2, 3, 4, 6, 7, 64, 1000]) layouts.push(NamespaceBundles.equal(n));
    for (let k = 0; k < 20; k++) {
      const cuts = new Set<number>();
      const count = randInt(r, 0, 30);
      for (let i = 0; i < count; i++) cuts.add(randInt(r, 1, 0xfffffffe));
      layouts.push(NamespaceBundles.fromBoundaries([0, ...[...cuts].sort((a, b) => a - b), 0xffffffff]));
    }
    for (const layout of layouts) {
      const probes = [0, 1, 0xfffffffe, 0xffffffff];
      for (let i = 0; i <= layout.size; i++) probes.push(layout.boundary(i), Math.max(0, layout.boundary(i) - 1));
      for (let i = 0; i < 300; i++) probes.push(randInt(r, 0, 0xffffffff));
      for (const h of probes) {
        const holders: number[] = [];
        for (let i = 0; i < layout.size; i++) {
          const b = layout.bundle(i);
          const last = i === layout.size - 1;
          if (h >= b.lower && (h < b.upper || (last && h === b.upper))) holders.push(i);
        }
        assert.equal(holders.length, 1, `hash ${h}`);
        assert.equal(layout.indexOf(h), holders[0], `hash ${h}`);
      }
    }
  });

  test('property: the bundles of an equal layout tile the hash space in order', () => {
    for (const n of [1, 3, 5, 6, 255, 256]) {
      const layout = NamespaceBundles.equal(n);
      assert.equal(layout.bundle(0).lower, 0);
      assert.equal(layout.bundle(n - 1).upper, 0xffffffff);
      for (let i = 1; i < n; i++) assert.equal(layout.bundle(i).lower, layout.bundle(i - 1).upper);
    }
  });

  test('a Java-int bundle count (2^31-1) is looked up without listing it', () => {
    const layout = NamespaceBundles.equal(0x7fffffff);
    assert.equal(layout.size, 0x7fffffff);
    assert.equal(layout.bundleOf(5).name, '0x00000004_0x00000006');
    assert.equal(layout.bundleOf(0xffffffff).name, '0xfffffffc_0xffffffff');
    assert.throws(() => layout.boundaries(), /too many/);
    assert.throws(() => NamespaceBundles.equal(0), RangeError);
  });

  test('Long.decode forms, as the broker reads boundaries and bundle ranges', () => {
    assert.equal(javaLongDecode('0x40000000'), 0x40000000n);
    assert.equal(javaLongDecode('0X4'), 4n);
    assert.equal(javaLongDecode('#ff'), 255n);
    assert.equal(javaLongDecode('010'), 8n);
    assert.equal(javaLongDecode('0'), 0n);
    assert.equal(javaLongDecode('1073741824'), 1073741824n);
    assert.equal(javaLongDecode('-0x8000000000000000'), -(1n << 63n));
    assert.equal(typeof javaLongDecode('0x8000000000000000'), 'string');
    assert.equal(typeof javaLongDecode('0x'), 'string');
    assert.equal(typeof javaLongDecode('08'), 'string');
    assert.equal(typeof javaLongDecode('0x-1'), 'string');
    assert.equal(typeof javaLongDecode(' 1'), 'string');
  });

  test('bundle ranges "LOWER_UPPER"', () => {
    assert.deepEqual(parseBundleRange('0x00000000_0x40000000'), { lower: 0, upper: 0x40000000 });
    assert.deepEqual(parseBundleRange('0xc0000000_0xffffffff'), { lower: 0xc0000000, upper: 0xffffffff });
    assert.throws(() => parseBundleRange('0x00000000'), /LOWER_UPPER/);
    assert.throws(() => parseBundleRange('0x40000000_0x00000000'), /below/);
    assert.throws(() => parseBundleRange('0x0_0x100000000'), /outside/);
    assert.throws(() => parseBundleRange('0x0_zz'), /upper end/);
  });
});

describe('keyRouting.pulsarNamespaces validation', () => {
  const parse = (ns: unknown): { problems: Problem[]; namespaces: ReturnType<typeof parseSettings>['settings']['namespaces'] } => {
    const { settings, problems } = parseSettings({ 'keyRouting.pulsarNamespaces': ns });
    return { problems, namespaces: settings.namespaces };
  };

  test('bundle counts: 1..2^31-1 as the broker takes an int > 0; default 4', () => {
    assert.deepEqual(parse([{ name: 'a/b' }]).namespaces, [{ name: 'a/b', bundles: 4 }]);
    assert.equal(parse([{ name: 'a/b', bundles: 0x7fffffff }]).problems.length, 0);
    for (const bad of [0, -1, 0x80000000, 2.5, '4']) {
      const { problems } = parse([{ name: 'a/b', bundles: bad }]);
      assert.equal(problems.length, 1, String(bad));
      assert.equal(problems[0].path, 'keyRouting.pulsarNamespaces[0].bundles');
      assert.match(problems[0].message, /integer from 1 to 2147483647/);
    }
  });

  test('boundaries: sorted and de-duplicated as the broker does, any Long.decode form', () => {
    const { problems, namespaces } = parse([{ name: 't/ns', boundaries: ['0xffffffff', '0x40000000', '0', '0x40000000', '#80000000', 3221225472] }]);
    assert.deepEqual(problems, []);
    assert.deepEqual(namespaces, [{ name: 't/ns', bundles: 4, boundaries: [0, 0x40000000, 0x80000000, 0xc0000000, 0xffffffff] }]);
    const layout = namespaceBundles(namespaces[0]);
    assert.equal(layout.bundleOf(0x90000000).name, '0x80000000_0xc0000000');
  });

  test('boundaries that do not cover the hash space get the broker\'s answer, with the setting path', () => {
    const { problems } = parse([{ name: 'ok/ns', bundles: 2 }, { name: 't/ns', boundaries: ['0x00000000', '0x40000000'] }]);
    assert.equal(problems.length, 1);
    assert.equal(problems[0].path, 'keyRouting.pulsarNamespaces[1].boundaries');
    assert.match(problems[0].message, /Input bundles do not cover the whole hash range\. first:0x00000000, last:0x40000000/);
  });

  test('bad boundary values name their index', () => {
    const cases: [unknown[], string, RegExp][] = [
      [['0x00000000', '0xzz', '0xffffffff'], '[1]', /hex string/],
      [['0x00000000', '-1', '0xffffffff'], '[1]', /0x00000000\.\.0xffffffff/],
      [['0x00000000', '0x100000000', '0xffffffff'], '[1]', /0x00000000\.\.0xffffffff/],
      [['0x00000000', true, '0xffffffff'], '[1]', /hex string/],
    ];
    for (const [b, idx, re] of cases) {
      const { problems } = parse([{ name: 't/ns', boundaries: b }]);
      assert.equal(problems.length, 1);
      assert.equal(problems[0].path, `keyRouting.pulsarNamespaces[0].boundaries${idx}`);
      assert.match(problems[0].message, re);
    }
    assert.equal(parse([{ name: 't/ns', boundaries: [] }]).problems[0].path, 'keyRouting.pulsarNamespaces[0].boundaries');
  });

  test('names, duplicates, and both forms at once', () => {
    const { problems, namespaces } = parse([
      { name: 'a/b' },
      { name: 'a/b', bundles: 2 },
      { name: 'nope' },
      { name: 'x/y', bundles: 2, boundaries: ['0x0', '0xffffffff'] },
      { name: 'legacy/cluster/ns', bundles: 8 },
    ]);
    assert.deepEqual(
      problems.map((p) => p.path),
      ['keyRouting.pulsarNamespaces[1].name', 'keyRouting.pulsarNamespaces[2].name', 'keyRouting.pulsarNamespaces[3]'],
    );
    assert.match(problems[0].message, /duplicate namespace "a\/b" \(also keyRouting\.pulsarNamespaces\[0\]\)/);
    assert.deepEqual(namespaces.map((n) => n.name), ['a/b', 'legacy/cluster/ns']);
  });
});
