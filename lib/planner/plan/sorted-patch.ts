// Sorted lists kept by patching instead of re-sorting: the planner order is total (targets
// are unique; replan.ts never patches a list holding a NaN key), so binary search finds
// where an item goes and the patched list equals a sort of the new items.

/** First index in `items[from..]` whose item is not before `item`. */
export function lowerBound<T>(items: readonly T[], item: T, compare: (a: T, b: T) => number, from = 0): number {
  let lo = from;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(items[mid], item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `old` without `removed`, with `inserted` (sorted by `compare`) in place, and each item
 * that `replaced` maps swapped for its replacement (which sorts the same). A new array.
 */
export function patchSorted<T>(
  old: readonly T[],
  removed: ReadonlySet<T>,
  inserted: readonly T[],
  compare: (a: T, b: T) => number,
  replaced?: ReadonlyMap<T, T>,
): T[] {
  if (removed.size === 0 && inserted.length === 0 && (replaced === undefined || replaced.size === 0)) return old.slice();
  const out: T[] = [];
  const copy = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const item = old[i];
      if (removed.size > 0 && removed.has(item)) continue;
      out.push(replaced === undefined || replaced.size === 0 ? item : (replaced.get(item) ?? item));
    }
  };
  let from = 0;
  for (const item of inserted) {
    const at = lowerBound(old, item, compare, from);
    copy(from, at);
    out.push(item);
    from = at;
  }
  copy(from, old.length);
  return out;
}
