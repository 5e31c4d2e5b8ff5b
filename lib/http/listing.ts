import "server-only";
// A listing (one plan's rows for one filter and sort, every page) and what changed between
// two of them, for `GET /scheduler/demand?since=<listing>`: the /tables page holds the whole
// fleet and refreshes by asking only for what changed, instead of every page again. Most
// rows of a new plan differ from the old one's only in what moves with the clock and the
// line (wait, score, rank and count in line): those travel as short patches, and only a row
// that changed otherwise, or whose place in the order moved, travels whole. A listing is
// named by its plan (content and `now`) and the filters; its digest (the order, a hash of
// each row without its moving fields, and those fields) is made once per listing, when its
// last page is served or when it is compared, and kept in a small LRU. A name not held here
// (evicted, another replica, a restart) answers `changes: null`.
import { createHash, randomBytes } from "node:crypto";
import type { TablePlan } from "@/lib/planner/plan";
import type { TableSummary } from "@/lib/schema/api/demand";
import { processWide } from "@/lib/schema/process-wide";
import { BoundedMap } from "@/lib/schema/bounded-map";

export interface Digest {
  fingerprint: string;
  order: string[];
  /** base64 sha-1 of each row's JSON without its moving fields, by position */
  hashes: string[];
  /** each row's moving fields (MovingFields as JSON), by position */
  moving: string[];
  position: Map<string, number>;
}

/** The fields that move with the clock and the line: wait_ms, score, position rank and of (lib/schema/api/demand.ts demandChanges). */
export type MovingFields = [TableSummary["wait_ms"], TableSummary["score"], number | null, number | null];

export function movingFields(t: TableSummary): MovingFields {
  return [t.wait_ms, t.score, t.position?.rank ?? null, t.position?.of ?? null];
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

/** Keeps (or refreshes) the digest of a listing; rows are encoded as `encode` does for the wire. */
export function digestOf(
  name: string,
  fingerprint: string,
  rows: readonly TablePlan[],
  encode: (t: TablePlan) => TableSummary,
): Digest {
  const { digests } = state();
  let d = digests.get(name);
  if (!d) {
    const order = rows.map((t) => t.target);
    const hashes: string[] = [];
    const moving: string[] = [];
    for (const t of rows) {
      const summary = encode(t);
      hashes.push(createHash("sha1").update(steadyJson(summary)).digest("base64"));
      moving.push(JSON.stringify(movingFields(summary)));
    }
    d = { fingerprint, order, hashes, moving, position: new Map(order.map((t, i) => [t, i])) };
  }
  digests.set(name, d); // kept or refreshed: the newest (knownDigest's read is not a use)
  return d;
}

export function knownDigest(name: string): Digest | undefined {
  return state().digests.get(name);
}

export interface ListingChanges {
  /** positions (in the new listing, ascending) of the rows to send whole */
  sent: number[];
  /** positions (ascending) of the rows kept whose moving fields changed */
  patched: number[];
  removed: string[];
}

/**
 * What of `next` to send so that `base` becomes `next`: whole, every row that is new or
 * changed beyond its moving fields, plus the fewest other rows whose relative order moved
 * (those off a longest increasing run of their old positions); as patches, the kept rows
 * whose moving fields changed. The kept rows, in the old order, fill the places left
 * between the rows sent whole.
 */
export function listingChanges(base: Digest, next: Digest): ListingChanges {
  const sent: number[] = [];
  const stay: number[] = []; // new positions of unchanged rows
  const old: number[] = []; // their old positions
  next.order.forEach((target, i) => {
    const was = base.position.get(target);
    if (was === undefined || base.hashes[was] !== next.hashes[i]) sent.push(i);
    else {
      stay.push(i);
      old.push(was);
    }
  });
  const keep = longestIncreasing(old);
  const patched: number[] = [];
  stay.forEach((i, k) => {
    if (!keep.has(k)) sent.push(i);
    else if (base.moving[old[k]] !== next.moving[i]) patched.push(i);
  });
  sent.sort((a, b) => a - b);
  const removed = base.order.filter((t) => !next.position.has(t));
  return { sent, patched, removed };
}

/** Indices of one longest strictly increasing subsequence of `xs` (patience sort, O(n log n)). */
function longestIncreasing(xs: readonly number[]): Set<number> {
  const tails: number[] = []; // index into xs of the smallest tail of a run of each length
  const prev = new Array<number>(xs.length);
  xs.forEach((x, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[tails[mid]] < x) lo = mid + 1;
      else hi = mid;
    }
    prev[i] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = i;
  });
  const out = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) out.add(i);
  return out;
}
