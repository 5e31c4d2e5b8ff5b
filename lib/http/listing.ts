import "server-only";
// A listing (one plan's rows for one filter and sort, every page) and what changed between
// two of them, for `GET /scheduler/demand?since=<listing>`: the /tables page holds the whole
// fleet and refreshes by asking only for what changed, instead of every page again. Most
// rows of a new plan differ from the old one's only in what moves with the clock and the
// line (wait, score, rank and count in line): a row whose wait or score moved travels as a
// short patch; rows whose rank alone moved travel as runs (one table that moves up the line
// moves every table it passes by one); the count in line of each kind travels once; only a
// row that changed otherwise, or whose place in the order moved, travels whole. A listing is
// named by its plan (content and `now`) and the filters; its digest (the order, a hash of
// each row without its moving fields, and those fields) is made once per listing, when its
// last page is served or when it is compared, and kept in a small LRU. A name not held here
// (evicted, another replica, a restart) answers `changes: null`.
import { createHash, randomBytes } from "node:crypto";
import type { TablePlan } from "@/lib/planner/plan";
import type { DemandPatch, TableSummary } from "@/lib/schema/api/demand";
import { processWide } from "@/lib/schema/process-wide";
import { BoundedMap } from "@/lib/schema/bounded-map";
import { metrics } from "@/lib/metrics";

export interface Digest {
  fingerprint: string;
  order: string[];
  /** base64 sha-1 of each row's JSON without its moving fields, by position */
  hashes: string[];
  /** each row's wait, by position */
  waits: TableSummary["wait_ms"][];
  /** each row's score, by position */
  scores: TableSummary["score"][];
  /** each row's rank in line (0: not in line), by position */
  ranks: Int32Array;
  /** the count in line of each kind (every row in line of a kind has it as its `of`) */
  lines: Record<string, number>;
  /** each row's digest, by position (what a later listing's rows may take their hash from) */
  cells?: RowDigest[];
}

/**
 * One wait or score said alike by two rows: equal, or both NaN (what their text, and so the
 * wire, tells apart; 0 and -0 both say "0").
 */
const sameMoving = (a: unknown, b: unknown): boolean => a === b || (a !== a && b !== b);

/** The row with its moving fields blanked: two rows with one hash differ at most in those. */
function steadyJson(t: TableSummary): string {
  return JSON.stringify({
    ...t,
    wait_ms: null,
    score: 0,
    position: t.position && { kind: t.position.kind, rank: 0, of: 0 },
  });
}

interface ListingState {
  /** tells this process's names from another's (replicas, restarts) */
  boot: string;
  digests: BoundedMap<string, Digest>;
}

/**
 * Listings whose digests are kept: a few plans' worth of the listings open pages hold (a
 * page holds the newest one it got; ~2 MB each at 13,405 rows). A base evicted costs its
 * page one full read.
 */
const DIGESTS = 16;

const state = () =>
  processWide<ListingState>("scheduler-console.listings", () => ({
    boot: randomBytes(6).toString("base64url"),
    digests: new BoundedMap({ evict: "least-recently-set", maxEntries: DIGESTS }),
  }));

/**
 * The name of one plan's listing for one filter fingerprint. A plan is named by what it
 * follows from, the fleet content and `now` (as lib/live/plan.ts keys plans), so the same
 * plan made again names the same listing and an answer's bytes stay the same.
 */
export function listingName(
  planned: { view: { contentId: string; revision: number }; now: number; evaluation: { now_basis: string } },
  fingerprint: string,
): string {
  // a live answer names its view's content (repeats of unchanged content keep the name); an
  // exact one (pinned, or an explicit now) its revision, which fixes its records whether a
  // held live view or a pinned read answered it, so the same question gets the same name
  const content =
    planned.evaluation.now_basis === "server_clock" ? planned.view.contentId : `rev:${planned.view.revision}`;
  const plan = createHash("sha256").update(`${content} ${planned.now}`).digest("base64url").slice(0, 12);
  return `${state().boot}.${plan}.${fingerprint}`;
}

export interface RowDigest {
  hash: string;
  /** the row as encoded (its wait and score are the digest's; its place in line is the plan's it was first encoded for): a later plan's row of the same table that says the same beyond its moving fields takes this hash */
  summary: TableSummary;
}

/**
 * How one listing's rows are said. A row says the same in any plan that lists it, but for its
 * place in line (its plan's): its hash, wait and score are made once per row and `id`; its
 * rank and its kind's count are asked of each listing's plan.
 */
export interface RowCoder {
  /** rows digested under one id are kept for every listing coded under it */
  id: object;
  /** the row as sent */
  encode(t: TablePlan): TableSummary;
  /** `encode(t).position?.rank ?? 0` of each row, without encoding them */
  ranks(rows: readonly TablePlan[]): Int32Array;
  /** the count in line of each kind: `encode(t).position.of` of every row in line of that kind */
  lines: Record<string, number>;
}

/**
 * Each plan row's hash, by coder and row object. A plan's rows are never changed once it is
 * made, and a patched plan shares every row whose content did not change with the plan
 * before it (lib/planner/plan/replan.ts), so a listing of the next plan hashes only the rows
 * that changed: a plan step costs what changed, not the fleet.
 */
const rowDigests = new WeakMap<object, WeakMap<TablePlan, RowDigest>>();

/** JSON-equal, strictly: the same keys in the same order and equal values (anything else, NaN or undefined included, counts as different). */
function sameJson(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x)) {
    const ys = y as unknown[];
    if (x.length !== ys.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(x[i], ys[i])) return false;
    return true;
  }
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !sameJson(a[ka[i]], b[ka[i]])) return false;
  return true;
}

/** `a` and `b` have one `steadyJson` (what the hash is of): JSON-equal but for the moving fields. */
function sameSteady(a: TableSummary, b: TableSummary): boolean {
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  const ka = Object.keys(x);
  const kb = Object.keys(y);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (k !== kb[i]) return false;
    if (k === "wait_ms" || k === "score") continue; // blanked
    if (k === "position") {
      // kept as { kind, rank: 0, of: 0 } when set
      if (!a.position !== !b.position || (a.position && a.position.kind !== b.position!.kind)) return false;
      if (!a.position && a.position !== b.position) return false; // null and undefined say different things
      continue;
    }
    if (!sameJson(x[k], y[k])) return false;
  }
  return true;
}

function rowDigest(
  t: TablePlan,
  coder: RowCoder,
  held: WeakMap<TablePlan, RowDigest>,
  like: RowDigest | undefined,
  counts: { lent: number; hashed: number },
): RowDigest {
  let d = held.get(t);
  if (!d) {
    const summary = coder.encode(t);
    const lent = like !== undefined && sameSteady(summary, like.summary);
    counts[lent ? "lent" : "hashed"]++;
    d = { hash: lent ? like.hash : createHash("sha1").update(steadyJson(summary)).digest("base64"), summary };
    held.set(t, d);
  }
  return d;
}

function heldRows(coder: RowCoder): WeakMap<TablePlan, RowDigest> {
  let held = rowDigests.get(coder.id);
  if (!held) rowDigests.set(coder.id, (held = new WeakMap()));
  return held;
}

function countRowHashes(counts: { lent: number; hashed: number }): void {
  if (counts.lent > 0) metrics().listingRowHashes.inc({ source: "lent" }, counts.lent);
  if (counts.hashed > 0) metrics().listingRowHashes.inc({ source: "hashed" }, counts.hashed);
}

/** Rows digested ahead between two yields of `digestRowsAhead`. */
const AHEAD_ROWS = 256;

/**
 * Digests a new plan's rows before any listing of it is asked for (the clock's full plan, in
 * slices before it goes live: lib/scheduler/demand-stream.ts), each lent the hash of
 * `previous`'s row of its table when the two say the same but for their moving fields. The
 * step that then lists the plan finds every row digested, instead of encoding and comparing
 * ~13,000 rows in one turn of the thread. Yields every AHEAD_ROWS rows: the caller decides
 * when to give the thread back.
 */
export function* digestRowsAhead(
  rows: readonly TablePlan[],
  coder: RowCoder,
  previous: ReadonlyMap<string, TablePlan> | undefined,
): Generator<void, void, void> {
  const held = heldRows(coder);
  const counts = { lent: 0, hashed: 0 };
  for (let i = 0; i < rows.length; i++) {
    const t = rows[i];
    const was = previous?.get(t.target);
    rowDigest(t, coder, held, was && held.get(was), counts);
    if (i % AHEAD_ROWS === AHEAD_ROWS - 1) yield;
  }
  countRowHashes(counts);
}

/**
 * Keeps (or refreshes) the digest of a listing, its rows said as `coder` says them for the
 * wire. `like`, the digest of a listing this one is compared with (the one a page holds),
 * lends its hashes to rows of a new plan that say the same but for their moving fields: the
 * clock's full plan every 5 s makes every row anew, most of them moved only in wait and score.
 */
export function digestOf(
  name: string,
  fingerprint: string,
  rows: readonly TablePlan[],
  coder: RowCoder,
  like?: Digest,
): Digest {
  const { digests } = state();
  let d = digests.get(name);
  if (!d) {
    const held = heldRows(coder);
    const n = rows.length;
    const order = new Array<string>(n);
    const hashes = new Array<string>(n);
    const waits = new Array<TableSummary["wait_ms"]>(n);
    const scores = new Array<TableSummary["score"]>(n);
    const cells = new Array<RowDigest>(n);
    const counts = { lent: 0, hashed: 0 };
    let shift = 0; // where the last row found in `like` sat, relative to its place here
    let placeIn: Map<string, number> | null = null; // `like`'s rows by target, once guesses missed often
    let misses = 0;
    for (let i = 0; i < n; i++) {
      const t = rows[i];
      let was: RowDigest | undefined;
      if (like?.cells && !held.has(t)) {
        let j = guessPlace(like.order, t.target, i, shift);
        // rows made anew by the hundred (the clock's full plan): lend by lookup, else hash the few
        if (j < 0 && ++misses > LOOKUP_AFTER) j = (placeIn ??= indexOf(like.order)).get(t.target) ?? -1;
        if (j >= 0) {
          was = like.cells[j];
          shift = j - i;
        }
      }
      const row = rowDigest(t, coder, held, was, counts);
      order[i] = t.target;
      hashes[i] = row.hash;
      waits[i] = row.summary.wait_ms;
      scores[i] = row.summary.score;
      cells[i] = row;
    }
    d = { fingerprint, order, hashes, waits, scores, ranks: coder.ranks(rows), lines: coder.lines, cells };
    countRowHashes(counts);
  }
  digests.set(name, d); // kept or refreshed: the newest (knownDigest's read is not a use)
  return d;
}

/**
 * Where `target`, at `i` in a new order, sat in `order`, or -1 when not near: at its place
 * moved by `shift` (where the row before it was found relative to its place), one more or
 * one less (a row that moved in line shifts the rows between its places by one), or its own.
 */
function guessPlace(order: readonly string[], target: string, i: number, shift: number): number {
  const j = i + shift;
  if (order[j] === target) return j;
  if (order[j + 1] === target) return j + 1;
  if (order[j - 1] === target) return j - 1;
  return order[i] === target ? i : -1;
}

/** Past this many rows not found near their place, `like` is indexed (hashing a few rows costs less than indexing). */
const LOOKUP_AFTER = 64;

function indexOf(order: readonly string[]): Map<string, number> {
  const at = new Map<string, number>();
  for (let j = 0; j < order.length; j++) at.set(order[j], j);
  return at;
}

export function knownDigest(name: string): Digest | undefined {
  return state().digests.get(name);
}

/** `[from, to, by]`: the rows at `from`…`to` (inclusive) of the new listing moved `by` places in line. */
export type Shift = [number, number, number];

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
  // where each row of `next` sat in `base` (-1: not there). Most rows keep their place, or
  // sit where the row before them moved by; the others are looked for in one pass over `base`.
  const was = new Int32Array(n);
  let missing: Map<string, number> | null = null;
  let shift = 0;
  for (let i = 0; i < n; i++) {
    const target = next.order[i];
    was[i] = guessPlace(base.order, target, i, shift);
    if (was[i] >= 0) shift = was[i] - i;
    else (missing ??= new Map()).set(target, i);
  }
  for (let j = 0; missing !== null && missing.size > 0 && j < base.order.length; j++) {
    const i = missing.get(base.order[j]);
    if (i === undefined) continue;
    was[i] = j;
    missing.delete(base.order[j]);
  }
  const sent: number[] = [];
  const stay: number[] = []; // new positions of unchanged rows
  const old: number[] = []; // their old positions
  const kept = new Uint8Array(base.order.length); // rows of `base` that `next` holds
  let found = 0;
  for (let i = 0; i < n; i++) {
    const w = was[i];
    if (w >= 0) {
      kept[w] = 1;
      found++;
    }
    if (w < 0 || base.hashes[w] !== next.hashes[i]) sent.push(i);
    else {
      stay.push(i);
      old.push(w);
    }
  }
  const keep = longestIncreasing(old);
  const patched: number[] = [];
  const shifted: Shift[] = [];
  let moved = false;
  for (let k = 0; k < stay.length; k++) {
    const i = stay[k];
    if (keep[k] === 0) {
      sent.push(i);
      moved = true;
    } else if (!sameMoving(base.waits[old[k]], next.waits[i]) || !sameMoving(base.scores[old[k]], next.scores[i]))
      patched.push(i);
    else if (base.ranks[old[k]] !== next.ranks[i]) {
      const by = next.ranks[i] - base.ranks[old[k]];
      const run = shifted[shifted.length - 1];
      if (run !== undefined && run[1] === i - 1 && run[2] === by) run[1] = i;
      else shifted.push([i, i, by]);
    }
  }
  if (moved) sent.sort((a, b) => a - b);
  const removed = found === base.order.length ? [] : base.order.filter((_, j) => kept[j] === 0);
  return { sent, patched, shifted, removed };
}

/**
 * What travels for `changes` of a listing of `rows` (lib/schema/api/demand.ts demandChanges,
 * but `since`). A patch is said from the digest: the row's wait and score as it was digested,
 * its rank and its kind's count as `next`'s plan has them (what `coder.encode` says, without
 * encoding the row again: the clock's step patches every row).
 */
export function changesOnWire(changes: ListingChanges, next: Digest, rows: readonly TablePlan[], coder: RowCoder) {
  const patchOf = (at: number): DemandPatch => {
    const { position } = next.cells?.[at]?.summary ?? coder.encode(rows[at]);
    const line = !position ? null : { rank: next.ranks[at], of: next.lines[position.kind] ?? null };
    return [at, next.waits[at], next.scores[at], line?.rank ?? null, line?.of ?? null];
  };
  return {
    rows: changes.sent.map((at) => ({ at, table: coder.encode(rows[at]) })),
    patches: changes.patched.map(patchOf),
    shifts: changes.shifted,
    lines: next.lines,
    removed: changes.removed,
  };
}

/** Marks (1) the indices of one longest strictly increasing subsequence of `xs` (patience sort, O(n log n)). */
function longestIncreasing(xs: readonly number[]): Uint8Array {
  const tails: number[] = []; // index into xs of the smallest tail of a run of each length
  const prev = new Int32Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    let lo = 0;
    let hi = tails.length;
    // a run that goes on growing (most of a listing): the search would end past the last tail
    if (hi > 0 && xs[tails[hi - 1]] < x) lo = hi;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[tails[mid]] < x) lo = mid + 1;
      else hi = mid;
    }
    prev[i] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = i;
  }
  const out = new Uint8Array(xs.length);
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) out[i] = 1;
  return out;
}
