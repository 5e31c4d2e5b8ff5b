// Arrays of entries sorted by key (string order, as lib/snapshot hands them out).

/** Index of the first entry whose key is ≥ `key` (`list.length` when none). */
export function lowerBoundByKey(list: readonly { key: string }[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
