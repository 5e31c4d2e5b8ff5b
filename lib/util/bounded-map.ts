// The one bounded map: a Map that keeps at most `maxEntries` entries (and, with `weigh`,
// at most `maxWeight` of total weight), dropping the oldest first. "Oldest" is what the
// caller says it is: the entry least recently *set*, or least recently *used* (a get counts
// too: LRU). Iteration runs oldest to newest. Every cache, pool and memo of the console that
// must not grow without end is one of these, so their rules are stated, not hand-rolled.

export interface BoundedMapOptions<V> {
  /** which entry goes first: the one least recently set, or least recently set or read (LRU) */
  evict: "least-recently-set" | "least-recently-used";
  /** most entries kept (default: no limit by count) */
  maxEntries?: number;
  /** a value's weight (e.g. its bytes), counted against `maxWeight` */
  weigh?: (value: V) => number;
  /** most total weight kept; the newest entry is kept whatever it weighs */
  maxWeight?: number;
}

export class BoundedMap<K, V> implements Iterable<[K, V]> {
  private readonly map = new Map<K, V>();
  private total = 0;

  constructor(private readonly options: BoundedMapOptions<V>) {}

  get size(): number {
    return this.map.size;
  }

  /** the total weight of the entries kept (0 without `weigh`) */
  get weight(): number {
    return this.total;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** The value, made the newest entry when the map evicts the least recently used. */
  get(key: K): V | undefined {
    if (this.options.evict === "least-recently-used" && this.map.has(key)) {
      const value = this.map.get(key)!;
      this.map.delete(key);
      this.map.set(key, value);
      return value;
    }
    return this.map.get(key);
  }

  /** The value, its place kept whatever the rule. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Sets `key` as the newest entry, then drops the oldest while over a bound. */
  set(key: K, value: V): this {
    this.delete(key);
    this.map.set(key, value);
    this.total += this.options.weigh?.(value) ?? 0;
    const { maxEntries = Infinity, maxWeight = Infinity } = this.options;
    while (this.map.size > maxEntries || (this.total > maxWeight && this.map.size > 1)) this.dropOldest();
    return this;
  }

  delete(key: K): boolean {
    if (!this.map.has(key)) return false;
    this.total -= this.options.weigh?.(this.map.get(key)!) ?? 0;
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  keys(): MapIterator<K> {
    return this.map.keys();
  }

  values(): MapIterator<V> {
    return this.map.values();
  }

  entries(): MapIterator<[K, V]> {
    return this.map.entries();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.map.entries();
  }

  private dropOldest(): void {
    this.delete(this.map.keys().next().value!);
  }
}
