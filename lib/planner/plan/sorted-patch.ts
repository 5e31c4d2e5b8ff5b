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

/** Up to this many changes are patched by binary search and splicing, more by one merge pass. */
const FEW = 64;

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
  const replacements = replaced?.size ?? 0;
  if (removed.size + inserted.length + replacements <= FEW) {
    // a few changes: find each by binary search in a copy (the items sort as before)
    const out = old.slice();
    for (const item of removed) {
      const at = lowerBound(out, item, compare);
      if (out[at] === item) out.splice(at, 1);
    }
    for (const item of inserted) out.splice(lowerBound(out, item, compare), 0, item);
    if (replaced) for (const [item, by] of replaced) out[lowerBound(out, item, compare)] = by;
    return out;
  }
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
