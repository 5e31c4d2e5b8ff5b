// The per-shard flush-time map `sealed_times` (scheduler-model.md §2.1, §3.2 step 6, §3.3):
// generation → flush ms. On the wire it is a JSON object with decimal-string keys; in
// memory it is one array of pairs `[g0, t0, g1, t1, …]`, ascending by generation, one
// pair per generation. A production read holds ~650,000 entries: as JS objects with
// integer-like keys they are dictionary elements of boxed numbers (and the GC to match);
// as pairs they are one packed array of doubles per shard, and the lookups the planner
// needs (§3.4: the time of `merged + 1`, else of the first kept generation after it) are
// a binary search. Generations compare numerically, never lexically (§12). A copy shares
// its original's array until either changes it (copy on write): the fold copies every
// event's map into its shard, and most shards have one event and never change it, so a
// fleet held its ~650,000 flush times twice (21 of a 99 MiB live heap at the production
// fleet, measured in a heap snapshot).

/** §3.3: at most 64 kept flush times per shard. */
export const SEALED_TIMES_CAP = 64;

export type SealedTimesRecord = Record<string, number>;

export class SealedTimes {
  /** `[generation, ms, …]`, ascending by generation, unique generations */
  private pairs: number[];
  /** false while `pairs` may be shared with a copy (or the map copied): copied before a change in place (a # field: two maps are equal by their pairs alone, as tests compare them) */
  #owned: boolean;

  /** Trusted pairs (ascending, unique); the array is owned by the new map unless `owned` is false. */
  private constructor(pairs: number[], owned = true) {
    this.pairs = pairs;
    this.#owned = owned;
  }

  /** The pairs, to change in place: this map's own array from now on. */
  private own(): number[] {
    if (!this.#owned) {
      this.pairs = this.pairs.slice();
      this.#owned = true;
    }
    return this.pairs;
  }

  static empty(): SealedTimes {
    return new SealedTimes([]);
  }

  /**
   * From pairs already ascending by generation with no repeats (a parser that checked it);
   * the array is owned by the map from now on.
   */
  static fromSortedPairs(pairs: number[]): SealedTimes {
    return new SealedTimes(pairs);
  }

  /**
   * From the wire object. Keys must be decimal strings (the schema checks that); they are
   * read as numbers, so `"007"` and `"7"` are one generation, which keeps the lower time.
   */
  static fromRecord(record: SealedTimesRecord): SealedTimes {
    const keys = Object.keys(record);
    const pairs: number[] = [];
    let sorted = true;
    let last = -1;
    for (let i = 0; i < keys.length; i++) {
      const g = Number(keys[i]);
      if (g <= last) sorted = false;
      last = g;
      pairs.push(g, record[keys[i]]);
    }
    if (sorted) return new SealedTimes(pairs);
    const out = new SealedTimes([]);
    for (let i = 0; i < pairs.length; i += 2) out.record(pairs[i], pairs[i + 1]);
    return out;
  }

  /** From `[generation, ms]` entries in any order (min per generation). */
  static fromEntries(entries: Iterable<readonly [number, number]>): SealedTimes {
    const out = new SealedTimes([]);
    for (const [g, ms] of entries) out.record(g, ms);
    return out;
  }

  get size(): number {
    return this.pairs.length >> 1;
  }

  /** Pair index (0-based, in pairs) of the first generation ≥ `g`; `size` when none. */
  indexFrom(g: number): number {
    const pairs = this.pairs;
    let lo = 0;
    let hi = pairs.length >> 1;
    // the common probe (`merged + 1` of a shard whose times start there) ends at once
    if (hi > 0 && pairs[0] >= g) return 0;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[mid << 1] < g) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  generationAt(index: number): number {
    return this.pairs[index << 1];
  }

  timeAt(index: number): number {
    return this.pairs[(index << 1) + 1];
  }

  get(g: number): number | undefined {
    const i = this.indexFrom(g);
    return i < this.size && this.pairs[i << 1] === g ? this.pairs[(i << 1) + 1] : undefined;
  }

  /** Newest kept flush time (any generation), or null when empty. */
  newest(): number | null {
    const pairs = this.pairs;
    let newest: number | null = null;
    for (let i = 1; i < pairs.length; i += 2) if (newest === null || pairs[i] > newest) newest = pairs[i];
    return newest;
  }

  generations(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.pairs.length; i += 2) out.push(this.pairs[i]);
    return out;
  }

  entries(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.pairs.length; i += 2) out.push([this.pairs[i], this.pairs[i + 1]]);
    return out;
  }

  /** Keep the minimum time for `g`; says whether the map gained or lowered an entry. */
  record(g: number, ms: number): "added" | "lowered" | "same" {
    const n = this.pairs.length;
    if (n === 0 || this.pairs[n - 2] < g) {
      this.own().push(g, ms); // the usual case: a newer generation than any kept
      return "added";
    }
    const i = this.indexFrom(g) << 1;
    if (this.pairs[i] === g) {
      if (ms < this.pairs[i + 1]) {
        this.own()[i + 1] = ms;
        return "lowered";
      }
      return "same";
    }
    this.own().splice(i, 0, g, ms);
    return "added";
  }

  /** Union `from` into this map (min per generation). */
  merge(from: SealedTimes): { changed: boolean; added: boolean } {
    const a = this.pairs;
    const b = from.pairs;
    if (b.length === 0) return { changed: false, added: false };
    const out: number[] = [];
    let changed = false;
    let added = false;
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (j >= b.length || (i < a.length && a[i] < b[j])) {
        out.push(a[i], a[i + 1]);
        i += 2;
      } else if (i >= a.length || b[j] < a[i]) {
        out.push(b[j], b[j + 1]);
        j += 2;
        changed = added = true;
      } else {
        if (b[j + 1] < a[i + 1]) changed = true;
        out.push(a[i], Math.min(a[i + 1], b[j + 1]));
        i += 2;
        j += 2;
      }
    }
    if (changed) {
      this.pairs = out;
      this.#owned = true;
    }
    return { changed, added };
  }

  /**
   * §3.3: more than 64 entries → keep the 63 lowest generations plus the single highest.
   * By cap only (entries at or below `merged` stay), so the kept set is "lowest 63 of the
   * union ∪ {max}" whatever the arrival order.
   */
  prune(): this {
    const n = this.pairs.length >> 1;
    if (n > SEALED_TIMES_CAP) this.own().splice((SEALED_TIMES_CAP - 1) << 1, (n - SEALED_TIMES_CAP) << 1);
    return this;
  }

  /** An equal map; the two share one array until either changes. */
  copy(): SealedTimes {
    this.#owned = false;
    return new SealedTimes(this.pairs, false);
  }

  equals(other: SealedTimes): boolean {
    const a = this.pairs;
    const b = other.pairs;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /** The wire object (keys in ascending generation order, as JSON.stringify writes them). */
  toJSON(): SealedTimesRecord {
    const out: SealedTimesRecord = {};
    for (let i = 0; i < this.pairs.length; i += 2) out[String(this.pairs[i])] = this.pairs[i + 1];
    return out;
  }
}
