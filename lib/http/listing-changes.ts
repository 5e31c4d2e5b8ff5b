import "server-only";
// What changed between two listings (./listing.ts digests), for `?since=<listing>` and each
// step of the pushed stream. Most rows of a new plan differ from the old one's only in what
// moves with the clock and the line (wait, score, rank and count in line): a row whose wait
// or score moved travels as a short patch; rows whose rank alone moved travel as runs (one
// table that moves up the line moves every table it passes by one); the count in line of
// each kind travels once; only a row that changed otherwise, or whose place in the order
// moved, travels whole.
import type { TablePlan } from "@/lib/planner/plan";
import type { DemandPatch, TableSummary } from "@/lib/schema/api/demand";
import { findMissing, guessPlace, type Digest, type RowCoder, type RowDigest } from "./listing";
import { Scratch } from "./scratch";

/** listingChanges's working arrays, kept between calls (it runs to the end without yielding) */
const scratch = new Scratch();

/**
 * One wait or score said alike by two rows: equal, or both NaN (what their text, and so the
 * wire, tells apart; 0 and -0 both say "0").
 */
const sameMoving = (a: unknown, b: unknown): boolean => a === b || (a !== a && b !== b);

/** Two digested rows of one table whose wait or score differ (their other fields are told apart by their hashes). */
const waitOrScoreMoved = (a: TableSummary, b: TableSummary): boolean =>
  !sameMoving(a.wait_ms, b.wait_ms) || !sameMoving(a.score, b.score);

/** `[from, to, by]`: the rows at `from`…`to` (inclusive) of the new listing moved `by` places in line. */
type Shift = [number, number, number];

export interface ListingChanges {
  /** positions (in the new listing, ascending) of the rows to send whole */
  sent: number[];
  /** positions (ascending) of the rows kept whose wait or score changed */
  patched: number[];
  /** runs of kept rows (ascending, apart) whose rank alone changed, by the same amount */
  shifted: Shift[];
  removed: string[];
}

/**
 * What of `next` to send so that `base` becomes `next`: whole, every row that is new or
 * changed beyond its moving fields, plus the fewest other rows whose relative order moved
 * (those off a longest increasing run of their old positions); as patches, the kept rows
 * whose wait or score changed; as runs, the kept rows whose rank alone did. The kept rows,
 * in the old order, fill the places left between the rows sent whole; the count in line of
 * each kind is `next.lines`.
 */
export function listingChanges(base: Digest, next: Digest): ListingChanges {
  const n = next.order.length;
  // where each row of `next` sat in `base` (-1: not there): known when `next` was digested from it
  const was = next.from !== null && next.from.key === base.key ? next.from.was : placesIn(base, next);
  const sent: number[] = [];
  const kept = { stay: scratch.ints(0, n), old: scratch.ints(1, n), count: 0 }; // rows kept whole: new and old positions
  const held = scratch.bytes(0, base.order.length); // rows of `base` that `next` holds
  let found = 0;
  for (let i = 0; i < n;) {
    // a run of rows shared by object (one cell in both: same hash, wait and score)
    const run = sharedRun(was, base.cells, next.cells, i, held, kept);
    found += run;
    i += run;
    if (i === n) break;
    const w = was[i];
    if (w >= 0) {
      held[w] = 1;
      found++;
    }
    if (w < 0 || base.cells[w].hash !== next.cells[i].hash) sent.push(i);
    else {
      kept.stay[kept.count] = i;
      kept.old[kept.count++] = w;
    }
    i++;
  }
  const { stay, old } = kept;
  const keep = longestIncreasing(old, kept.count);
  const patched: number[] = [];
  const shifted: Shift[] = [];
  let moved = false;
  for (let k = 0; k < kept.count;) {
    // a run of rows kept in order, alike in both (same cell, same rank): nothing to say
    k += quietRun(keep, stay, old, base, next, k, kept.count);
    if (k === kept.count) break;
    const i = stay[k];
    const w = old[k];
    if (keep[k] === 0) {
      sent.push(i);
      moved = true;
    } else if (base.cells[w] !== next.cells[i] && waitOrScoreMoved(base.cells[w].summary, next.cells[i].summary))
      patched.push(i);
    else if (base.ranks[w] !== next.ranks[i]) {
      const by = next.ranks[i] - base.ranks[w];
      const run = shifted[shifted.length - 1];
      if (run !== undefined && run[1] === i - 1 && run[2] === by) run[1] = i;
      else shifted.push([i, i, by]);
    }
    k++;
  }
  if (moved) sent.sort((a, b) => a - b);
  const removed = found === base.order.length ? [] : base.order.filter((_, j) => held[j] === 0);
  return { sent, patched, shifted, removed };
}

/** How many rows from `i` on sit in `base` with the very same cell; each marked held and kept whole. */
function sharedRun(
  was: Int32Array,
  baseCells: readonly RowDigest[],
  nextCells: readonly RowDigest[],
  i: number,
  held: Uint8Array,
  kept: { stay: Int32Array; old: Int32Array; count: number },
): number {
  let r = i;
  let count = kept.count;
  while (r < was.length) {
    const w = was[r];
    if (w < 0 || baseCells[w] !== nextCells[r]) break;
    held[w] = 1;
    kept.stay[count] = r;
    kept.old[count++] = w;
    r++;
  }
  kept.count = count;
  return r - i;
}

/** How many kept rows from `k` on are in order and alike in both listings: the same cell and rank. */
function quietRun(
  keep: Uint8Array,
  stay: Int32Array,
  old: Int32Array,
  base: Digest,
  next: Digest,
  k: number,
  count: number,
): number {
  const { cells: baseCells, ranks: baseRanks } = base;
  const { cells: nextCells, ranks: nextRanks } = next;
  let r = k;
  while (
    r < count &&
    keep[r] === 1 &&
    baseCells[old[r]] === nextCells[stay[r]] &&
    baseRanks[old[r]] === nextRanks[stay[r]]
  )
    r++;
  return r - k;
}

/**
 * Where each row of `next` sat in `base` (-1: not there). Most rows keep their place, or sit
 * where the row before them moved by; the others are looked for as a digest looks for them.
 */
function placesIn(base: Digest, next: Digest): Int32Array {
  const was = new Int32Array(next.order.length);
  const missing: number[] = [];
  let shift = 0;
  for (let i = 0; i < was.length; i++) {
    was[i] = guessPlace(base.order, next.order[i], i, shift);
    if (was[i] >= 0) shift = was[i] - i;
    else missing.push(i);
  }
  if (missing.length > 0) findMissing(base.order, (i) => next.order[i], missing, was);
  return was;
}

/**
 * What travels for `changes` of a listing of `rows` (lib/schema/api/demand.ts demandChanges,
 * but `since`). A patch is said from the digest: the row's wait and score as it was digested,
 * its rank and its kind's count as `next`'s plan has them (what `coder.encode` says, without
 * encoding the row again: the clock's step patches every row).
 */
export function changesOnWire(changes: ListingChanges, next: Digest, rows: readonly TablePlan[], coder: RowCoder) {
  const patchOf = (at: number): DemandPatch => {
    const { wait_ms, score, position } = next.cells[at].summary;
    return position
      ? [at, wait_ms, score, next.ranks[at], next.lines[position.kind] ?? null]
      : [at, wait_ms, score, null, null];
  };
  return {
    rows: changes.sent.map((at) => ({ at, table: coder.encode(rows[at]) })),
    patches: changes.patched.map(patchOf),
    shifts: changes.shifted,
    lines: next.lines,
    removed: changes.removed,
  };
}

/** Marks (1) the indices of one longest strictly increasing subsequence of `xs[0..n)` (patience sort, O(n log n)). */
function longestIncreasing(xs: Int32Array, n: number): Uint8Array {
  const tails = scratch.ints(3, n); // index into xs of the smallest tail of a run of each length
  let runs = 0; // how many of `tails` are set
  const prev = scratch.ints(2, n);
  for (let i = 0; i < n; i++) {
    const x = xs[i];
    let lo = 0;
    let hi = runs;
    // a run that goes on growing (most of a listing): the search would end past the last tail
    if (hi > 0 && xs[tails[hi - 1]] < x) lo = hi;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[tails[mid]] < x) lo = mid + 1;
      else hi = mid;
    }
    prev[i] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = i;
    if (lo === runs) runs++;
  }
  const out = scratch.bytes(1, n);
  for (let i = runs > 0 ? tails[runs - 1] : -1; i >= 0; i = prev[i]) out[i] = 1;
  return out;
}
