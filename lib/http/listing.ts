import "server-only";
// A listing (one plan's rows for one filter and sort, every page), named and digested, for
// `GET /scheduler/demand?since=<listing>`: the /tables page holds the whole fleet and
// refreshes by asking only for what changed (./listing-changes.ts), instead of every page
// again. A listing is named by its plan (content and `now`) and the filters; its digest (the
// order, each row's hash without its moving fields and those fields, its rank in line, each
// kind's count) is made once per listing, when its last page is served or when it is
// compared, and kept in a small LRU. A name not held here (evicted, another replica, a
// restart) answers `changes: null`.
import { createHash, randomBytes } from "node:crypto";
import type { TablePlan } from "@/lib/planner/plan";
import type { TableSummary } from "@/lib/schema/api/demand";
import { processWide } from "@/lib/schema/process-wide";
import { BoundedMap } from "@/lib/schema/bounded-map";
import { metrics } from "@/lib/metrics";

export interface Digest {
  fingerprint: string;
  order: string[];
  /** each row's digest (its hash, wait and score), by position; a later listing's rows may take their hash from it */
  cells: RowDigest[];
  /** each row's rank in line (0: not in line), by position */
  ranks: Int32Array;
  /** the count in line of each kind (every row in line of a kind has it as its `of`) */
  lines: Record<string, number>;
}

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
  /** base64 sha-1 of the row's JSON without its moving fields */
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
    const cells = new Array<RowDigest>(n);
    const counts = { lent: 0, hashed: 0 };
    let shift = 0; // where the last row found in `like` sat, relative to its place here
    let placeIn: Map<string, number> | null = null; // `like`'s rows by target, once guesses missed often
    let misses = 0;
    for (let i = 0; i < n; i++) {
      const t = rows[i];
      let was: RowDigest | undefined;
      if (like && !held.has(t)) {
        let j = guessPlace(like.order, t.target, i, shift);
        // rows made anew by the hundred (the clock's full plan): lend by lookup, else hash the few
        if (j < 0 && ++misses > LOOKUP_AFTER) j = (placeIn ??= indexOf(like.order)).get(t.target) ?? -1;
        if (j >= 0) {
          was = like.cells[j];
          shift = j - i;
        }
      }
      order[i] = t.target;
      cells[i] = rowDigest(t, coder, held, was, counts);
    }
    d = { fingerprint, order, cells, ranks: coder.ranks(rows), lines: coder.lines };
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
export function guessPlace(order: readonly string[], target: string, i: number, shift: number): number {
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
