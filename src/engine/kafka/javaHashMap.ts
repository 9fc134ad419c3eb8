/**
 * The iteration order of `java.util.HashMap` / `HashSet` (OpenJDK 17), modelled structurally.
 *
 * Kafka's sticky and uniform assignors break ties by the order in which they iterate hash maps of
 * member ids (String), topic ids (Uuid), partitions (Integer) and TopicPartitions. That order is
 * not an insertion order: it is the order of the bucket array (index = spread hash & (capacity - 1))
 * and, within a bucket, the order of its linked list, which depends on how the map was created
 * (default, `new HashMap<>(n)`, copy constructors), how it grew (each resize splits a bucket into
 * a low and a high list, each keeping its relative order), which call inserted (`put` appends at
 * the tail, `computeIfAbsent` inserts at the head) and whether a crowded bucket became a red-black
 * "tree bin" (an insert then links the new node after its tree parent, and the root is moved to
 * the front of the list). This file reproduces all of that, so a map built by the same sequence of
 * calls iterates exactly as Java's does.
 *
 * JDK version matters: JDK 19 changed how `new HashMap<>(map)` and `new HashSet<>(collection)` size
 * their table (JDK-8281631, JDK-8284780), so the copies take the JDK whose sizing they follow:
 * 17 (JDK 17 and earlier) or 21 (JDK 19 and later: 21, 25). Everything else is the same in both.
 */

/** Which JDK's copy-constructor sizing: 17 (up to JDK 18) or 21 (JDK 19 and later). */
export type JdkSizing = 17 | 21;

/** How Java hashes, compares and identifies a key class. */
export interface KeyType<K> {
  /** The key's `hashCode()`. */
  hashCode(key: K): number;
  /** A JavaScript value equal for keys that are `equals()` in Java (for lookups). */
  id(key: K): string | number;
  /**
   * `compareTo` when the class implements `Comparable` of itself (String, Integer, Uuid); absent
   * otherwise, where a tree bin breaks ties by `System.identityHashCode`, which no model can know.
   */
  compare?(a: K, b: K): number;
}

const MAXIMUM_CAPACITY = 1 << 30;
const DEFAULT_INITIAL_CAPACITY = 16;
const TREEIFY_THRESHOLD = 8;
const UNTREEIFY_THRESHOLD = 6;
const MIN_TREEIFY_CAPACITY = 64;

/** `HashMap.hash`: the spread that folds the high half of `hashCode()` into the low half. */
export function spread(h: number): number {
  return (h ^ (h >>> 16)) | 0;
}

/** `HashMap.tableSizeFor`: the smallest power of two >= cap (1 for cap <= 1). */
export function tableSizeFor(cap: number): number {
  if (cap <= 1) return 1;
  const n = -1 >>> Math.clz32(cap - 1);
  return n >= MAXIMUM_CAPACITY ? MAXIMUM_CAPACITY : n + 1;
}

/** Java's `(int) f` for a non-negative float value. */
function intOf(f: number): number {
  return f >= 2147483647 ? 2147483647 : Math.trunc(f);
}

class Node<K, V> {
  next: Node<K, V> | null;
  // Tree-bin links, used once the bucket is a tree bin.
  tree = false;
  parent: Node<K, V> | null = null;
  left: Node<K, V> | null = null;
  right: Node<K, V> | null = null;
  prev: Node<K, V> | null = null;
  red = false;
  constructor(
    readonly hash: number,
    readonly key: K,
    public value: V,
    next: Node<K, V> | null,
  ) {
    this.next = next;
  }
}

export class JavaHashMap<K, V> {
  #table: Array<Node<K, V> | null> | null = null;
  #threshold = 0;
  #count = 0;
  /** Lookups by key (Java finds them by walking the bucket; the answer is the same node). */
  readonly #index = new Map<string | number, Node<K, V>>();

  constructor(readonly type: KeyType<K>) {}

  /** `new HashMap<>(initialCapacity)`. */
  static withCapacity<K, V>(type: KeyType<K>, initialCapacity: number): JavaHashMap<K, V> {
    const m = new JavaHashMap<K, V>(type);
    m.#threshold = tableSizeFor(Math.min(initialCapacity, MAXIMUM_CAPACITY));
    return m;
  }

  /** `new HashMap<>(map)` (`putMapEntries`). */
  static copyOf<K, V>(source: JavaHashMap<K, V>, jdk: JdkSizing = 17): JavaHashMap<K, V> {
    const m = new JavaHashMap<K, V>(source.type);
    m.putAll(source, jdk);
    return m;
  }

  get size(): number {
    return this.#count;
  }

  has(key: K): boolean {
    return this.#index.has(this.type.id(key));
  }

  get(key: K): V | undefined {
    return this.#index.get(this.type.id(key))?.value;
  }

  /** `put`: replaces the value of a present key in place; a new key goes to the bucket's tail. */
  set(key: K, value: V): this {
    this.#putVal(key, value, false);
    return this;
  }

  /** `putIfAbsent` (and `Collectors.toMap`'s accumulator): the same structure as `put`. */
  putIfAbsent(key: K, value: V): V | undefined {
    return this.#putVal(key, value, true);
  }

  /**
   * `putAll` (`putMapEntries`): pre-sizes an empty table (JDK 17: for `(int) (s / .75f + 1)`
   * entries; JDK 19+: `ceil(s / .75)`), or doubles a full one first.
   */
  putAll(source: JavaHashMap<K, V>, jdk: JdkSizing = 17): void {
    const s = source.size;
    if (s === 0) return;
    if (this.#table === null) {
      const f = jdk === 17 ? Math.fround(Math.fround(s / 0.75) + 1) : Math.ceil(s / 0.75);
      const t = f < MAXIMUM_CAPACITY ? intOf(f) : MAXIMUM_CAPACITY;
      if (t > this.#threshold) this.#threshold = tableSizeFor(t);
    } else {
      while (s > this.#threshold && this.#table.length < MAXIMUM_CAPACITY) this.#resize();
    }
    for (const [k, v] of source.entries()) this.#putVal(k, v, false);
  }

  /**
   * `computeIfAbsent`: unlike `put`, it resizes *before* looking (whenever the size already exceeds
   * the threshold, even if the key is present), inserts a new key at the *head* of its bucket and
   * does not resize after inserting.
   */
  computeIfAbsent(key: K, create: (key: K) => V): V {
    const hash = spread(this.type.hashCode(key));
    if (this.#count > this.#threshold || this.#table === null || this.#table.length === 0) this.#resize();
    const existing = this.#index.get(this.type.id(key));
    if (existing) return existing.value;
    const tab = this.#table!;
    const i = (tab.length - 1) & hash;
    const first = tab[i];
    const v = create(key);
    if (first !== null && first.tree) {
      this.#putTreeVal(tab, hash, key, v);
    } else {
      let binCount = 0;
      for (let e = first; e !== null; e = e.next) binCount++;
      const node = new Node(hash, key, v, first);
      tab[i] = node;
      this.#index.set(this.type.id(key), node);
      if (binCount >= TREEIFY_THRESHOLD - 1) this.#treeifyBin(tab, hash);
    }
    this.#count++;
    return v;
  }

  /** `remove(key)`. */
  delete(key: K): boolean {
    return this.#removeNode(key, true);
  }

  /** `Iterator.remove()` during iteration: like `remove`, but a tree bin's root is not moved. */
  deleteWhileIterating(key: K): boolean {
    return this.#removeNode(key, false);
  }

  /** Iteration order: buckets in index order, each bucket's list from its head. */
  *entries(): IterableIterator<[K, V]> {
    const tab = this.#table;
    if (!tab || this.#count === 0) return;
    for (let i = 0; i < tab.length; i++) for (let e = tab[i]; e !== null; e = e.next) yield [e.key, e.value];
  }

  // Keys and values walk the table themselves, in the same order: through `entries` each cost a
  // second generator and a pair per element (a KIP-848 group of 500 members on 200 topics
  // iterates 300,000 subscribed topic names a rebalance).
  *keys(): IterableIterator<K> {
    const tab = this.#table;
    if (!tab || this.#count === 0) return;
    for (let i = 0; i < tab.length; i++) for (let e = tab[i]; e !== null; e = e.next) yield e.key;
  }

  *values(): IterableIterator<V> {
    const tab = this.#table;
    if (!tab || this.#count === 0) return;
    for (let i = 0; i < tab.length; i++) for (let e = tab[i]; e !== null; e = e.next) yield e.value;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  // ---- insertion and resizing ----

  #putVal(key: K, value: V, onlyIfAbsent: boolean): V | undefined {
    const existing = this.#index.get(this.type.id(key));
    if (existing) {
      const old = existing.value;
      if (!onlyIfAbsent || old === undefined || old === null) existing.value = value;
      return old;
    }
    const hash = spread(this.type.hashCode(key));
    if (this.#table === null || this.#table.length === 0) this.#resize();
    const tab = this.#table!;
    const i = (tab.length - 1) & hash;
    const p = tab[i];
    if (p === null) {
      const node = new Node(hash, key, value, null);
      tab[i] = node;
      this.#index.set(this.type.id(key), node);
    } else if (p.tree) {
      this.#putTreeVal(tab, hash, key, value);
    } else {
      // Append at the tail; a bucket that had 8 nodes becomes a tree bin (or the table grows).
      let binCount = 0;
      let last = p;
      while (last.next !== null) {
        last = last.next;
        binCount++;
      }
      const node = new Node(hash, key, value, null);
      last.next = node;
      this.#index.set(this.type.id(key), node);
      if (binCount >= TREEIFY_THRESHOLD - 1) this.#treeifyBin(tab, hash);
    }
    if (++this.#count > this.#threshold) this.#resize();
    return undefined;
  }

  #resize(): void {
    const oldTab = this.#table;
    const oldCap = oldTab === null ? 0 : oldTab.length;
    const oldThr = this.#threshold;
    let newCap: number;
    let newThr = 0;
    if (oldCap > 0) {
      if (oldCap >= MAXIMUM_CAPACITY) {
        this.#threshold = 2147483647;
        return;
      }
      newCap = oldCap * 2;
      if (newCap < MAXIMUM_CAPACITY && oldCap >= DEFAULT_INITIAL_CAPACITY) newThr = oldThr * 2;
    } else if (oldThr > 0) {
      newCap = oldThr;
    } else {
      newCap = DEFAULT_INITIAL_CAPACITY;
      newThr = 12;
    }
    if (newThr === 0) {
      const ft = Math.fround(newCap * 0.75);
      newThr = newCap < MAXIMUM_CAPACITY && ft < MAXIMUM_CAPACITY ? intOf(ft) : 2147483647;
    }
    this.#threshold = newThr;
    const newTab: Array<Node<K, V> | null> = new Array(newCap).fill(null);
    this.#table = newTab;
    if (oldTab === null) return;
    for (let j = 0; j < oldCap; j++) {
      const e = oldTab[j];
      if (e === null) continue;
      oldTab[j] = null;
      if (e.next === null) newTab[e.hash & (newCap - 1)] = e;
      else if (e.tree) this.#split(newTab, e, j, oldCap);
      else {
        // Split the list in two, each keeping its order.
        const [lo, hi] = splitList(e, oldCap);
        if (lo) newTab[j] = lo;
        if (hi) newTab[j + oldCap] = hi;
      }
    }
  }

  // ---- tree bins ----

  #treeifyBin(tab: Array<Node<K, V> | null>, hash: number): void {
    if (tab.length < MIN_TREEIFY_CAPACITY) {
      this.#resize();
      return;
    }
    const index = (tab.length - 1) & hash;
    const hd = tab[index];
    if (hd === null) return;
    let prev: Node<K, V> | null = null;
    for (let e: Node<K, V> | null = hd; e !== null; e = e.next) {
      e.tree = true;
      e.prev = prev;
      prev = e;
    }
    this.#treeify(tab, hd);
  }

  /** Builds a red-black tree over the list starting at `head` (list order kept), root moved to the front. */
  #treeify(tab: Array<Node<K, V> | null>, head: Node<K, V>): void {
    let root: Node<K, V> | null = null;
    for (let x: Node<K, V> | null = head; x !== null; x = x.next) {
      x.left = x.right = null;
      x.tree = true;
      if (root === null) {
        x.parent = null;
        x.red = false;
        root = x;
        continue;
      }
      for (let p: Node<K, V> = root; ; ) {
        const dir = this.#direction(x.hash, x.key, p);
        const child = dir <= 0 ? p.left : p.right;
        if (child === null) {
          x.parent = p;
          if (dir <= 0) p.left = x;
          else p.right = x;
          root = balanceInsertion(root, x);
          break;
        }
        p = child;
      }
    }
    moveRootToFront(tab, root);
  }

  /** Which side of `p` a key with this hash goes (hash first, then `compareTo`). */
  #direction(h: number, k: K, p: Node<K, V>): number {
    if (p.hash > h) return -1;
    if (p.hash < h) return 1;
    const cmp = this.type.compare ? this.type.compare(k, p.key) : 0;
    if (cmp === 0) {
      // tieBreakOrder: System.identityHashCode, unknowable; never the case for String, Integer or Uuid keys.
      throw new Error('JavaHashMap: a tree bin would order two keys by identity hash, which cannot be modelled');
    }
    return cmp;
  }

  #putTreeVal(tab: Array<Node<K, V> | null>, h: number, k: K, v: V): void {
    const first = tab[(tab.length - 1) & h]!;
    const root = rootOf(first);
    for (let p: Node<K, V> = root; ; ) {
      const dir = this.#direction(h, k, p);
      const child = dir <= 0 ? p.left : p.right;
      if (child === null) {
        // The new node is linked right after its tree parent in the bucket's list.
        const xpn = p.next;
        const x = new Node(h, k, v, xpn);
        x.tree = true;
        if (dir <= 0) p.left = x;
        else p.right = x;
        p.next = x;
        x.parent = x.prev = p;
        if (xpn !== null) xpn.prev = x;
        this.#index.set(this.type.id(k), x);
        moveRootToFront(tab, balanceInsertion(root, x));
        return;
      }
      p = child;
    }
  }

  #split(tab: Array<Node<K, V> | null>, b: Node<K, V>, index: number, bit: number): void {
    let loHead: Node<K, V> | null = null;
    let loTail: Node<K, V> | null = null;
    let hiHead: Node<K, V> | null = null;
    let hiTail: Node<K, V> | null = null;
    let lc = 0;
    let hc = 0;
    for (let e: Node<K, V> | null = b, next: Node<K, V> | null; e !== null; e = next) {
      next = e.next;
      e.next = null;
      if ((e.hash & bit) === 0) {
        e.prev = loTail;
        if (loTail === null) loHead = e;
        else loTail.next = e;
        loTail = e;
        lc++;
      } else {
        e.prev = hiTail;
        if (hiTail === null) hiHead = e;
        else hiTail.next = e;
        hiTail = e;
        hc++;
      }
    }
    if (loHead !== null) {
      if (lc <= UNTREEIFY_THRESHOLD) tab[index] = untreeify(loHead);
      else {
        tab[index] = loHead;
        if (hiHead !== null) this.#treeify(tab, loHead);
      }
    }
    if (hiHead !== null) {
      if (hc <= UNTREEIFY_THRESHOLD) tab[index + bit] = untreeify(hiHead);
      else {
        tab[index + bit] = hiHead;
        if (loHead !== null) this.#treeify(tab, hiHead);
      }
    }
  }

  // ---- removal ----

  #removeNode(key: K, movable: boolean): boolean {
    const node = this.#index.get(this.type.id(key));
    if (!node) return false;
    const tab = this.#table!;
    const index = (tab.length - 1) & node.hash;
    if (node.tree) this.#removeTreeNode(tab, node, movable);
    else if (tab[index] === node) tab[index] = node.next;
    else {
      let p = tab[index]!;
      while (p.next !== node) p = p.next!;
      p.next = node.next;
    }
    this.#index.delete(this.type.id(key));
    this.#count--;
    return true;
  }

  #removeTreeNode(tab: Array<Node<K, V> | null>, p: Node<K, V>, movable: boolean): void {
    const index = (tab.length - 1) & p.hash;
    let first = tab[index]!;
    let root: Node<K, V> | null = first;
    const succ = p.next;
    const pred = p.prev;
    if (pred === null) tab[index] = first = succ!;
    else pred.next = succ;
    if (succ !== null) succ.prev = pred;
    if (first === null) return;
    if (root.parent !== null) root = rootOf(root);
    let rl: Node<K, V> | null;
    if (root === null || (movable && (root.right === null || (rl = root.left) === null || rl.left === null))) {
      tab[index] = untreeify(first); // too small
      return;
    }
    const pl = p.left;
    const pr = p.right;
    let replacement: Node<K, V>;
    if (pl !== null && pr !== null) {
      let s = pr;
      while (s.left !== null) s = s.left;
      const c = s.red;
      s.red = p.red;
      p.red = c;
      const sr = s.right;
      const pp = p.parent;
      if (s === pr) {
        p.parent = s;
        s.right = p;
      } else {
        const sp = s.parent;
        p.parent = sp;
        if (sp !== null) {
          if (s === sp.left) sp.left = p;
          else sp.right = p;
        }
        s.right = pr;
        pr.parent = s;
      }
      p.left = null;
      p.right = sr;
      if (sr !== null) sr.parent = p;
      s.left = pl;
      pl.parent = s;
      s.parent = pp;
      if (pp === null) root = s;
      else if (p === pp.left) pp.left = s;
      else pp.right = s;
      replacement = sr !== null ? sr : p;
    } else if (pl !== null) replacement = pl;
    else if (pr !== null) replacement = pr;
    else replacement = p;
    if (replacement !== p) {
      const pp = (replacement.parent = p.parent);
      if (pp === null) (root = replacement).red = false;
      else if (p === pp.left) pp.left = replacement;
      else pp.right = replacement;
      p.left = p.right = p.parent = null;
    }
    const r = p.red ? root : balanceDeletion(root, replacement);
    if (replacement === p) {
      const pp = p.parent;
      p.parent = null;
      if (pp !== null) {
        if (p === pp.left) pp.left = null;
        else if (p === pp.right) pp.right = null;
      }
    }
    if (movable) moveRootToFront(tab, r);
  }
}

function splitList<K, V>(e: Node<K, V>, oldCap: number): [Node<K, V> | null, Node<K, V> | null] {
  let loHead: Node<K, V> | null = null;
  let loTail: Node<K, V> | null = null;
  let hiHead: Node<K, V> | null = null;
  let hiTail: Node<K, V> | null = null;
  for (let x: Node<K, V> | null = e, next: Node<K, V> | null; x !== null; x = next) {
    next = x.next;
    if ((x.hash & oldCap) === 0) {
      if (loTail === null) loHead = x;
      else loTail.next = x;
      loTail = x;
    } else {
      if (hiTail === null) hiHead = x;
      else hiTail.next = x;
      hiTail = x;
    }
  }
  if (loTail) loTail.next = null;
  if (hiTail) hiTail.next = null;
  return [loHead, hiHead];
}

/** Back to a plain list bin: the same nodes in the same order, tree links dropped. */
function untreeify<K, V>(head: Node<K, V>): Node<K, V> {
  for (let q: Node<K, V> | null = head; q !== null; q = q.next) {
    q.tree = false;
    q.parent = q.left = q.right = q.prev = null;
    q.red = false;
  }
  return head;
}

function rootOf<K, V>(n: Node<K, V>): Node<K, V> {
  let r = n;
  while (r.parent !== null) r = r.parent;
  return r;
}

function moveRootToFront<K, V>(tab: Array<Node<K, V> | null>, root: Node<K, V> | null): void {
  if (root === null || tab.length === 0) return;
  const index = (tab.length - 1) & root.hash;
  const first = tab[index];
  if (root === first) return;
  tab[index] = root;
  const rp = root.prev;
  const rn = root.next;
  if (rn !== null) rn.prev = rp;
  if (rp !== null) rp.next = rn;
  if (first !== null) first.prev = root;
  root.next = first;
  root.prev = null;
}

/**
 * `rotateLeft` (left = true) and its mirror `rotateRight`: the red-black tree methods below are
 * written once with a side flag, Java writes each twice with left and right swapped.
 */
function rotate<K, V>(root: Node<K, V> | null, p: Node<K, V> | null, left: boolean): Node<K, V> | null {
  const r = p === null ? null : left ? p.right : p.left;
  if (p === null || r === null) return root;
  const inner = left ? r.left : r.right;
  if (left) p.right = inner;
  else p.left = inner;
  if (inner !== null) inner.parent = p;
  const pp = (r.parent = p.parent);
  if (pp === null) (root = r).red = false;
  else if (pp.left === p) pp.left = r;
  else pp.right = r;
  if (left) r.left = p;
  else r.right = p;
  p.parent = r;
  return root;
}

function balanceInsertion<K, V>(root: Node<K, V> | null, x: Node<K, V>): Node<K, V> | null {
  x.red = true;
  for (;;) {
    let xp = x.parent;
    let xpp: Node<K, V> | null;
    if (xp === null) {
      x.red = false;
      return x;
    } else if (!xp.red || (xpp = xp.parent) === null) return root;
    // `left`: the parent is a left child (Java's first branch); the other branch mirrors it.
    const left = xp === xpp.left;
    const uncle = left ? xpp.right : xpp.left;
    if (uncle !== null && uncle.red) {
      uncle.red = false;
      xp.red = false;
      xpp.red = true;
      x = xpp;
      continue;
    }
    if (x === (left ? xp.right : xp.left)) {
      root = rotate(root, (x = xp), left);
      xp = x.parent;
      xpp = xp === null ? null : xp.parent;
    }
    if (xp !== null) {
      xp.red = false;
      if (xpp !== null) {
        xpp.red = true;
        root = rotate(root, xpp, !left);
      }
    }
  }
}

function balanceDeletion<K, V>(root: Node<K, V> | null, x: Node<K, V> | null): Node<K, V> | null {
  for (;;) {
    let xp: Node<K, V> | null;
    if (x === null || x === root) return root;
    else if ((xp = x.parent) === null) {
      x.red = false;
      return x;
    } else if (x.red) {
      x.red = false;
      return root;
    }
    // `left`: x is a left child (Java's first branch); the other branch mirrors it.
    const left = xp.left === x;
    const siblingOf = (p: Node<K, V> | null) => (p === null ? null : left ? p.right : p.left);
    let s = siblingOf(xp);
    if (s !== null && s.red) {
      s.red = false;
      xp.red = true;
      root = rotate(root, xp, left);
      xp = x.parent;
      s = siblingOf(xp);
    }
    if (s === null) {
      x = xp;
      continue;
    }
    const near = left ? s.left : s.right;
    let far = left ? s.right : s.left;
    if ((far === null || !far.red) && (near === null || !near.red)) {
      s.red = true;
      x = xp;
      continue;
    }
    if (far === null || !far.red) {
      if (near !== null) near.red = false;
      s.red = true;
      root = rotate(root, s, !left);
      xp = x.parent;
      s = siblingOf(xp);
    }
    if (s !== null) {
      s.red = xp === null ? false : xp.red;
      far = left ? s.right : s.left;
      if (far !== null) far.red = false;
    }
    if (xp !== null) {
      xp.red = false;
      root = rotate(root, xp, left);
    }
    x = root;
  }
}

/** `java.util.HashSet`: a `HashMap` whose keys are the elements. */
export class JavaHashSet<K> {
  private constructor(private readonly map: JavaHashMap<K, true>) {}

  /** `new HashSet<>()`. */
  static empty<K>(type: KeyType<K>): JavaHashSet<K> {
    return new JavaHashSet(new JavaHashMap<K, true>(type));
  }

  /** `new HashSet<>(initialCapacity)`. */
  static withCapacity<K>(type: KeyType<K>, initialCapacity: number): JavaHashSet<K> {
    return new JavaHashSet(JavaHashMap.withCapacity<K, true>(type, initialCapacity));
  }

  /**
   * `new HashSet<>(collection)`: a table for `max((int) (n / .75f) + 1, 16)` entries (JDK 17) or
   * `ceil(max(n, 12) / .75)` (JDK 19+, `HashMap.newHashMap`), then the elements added in the
   * collection's iteration order. (12 elements: 32 buckets on JDK 17, 16 on JDK 21.)
   */
  static copyOf<K>(type: KeyType<K>, elements: Iterable<K>, jdk: JdkSizing = 17): JavaHashSet<K> {
    const list = Array.isArray(elements) ? (elements as K[]) : [...elements];
    const n = list.length;
    const s = JavaHashSet.withCapacity(type, jdk === 17 ? Math.max(intOf(Math.fround(n / 0.75)) + 1, 16) : Math.ceil(Math.max(n, 12) / 0.75));
    for (const e of list) s.add(e);
    return s;
  }

  get size(): number {
    return this.map.size;
  }

  has(e: K): boolean {
    return this.map.has(e);
  }

  /** `add`: true if the element was not there. */
  add(e: K): boolean {
    return this.map.putIfAbsent(e, true) === undefined;
  }

  delete(e: K): boolean {
    return this.map.delete(e);
  }

  /** `Iterator.remove()`: a tree bin's root is not moved. */
  deleteWhileIterating(e: K): boolean {
    return this.map.deleteWhileIterating(e);
  }

  [Symbol.iterator](): IterableIterator<K> {
    return this.map.keys();
  }
}

// ---- key types of the classes Kafka's assignors put in hash maps ----

/** `String`: `hashCode` over UTF-16 code units; `compareTo` by code units (as JavaScript's `<`). */
export const STRING: KeyType<string> = {
  hashCode(s) {
    let h = 0;
    for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
    return h;
  },
  id: (s) => s,
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
};

/** `Integer`: the value is its own hash. */
export const INTEGER: KeyType<number> = {
  hashCode: (n) => n | 0,
  id: (n) => n,
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
};
