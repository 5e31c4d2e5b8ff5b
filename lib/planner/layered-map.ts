// A read-only map handed out after every change, at a cost proportional to the change: a
// shared base map that is never mutated, plus a small layer of what changed since it was
// taken. It iterates exactly as a Map edited the same way would: keys of the base in base
// order (a replaced value in place, a deleted key skipped), then keys added since, in the
// order they were added (a base key deleted and added again comes back at the end, as in a
// Map). Two maps over the same base are compared through their layers alone
// (`layeredDifference`), so a re-plan after one watch event does not walk 13k tables.
// Values are never `undefined`. Pure: no I/O.

const GONE: symbol = Symbol("layered-map.gone");
/** a replaced value, or GONE (values are objects, never symbols) */
type Over<V> = V | symbol;
const BRAND = Symbol("layered-map");

/** A LayeredMap. */
export function isLayered<K, V>(m: ReadonlyMap<K, V>): m is LayeredMap<K, V> {
  return (m as { [BRAND]?: boolean })[BRAND] === true;
}

/** A key's value through a layer: added since, else replaced or deleted, else the base's. */
function layeredGet<K, V>(
  base: ReadonlyMap<K, V>,
  over: ReadonlyMap<K, Over<V>>,
  added: ReadonlyMap<K, V>,
  key: K,
): V | undefined {
  const a = added.get(key);
  if (a !== undefined) return a;
  const o = over.get(key);
  if (o !== undefined) return o === GONE ? undefined : (o as V);
  return base.get(key);
}

export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  readonly [BRAND] = true;

  constructor(
    /** never mutated */
    readonly base: ReadonlyMap<K, V>,
    /** base keys replaced (a value) or deleted (GONE) */
    readonly over: ReadonlyMap<K, Over<V>>,
    /** keys not in the base (or deleted from it and added again), in the order added */
    readonly added: ReadonlyMap<K, V>,
    readonly size: number,
  ) {}

  get(key: K): V | undefined {
    return layeredGet(this.base, this.over, this.added, key);
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  *entries(): MapIterator<[K, V]> {
    const over = this.over;
    if (over.size === 0) yield* this.base.entries();
    else
      for (const entry of this.base) {
        const o = over.get(entry[0]);
        if (o === undefined) yield entry;
        else if (o !== GONE) yield [entry[0], o as V];
      }
    yield* this.added.entries();
  }

  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) fn.call(thisArg, value, key, this);
  }
}

/**
 * The writer's side: edits as a Map would take them, and `publish()` hands out an
 * immutable view. A writer may start from any hand-out (of this writer or another): the
 * hand-out is never changed, so two writers may continue one hand-out apart. The layer is folded into a new base once it passes `compactAt` keys
 * (a full copy every few hundred changes instead of one per change).
 */
export class LayeredMapWriter<K, V> {
  private base: ReadonlyMap<K, V>;
  private over = new Map<K, Over<V>>();
  private added = new Map<K, V>();
  private count: number;
  private published: ReadonlyMap<K, V> | null = null;

  constructor(
    base: ReadonlyMap<K, V> = new Map(),
    private readonly compactAt = (size: number) => Math.max(256, size >> 5),
  ) {
    if (isLayered(base)) {
      // continue a hand-out: its base, a copy of its layer (the hand-out stays as it was)
      this.base = base.base;
      this.over = new Map(base.over);
      this.added = new Map(base.added);
    } else this.base = base;
    this.count = base.size;
  }

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    return layeredGet(this.base, this.over, this.added, key);
  }

  set(key: K, value: V): void {
    this.published = null;
    if (this.added.has(key)) return void this.added.set(key, value);
    const o = this.over.get(key);
    if (o === GONE || !this.base.has(key)) {
      this.added.set(key, value);
      this.count++;
      return;
    }
    this.over.set(key, value);
  }

  delete(key: K): void {
    if (this.added.delete(key)) {
      this.published = null;
      this.count--;
      return;
    }
    if (this.over.get(key) === GONE || !this.base.has(key)) return;
    this.published = null;
    this.over.set(key, GONE);
    this.count--;
  }

  /** The map as it stands: the base itself while nothing changed, else a layered view. */
  publish(): ReadonlyMap<K, V> {
    if (this.published) return this.published;
    if (this.over.size + this.added.size > this.compactAt(this.count)) this.compact();
    this.published =
      this.over.size === 0 && this.added.size === 0
        ? this.base
        : new LayeredMap(this.base, new Map(this.over), new Map(this.added), this.count);
    return this.published;
  }

  private compact(): void {
    const next = new Map<K, V>();
    for (const [key, value] of new LayeredMap(this.base, this.over, this.added, this.count)) next.set(key, value);
    this.base = next;
    this.over = new Map();
    this.added = new Map();
  }
}

function baseOf<K, V>(m: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
  return isLayered(m) ? m.base : m;
}

/**
 * The keys whose value (by identity) or presence differs between `a` and `b`, and whether
 * both list the same keys in the same order — from their layers alone; null when the two
 * do not share a base (the caller walks them).
 */
export function layeredDifference<K, V>(
  a: ReadonlyMap<K, V>,
  b: ReadonlyMap<K, V>,
): { keys: Set<K>; sameOrder: boolean } | null {
  if (baseOf(a) !== baseOf(b) || (!isLayered(a) && !isLayered(b))) return null;
  const keys = new Set<K>();
  const layers = (m: ReadonlyMap<K, V>) => (isLayered(m) ? m : null);
  for (const m of [layers(a), layers(b)]) {
    if (!m) continue;
    for (const key of m.over.keys()) if (a.get(key) !== b.get(key)) keys.add(key);
    for (const key of m.added.keys()) if (a.get(key) !== b.get(key)) keys.add(key);
  }
  return { keys, sameOrder: sameKeyOrder(layers(a), layers(b)) };
}

/** Same base: the same base keys deleted and the same keys added, in the same order. */
function sameKeyOrder<K, V>(a: LayeredMap<K, V> | null, b: LayeredMap<K, V> | null): boolean {
  const gone = (m: LayeredMap<K, V> | null) => {
    const out = new Set<K>();
    if (m) for (const [key, o] of m.over) if (o === GONE) out.add(key);
    return out;
  };
  const ga = gone(a);
  const gb = gone(b);
  if (ga.size !== gb.size) return false;
  for (const key of ga) if (!gb.has(key)) return false;
  const xa = a ? [...a.added.keys()] : [];
  const xb = b ? [...b.added.keys()] : [];
  return xa.length === xb.length && xa.every((key, i) => key === xb[i]);
}
