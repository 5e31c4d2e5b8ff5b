import "server-only";
// A listing (one plan's rows for one filter and sort, every page) and what changed between
// two of them, for `GET /scheduler/demand?since=<listing>`: the /tables page holds the whole
// fleet and refreshes by asking only for the rows whose bytes differ or whose place in line
// moved, instead of every page again. A listing is named by its plan (content and `now`)
// and the filters; its digest (each row's order and a hash of its encoded row) is made once per
// listing, when its last page is served or when it is compared, and kept in a small LRU.
// A name not held here (evicted, another replica, a restart) answers `changes: null`.
import { createHash, randomBytes } from "node:crypto";
import type { TablePlan } from "@/lib/planner/plan";
import type { TableSummary } from "@/lib/schema/api/demand";

export interface Digest {
  fingerprint: string;
  order: string[];
  /** base64 sha-1 of each row's JSON, by position */
  hashes: string[];
  position: Map<string, number>;
}

interface ListingState {
  /** tells this process's names from another's (replicas, restarts) */
  boot: string;
  digests: Map<string, Digest>;
}

/** Listings whose digests are kept: a few refresh generations of a few filter sets. */
const DIGESTS = 8;

const KEY = Symbol.for("scheduler-console.listings");

function state(): ListingState {
  const g = globalThis as unknown as Record<symbol, ListingState | undefined>;
  return (g[KEY] ??= { boot: randomBytes(6).toString("base64url"), digests: new Map() });
}

/**
 * The name of one plan's listing for one filter fingerprint. A plan is named by what it
 * follows from, the fleet content and `now` (as lib/api/plan.ts keys plans), so the same
 * plan made again names the same listing and an answer's bytes stay the same.
 */
export function listingName(view: { contentId: string }, now: number, fingerprint: string): string {
  const plan = createHash("sha256").update(`${view.contentId} ${now}`).digest("base64url").slice(0, 12);
  return `${state().boot}.${plan}.${fingerprint}`;
}

/** Keeps (or refreshes) the digest of a listing; rows are encoded as `encode` does for the wire. */
export function digestOf(name: string, fingerprint: string, rows: readonly TablePlan[], encode: (t: TablePlan) => TableSummary): Digest {
  const { digests } = state();
  let d = digests.get(name);
  if (d) {
    digests.delete(name);
  } else {
    const order = rows.map((t) => t.target);
    const hashes = rows.map((t) => createHash("sha1").update(JSON.stringify(encode(t))).digest("base64"));
    d = { fingerprint, order, hashes, position: new Map(order.map((t, i) => [t, i])) };
  }
  digests.set(name, d);
  while (digests.size > DIGESTS) digests.delete(digests.keys().next().value!);
  return d;
}

export function knownDigest(name: string): Digest | undefined {
  return state().digests.get(name);
}

export interface ListingChanges {
  /** positions (in the new listing, ascending) of the rows to send */
  sent: number[];
  removed: string[];
}

/**
 * The rows of `next` to send so that `base` becomes `next`: every row that is new or whose
 * bytes changed, plus the fewest unchanged rows whose relative order moved (those off a
 * longest increasing run of their old positions). Everything else keeps its old bytes and,
 * in the old order, fills the places left between the sent rows.
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
  stay.forEach((i, k) => {
    if (!keep.has(k)) sent.push(i);
  });
  sent.sort((a, b) => a - b);
  const removed = base.order.filter((t) => !next.position.has(t));
  return { sent, removed };
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
