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
  if (a.class_rank !== b.class_rank) return a.class_rank < b.class_rank ? -1 : 1;
  if (a.class_rank === 1) {
    const wa = a.wait_ms;
    const wb = b.wait_ms;
    if (wa !== null && wb !== null) {
      if (wa !== wb) return wa > wb ? -1 : 1;
    } else if (wa !== null) return -1;
    else if (wb !== null) return 1;
  } else if (a.score > b.score) return -1;
  else if (a.score < b.score) return 1; // equal or NaN: fall through
  return compareTargets(a.target, b.target);
}

/** Sorted copy in planner order (stable; targets are unique, so the order is total). */
export function sortPlannerOrder<T extends OrderKey>(items: readonly T[]): T[] {
  return [...items].sort(comparePlannerOrder);
}
