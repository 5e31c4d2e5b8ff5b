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
import type { CarriedPlaces } from "@/lib/planner/plan/types";
import type { TableSummary } from "@/lib/schema/api/demand";
import { lazily } from "@/lib/util/lazily";
import { BoundedMap } from "@/lib/util/bounded-map";
import { metrics } from "@/lib/metrics";
import { Scratch } from "./scratch";
import { sameRun } from "@/lib/util/same-run";

export interface Digest {
  /** names this digest: a later one made from it says so by this, without holding it */
  key: object;
  fingerprint: string;
  /** the coder's `id` its cells were made under */
  coder: object;
  order: string[];
  /** each row's digest (its hash, wait and score), by position; a later listing's rows may take their hash from it */
  cells: RowDigest[];
  /** each row's rank in line (0: not in line), by position */
  ranks: Int32Array;
  /** the count in line of each kind (every row in line of a kind has it as its `of`) */
  lines: Record<string, number>;
  /** its rows (while their plan lives): a digest made from this one reuses the cells of the rows it shares by object */
  rows: WeakRef<readonly TablePlan[]>;
  /** its rows' places in their plan's line, for the next listing to carry (the coder's `ranks`) */
  places: Placed | undefined;
  /** the digest this one was made from, and where each of its rows sat there (-1: not there) */
  from: { key: object; was: Int32Array } | null;
}

/** A listing's rows' places in one line (PlanLine.placesAlong). */
interface Placed {
  line: object;
  at: Int32Array;
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

const state = lazily<ListingState>(() => ({
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
  /**
   * `encode(t).position?.rank ?? 0` of each row, without encoding them; and, when the coder
   * knows them, the rows' places in line, which the next listing carries for the rows it
   * shares by object (`carried`) instead of looking for them
   */
  ranks(rows: readonly TablePlan[], carried?: CarriedPlaces): { ranks: Int32Array; places?: Placed };
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

/** placedIn's working array (digestOf runs to its end without yielding) */
const scratch = new Scratch();

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
 * wire. `like`, the digest of a listing this one is compared with (the one a page holds):
 * a row it holds as the very same object (a patched plan shares every row whose content did
 * not change) takes its cell and its place in line as they are; a row of a new plan that says
 * the same but for its moving fields takes its hash (the clock's full plan every 5 s makes
 * every row anew, most of them moved only in wait and score). A step of a patched plan so
 * costs a walk of two arrays by identity, and the rows that changed.
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
    const placed = like && placedIn(like, rows, like.coder === coder.id);
    let i = 0;
    while (i < n) {
      // a run of rows `like` held as the same objects: their cells as they were
      const run = placed ? keptRun(placed.kept, i, like!, order, cells) : 0;
      if (run > 0) {
        i += run;
        continue;
      }
      const t = rows[i];
      const j = placed ? placed.was[i] : -1;
      order[i] = t.target;
      cells[i] = rowDigest(t, coder, held, j >= 0 ? like!.cells[j] : undefined, counts);
      i++;
    }
    const carried =
      placed && like!.places ? { line: like!.places.line, places: like!.places.at, kept: placed.kept } : undefined;
    const ranked = coder.ranks(rows, carried);
    d = {
      key: {},
      fingerprint,
      coder: coder.id,
      order,
      cells,
      ranks: ranked.ranks,
      lines: coder.lines,
      rows: new WeakRef(rows),
      places: ranked.places,
      from: placed ? { key: like!.key, was: placed.was } : null,
    };
    countRowHashes(counts);
  }
  digests.set(name, d); // kept or refreshed: the newest (knownDigest's read is not a use)
  return d;
}

/**
 * Where each of `rows` sat in `like`'s listing (`was`, -1: not there), and (`kept`) where
 * `like` held it as the very same object (-1: another object, or `same` is false; a working
 * array, valid until the next call). Most rows
 * keep their place, or sit where the row before them moved by: they are found by identity
 * near there, then by target near there; the few others by one look through `like`'s order.
 */
function placedIn(like: Digest, rows: readonly TablePlan[], same: boolean): { was: Int32Array; kept: Int32Array } {
  const n = rows.length;
  const was = new Int32Array(n);
  const kept = scratch.ints(0, n, -1);
  const before = same ? like.rows.deref() : undefined;
  let missing: number[] | null = null;
  let shift = 0;
  let i = 0;
  while (i < n) {
    const j = i + shift;
    if (before !== undefined) {
      const run = sameRun(before, j, rows, i);
      if (run > 0) {
        for (let r = 0; r < run; r++) was[i + r] = kept[i + r] = j + r;
        i += run;
        continue;
      }
      // one place further or back: a row that moved in line shifts the rows between by one
      if (before[j + 1] === rows[i]) {
        shift++;
        continue;
      }
      if (j > 0 && before[j - 1] === rows[i]) {
        shift--;
        continue;
      }
    }
    const g = guessPlace(like.order, rows[i].target, i, shift);
    was[i] = g;
    if (g >= 0) shift = g - i;
    else (missing ??= []).push(i);
    i++;
  }
  if (missing !== null) findMissing(like.order, (k) => rows[k].target, missing, was);
  return { was, kept };
}

/** How many rows from `i` on `like` held as the same objects (`kept`), with their targets and cells copied into `order` and `cells`. */
function keptRun(kept: Int32Array, i: number, like: Digest, order: string[], cells: RowDigest[]): number {
  let r = i;
  while (r < kept.length && kept[r] >= 0) {
    order[r] = like.order[kept[r]];
    cells[r] = like.cells[kept[r]];
    r++;
  }
  return r - i;
}

/** Past this many rows not found near their place, the earlier order is indexed rather than scanned for each. */
const SCAN_UP_TO = 8;

/**
 * Where the rows at `missing` (not found near their place; `targetAt` names each) sat in an
 * earlier listing's `order`, into `was` (-1: not there): each looked for in the order when
 * they are few, else one pass over it.
 */
export function findMissing(
  order: readonly string[],
  targetAt: (i: number) => string,
  missing: readonly number[],
  was: Int32Array,
): void {
  if (missing.length <= SCAN_UP_TO) {
    for (const i of missing) was[i] = order.indexOf(targetAt(i));
    return;
  }
  const at = new Map<string, number>();
  for (const i of missing) at.set(targetAt(i), i);
  for (let j = 0; j < order.length && at.size > 0; j++) {
    const i = at.get(order[j]);
    if (i === undefined) continue;
    was[i] = j;
    at.delete(order[j]);
  }
  for (const i of at.values()) was[i] = -1;
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

export function knownDigest(name: string): Digest | undefined {
  return state().digests.get(name);
}
