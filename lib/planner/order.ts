// The total planner order (scheduler-model.md §4.1): class ascending; within class 1 the
// larger wait first (known before unknown; two unknowns equal); within other classes score
// descending (NaN treated equal); final tiebreak target ascending in UTF-8 byte order.

export interface OrderKey {
  target: string;
  class_rank: number;
  wait_ms: number | null;
  score: number;
}

/** Map a UTF-16 unit so that unit order equals code point (= UTF-8 byte) order. */
function fixup(c: number): number {
  if (c >= 0xd800 && c <= 0xdfff) return c + 0x2000;
  if (c >= 0xe000) return c - 0x800;
  return c;
}

/** Compare two strings by their UTF-8 bytes (Rust `String` order). */
export function compareTargets(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) < fixup(y) ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

export function comparePlannerOrder(a: OrderKey, b: OrderKey): number {
  return compareOrderFields(a.class_rank, a.wait_ms, a.score, a.target, b.class_rank, b.wait_ms, b.score, b.target);
}

/**
 * `comparePlannerOrder` on loose fields, for callers that keep the key inside a larger
 * record (no key object per item; lib/planner/plan sorts 13k tables per refresh).
 */
export function compareOrderFields(
  rankA: number,
  waitA: number | null,
  scoreA: number,
  targetA: string,
  rankB: number,
  waitB: number | null,
  scoreB: number,
  targetB: string,
): number {
  if (rankA !== rankB) return rankA < rankB ? -1 : 1;
  if (rankA === 1) {
    if (waitA !== null && waitB !== null) {
      if (waitA !== waitB) return waitA > waitB ? -1 : 1;
    } else if (waitA !== null) return -1;
    else if (waitB !== null) return 1;
  } else if (scoreA > scoreB) return -1;
  else if (scoreA < scoreB) return 1; // equal or NaN: fall through
  return compareTargets(targetA, targetB);
}

/** Merge two lists each already sorted by `compare` into one sorted list (stable: `a` first on ties). */
export function mergeSorted<T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number): T[] {
  if (b.length === 0) return a.slice();
  if (a.length === 0) return b.slice();
  // disjoint ranges (e.g. placeable candidates before tails and idle tables): concatenate
  if (compare(b[0], a[a.length - 1]) > 0) return a.concat(b);
  const out: T[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compare(b[j], a[i]) < 0 ? b[j++] : a[i++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

/** Sorted copy in planner order (stable; targets are unique, so the order is total). */
export function sortPlannerOrder<T extends OrderKey>(items: readonly T[]): T[] {
  return sortByPlannerKey(items, orderKeyOf);
}

const orderKeyOf = <T extends OrderKey>(item: T): OrderKey => item;

/**
 * Planner order of `items` by the key `keyOf` returns (read once per item), as a new array —
 * the same result as sorting with `comparePlannerOrder`, in fewer comparisons: items are
 * grouped by (class, wait or score), the groups ordered by number, and only items of one
 * group are compared by target (a fleet listed in target order, as etcd lists it, makes each
 * group one run: linear). Falls back to the comparator sort if a score or wait is NaN.
 */
export function sortByPlannerKey<T>(items: readonly T[], keyOf: (item: T) => OrderKey): T[] {
  const groups = new Map<number, Map<number | null, { target: string; item: T }[]>>();
  for (let i = 0; i < items.length; i++) {
    const key = keyOf(items[i]);
    const value = key.class_rank === 1 ? key.wait_ms : key.score;
    if (value !== null && Number.isNaN(value)) return comparatorSort(items, keyOf);
    let byValue = groups.get(key.class_rank);
    if (byValue === undefined) groups.set(key.class_rank, (byValue = new Map()));
    let group = byValue.get(value);
    if (group === undefined) byValue.set(value, (group = []));
    group.push({ target: key.target, item: items[i] });
  }
  const out: T[] = [];
  const ranks = [...groups.keys()].sort((a, b) => a - b);
  for (const rank of ranks) {
    const byValue = groups.get(rank)!;
    // class 1: longer wait first, unknown (null) last; other classes: higher score first
    const values = [...byValue.keys()].sort((a, b) =>
      a === b ? 0 : a === null ? 1 : b === null ? -1 : a > b ? -1 : 1,
    );
    for (const value of values) {
      const group = byValue.get(value)!;
      if (group.length > 1) group.sort(compareGroupTargets);
      for (let i = 0; i < group.length; i++) out.push(group[i].item);
    }
  }
  return out;
}

function compareGroupTargets(a: { target: string }, b: { target: string }): number {
  return compareTargets(a.target, b.target);
}

function comparatorSort<T>(items: readonly T[], keyOf: (item: T) => OrderKey): T[] {
  return [...items].sort((a, b) => comparePlannerOrder(keyOf(a), keyOf(b)));
}
