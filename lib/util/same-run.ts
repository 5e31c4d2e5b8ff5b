// Walks of two lists that are mostly the same objects in step (a patched plan's candidate
// order and the last one's; a listing and the one a page holds), done in runs. A walk that
// checks every element with a rare branch in its body (a new draft, a changed row) was
// compiled by V8 before that branch first ran, and left its optimized code at the branch on
// every call: ~60 ns an element instead of ~2 ns. The run is a loop with no other branch;
// what differs is handled between runs, a few times a call.

/** How many elements from `a[i]` and `b[k]` on are the very same (`===`), in step. */
export function sameRun<T>(a: readonly T[], i: number, b: readonly T[], k: number): number {
  if (i < 0 || k < 0) return 0;
  const n = Math.min(a.length - i, b.length - k);
  let r = 0;
  while (r < n && a[i + r] === b[k + r]) r++;
  return r;
}
