import "server-only";
// GET /api/v1/scheduler/demand (list): the planner's table rows at one revision, filtered,
// sorted and paged by an opaque cursor that pins the revision and `now` of the first page.
import { rowsPatchOf, type FleetPlan, type TablePlan } from "@/lib/planner/plan";
import { comparePlans } from "@/lib/planner/plan/plan-fleet";
import { patchSorted } from "@/lib/planner/plan/sorted-patch";
import type { PlanLine } from "@/lib/planner/plan/types";
import type { DemandChanges, DemandList, DemandQuery, TableSummary } from "@/lib/schema/api/demand";
import { fleetView, type FleetView } from "@/lib/live/fleet-view";
import { answerKey, identityOf, viewKey } from "@/lib/http/answer-key";
import { decodeCursor, encodeCursor, queryFingerprint } from "@/lib/http/cursor";
import { cacheable, type Cacheable } from "@/lib/http/encoded-response";
import { ApiError } from "@/lib/schema/api/errors";
import { digestOf, knownDigest, listingName, type Digest, type RowCoder } from "@/lib/http/listing";
import { changesOnWire, listingChanges } from "@/lib/http/listing-changes";
import { snapshotMeta } from "@/lib/live/evaluation";
import { planFor, type Planned } from "@/lib/live/plan";
import { sortTables, tableNeedle, targetHas, type SortDirection } from "@/lib/words/table-order";
import { skippedSummary } from "./skipped";
import { BoundedMap } from "@/lib/util/bounded-map";

/** A plan row as the list says it: its place in line is the plan's (`line`). */
export function tableSummary(t: TablePlan, line: PlanLine): TableSummary {
  return {
    target: t.target,
    class: t.class,
    class_rank: t.class_rank,
    reason: t.reason,
    score: t.score,
    pending_generations: t.pending_generations,
    pending_bytes: t.pending_bytes,
    oldest_pending_ms: t.oldest_pending_ms,
    age_bound: t.age_bound,
    wait_ms: t.wait_ms,
    shards: t.shards,
    backlog_class: t.backlog_class,
    verdict: t.verdict,
    execution: t.execution,
    write_turn_holder: t.write_turn_holder,
    position: t.line_kind === null ? null : line.positionOf(t),
    clock_skew_ms: t.clock_skew?.ahead_ms ?? null,
  };
}

/** The list's encoder of one plan's rows. */
const summaryOf =
  (plan: FleetPlan) =>
  (t: TablePlan): TableSummary =>
    tableSummary(t, plan.line);

/** Whose row digests the demand listings share (a row says the same in every plan, but for its moving fields). */
const SUMMARY_ROWS = {};

/** How the listings of `plan` say its rows (lib/http/listing.ts). */
export function listingCoder(plan: FleetPlan): RowCoder {
  const { line } = plan;
  return {
    id: SUMMARY_ROWS,
    encode: summaryOf(plan),
    ranks: (rows, carried) => {
      const at = line.placesAlong(rows, carried);
      return { ranks: line.ranksAt(at), places: { line: line.token, at } };
    },
    lines: line.sizes(),
  };
}

/** console-api.md sorts: each column's natural direction (`order` absent). */
const NATURAL: Record<DemandQuery["sort"], SortDirection> = {
  planner: "asc",
  pending: "desc",
  score: "desc",
  wait: "desc",
  target: "asc",
  position: "asc",
};

/** The listing's filters as one test of a row. */
function filterOf(q: DemandQuery): ((t: TablePlan) => boolean) | null {
  const classes = q.class.length > 0 ? new Set<string>(q.class) : null;
  const backlogs = q.backlog.length > 0 ? new Set<string>(q.backlog) : null;
  const needle = tableNeedle(q.q);
  const idleShown = q.include_idle || (classes?.has("idle") ?? false);
  if (!classes && !backlogs && !needle && !q.verdict) return idleShown ? null : (t) => t.class !== "idle";
  return (t) =>
    (t.class !== "idle" || idleShown) &&
    (!classes || classes.has(t.class)) &&
    (!backlogs || backlogs.has(t.backlog_class)) &&
    targetHas(t.target, needle) &&
    (!q.verdict || t.verdict.state === q.verdict);
}

/** Whether `q` lists its rows in planner order as planned (filtered or not). */
const inPlannerOrder = (q: DemandQuery) => q.sort === "planner" && (q.order ?? NATURAL[q.sort]) === "asc";

/** The listing's rows: filtered, then in the one table order (lib/words/table-order.ts) the page uses too. */
export function selectTables(tables: readonly TablePlan[], q: DemandQuery, line?: PlanLine): readonly TablePlan[] {
  const keep = filterOf(q);
  const direction = q.order ?? NATURAL[q.sort];
  // planner order as planned: the plan's order, filtered (unfiltered: the plan's own array)
  if (inPlannerOrder(q)) return keep ? tables.filter(keep) : tables;
  const rows = keep ? tables.filter(keep) : tables.slice();
  return sortTables(rows, q.sort, direction, line && ((t) => line.positionOf(t)?.rank ?? null));
}

/**
 * The listing in planner order of a patched plan, from the same listing of the plan it was
 * patched from (when that is still held): the rows the patch took out, out; those it put in
 * that pass the filters, in, by binary search. What `selectTables` gives, in work
 * proportional to the patch (a stream's step after one change need not filter 13,405 rows).
 */
function patchedSelection(plan: FleetPlan, q: DemandQuery, key: string): readonly TablePlan[] | undefined {
  if (!inPlannerOrder(q)) return undefined;
  const patch = rowsPatchOf(plan);
  const previous = patch?.previous.deref();
  const before = previous && selections.get(previous)?.get(key);
  if (!patch || !before) return undefined;
  const keep = filterOf(q);
  const inserted = keep ? patch.inserted.filter(keep) : patch.inserted;
  // every row listed before, and every row put in, passes: the listing is the plan's own rows
  if (before === previous.tables && inserted.length === patch.inserted.length) return plan.tables;
  return patchSorted(before, patch.removed, inserted, comparePlans);
}

/**
 * A plan's filtered and sorted rows, per query fingerprint: every page and every repeat of
 * a listing on the same plan shares them (no per-request pass over the 13k rows).
 */
const SELECTIONS_PER_PLAN = 8;
const selections = new WeakMap<FleetPlan, BoundedMap<string, readonly TablePlan[]>>();

export function selectionOf(plan: FleetPlan, q: DemandQuery): readonly TablePlan[] {
  let byQuery = selections.get(plan);
  if (!byQuery)
    selections.set(plan, (byQuery = new BoundedMap({ evict: "least-recently-set", maxEntries: SELECTIONS_PER_PLAN })));
  const key = queryFingerprint(filtersOf(q));
  const held = byQuery.get(key);
  if (held) return held;
  let rows = patchedSelection(plan, q, key) ?? selectTables(plan.tables, q, plan.line);
  // a filter that keeps every row in planner order lists the plan's own array (shared, not copied)
  if (rows !== plan.tables && rows.length === plan.tables.length && inPlannerOrder(q)) rows = plan.tables;
  byQuery.set(key, rows); // first made, first out
  return rows;
}

type Filters = [
  boolean,
  string[],
  string[],
  string,
  DemandQuery["sort"],
  "asc" | "desc" | null,
  DemandQuery["verdict"] | null,
];

const filtersOf = (q: DemandQuery): Filters => [
  q.include_idle,
  q.class,
  q.backlog,
  q.q ?? "",
  q.sort,
  q.order ?? null,
  q.verdict ?? null,
];
const DEFAULT_FILTERS = queryFingerprint([false, [], [], "", "planner", null, null]);

function withFilters(q: DemandQuery, f: Filters): DemandQuery {
  return {
    ...q,
    include_idle: f[0],
    class: f[1] as DemandQuery["class"],
    backlog: f[2] as DemandQuery["backlog"],
    q: f[3] || undefined,
    sort: f[4],
    order: f[5] ?? undefined,
    verdict: f[6] ?? undefined,
  };
}

const mismatch = (path: string, message: string) =>
  new ApiError(400, "invalid_query", `${path}: ${message}`, {
    issues: [{ path: [path], code: "cursor_mismatch", message }],
  });

/** The view, `now`, offset and effective query of a request (first page, or a cursor's next page). */
async function resolvePage(
  q: DemandQuery,
): Promise<{ view: FleetView; now: number | undefined; offset: number; query: DemandQuery; fingerprint: string }> {
  const fingerprint = queryFingerprint(filtersOf(q));
  if (q.cursor === undefined) {
    return { view: await fleetView(q.revision), now: q.now_ms, offset: 0, query: q, fingerprint };
  }
  const c = decodeCursor(q.cursor);
  // a bare cursor continues its own listing; explicit filters must be the cursor's
  if (c.query !== fingerprint && fingerprint !== DEFAULT_FILTERS)
    throw mismatch("cursor", "the cursor belongs to a query with other filters or sort");
  if (q.revision !== undefined && q.revision !== c.revision)
    throw mismatch("revision", "differs from the cursor's revision");
  if (q.now_ms !== undefined && q.now_ms !== c.now) throw mismatch("now_ms", "differs from the cursor's now_ms");
  return {
    view: await fleetView(c.revision),
    now: c.now,
    offset: c.offset,
    query: withFilters(q, c.filters as Filters),
    fingerprint: c.query,
  };
}

type Page = Awaited<ReturnType<typeof resolvePage>>;

/** The list as a cacheable answer: its bytes follow from the plan, the view and the page asked for. */
export async function demandListAnswer(q: DemandQuery): Promise<Cacheable> {
  if (q.since !== undefined) return changesAnswer(q, q.since);
  const page0 = await resolvePage(q);
  const planned = await planFor(page0.view, { now_ms: page0.now, now: q.now });
  const { offset, query, fingerprint } = page0;
  const name = listingName(planned, fingerprint);
  const selected = selectionOf(planned.plan, query);
  // the last page completes the listing a client now holds: keep its digest for `?since=`
  if (offset + q.limit >= selected.length) digestOf(name, fingerprint, selected, listingCoder(planned.plan));
  const key = answerKey(
    "demand",
    identityOf(planned.plan),
    viewKey(planned.view, planned.evaluation),
    planned.now,
    fingerprint,
    offset,
    q.limit,
  );
  return cacheable(key, () => listBody(planned, page0, q.limit));
}

/** `?since=<listing>`: the whole listing as changes to the one named (lib/schema/api/demand.ts demandChanges). */
async function changesAnswer(q: DemandQuery, since: string): Promise<Cacheable> {
  if (q.cursor !== undefined) throw mismatch("since", "changes since a listing are not paged: send it without cursor");
  const fingerprint = queryFingerprint(filtersOf(q));
  const base = knownDigest(since);
  if (base && base.fingerprint !== fingerprint)
    throw mismatch("since", "the listing belongs to a query with other filters or sort");
  const planned = await planFor(await fleetView(q.revision), { now_ms: q.now_ms, now: q.now });
  const key = answerKey(
    "demand-changes",
    identityOf(planned.plan),
    viewKey(planned.view, planned.evaluation),
    planned.now,
    fingerprint,
    since,
    base !== undefined,
  );
  return cacheable(key, () => changesBody(planned, q, since, base));
}

/**
 * The listing of `planned` for `q` as changes to the listing `since` (whose digest is `base`;
 * `changes: null` when it is not held): the body of `?since=` and of each step the demand
 * stream pushes (./demand-stream.ts), one builder for both.
 */
export function changesBody(planned: Planned, q: DemandQuery, since: string, base: Digest | undefined): DemandChanges {
  const fingerprint = queryFingerprint(filtersOf(q));
  const selected = selectionOf(planned.plan, q);
  const name = listingName(planned, fingerprint);
  const coder = listingCoder(planned.plan);
  const next = digestOf(name, fingerprint, selected, coder, base);
  const changes = base && listingChanges(base, next);
  return {
    ...envelope(planned, selected),
    listing: name,
    changes: changes
      ? {
          since,
          ...changesOnWire(changes, next, selected, coder),
        }
      : null,
  };
}

/** The fingerprint of a query's filters and sort (what names its listings). */
export const listingFingerprint = (q: DemandQuery): string => queryFingerprint(filtersOf(q));

/** The list's body, for callers inside the services and tests (the route serves the cacheable answer). */
export async function demandList(q: DemandQuery): Promise<DemandList> {
  return (await demandListAnswer(q)).body() as DemandList;
}

/** What a list answer says about the whole plan, besides its rows. */
function envelope({ view, now, plan, evaluation }: Planned, selected: readonly TablePlan[]) {
  const leader = view.snapshot.leader?.record ?? null;
  return {
    ...snapshotMeta(view, evaluation),
    now_ms: now,
    leader: leader ? { token: leader.token, instance: leader.instance, since_ms: leader.since_ms } : null,
    total_tables: plan.total_tables,
    tables_with_pending: plan.tables_with_pending,
    matched: selected.length,
    clock_skew_tables: plan.clock_skew_tables,
    counts: plan.counts,
    skipped: skippedSummary(view.snapshot),
  };
}

function listBody(planned: Planned, { offset, query, fingerprint }: Page, limit: number): DemandList {
  const { view, now, plan } = planned;
  const selected = selectionOf(plan, query);
  const page = selected.slice(offset, offset + limit);
  const next =
    offset + limit < selected.length
      ? encodeCursor({
          revision: view.revision,
          now,
          offset: offset + limit,
          query: fingerprint,
          filters: filtersOf(query),
        })
      : null;
  return {
    ...envelope(planned, selected),
    tables: page.map(summaryOf(plan)),
    next_cursor: next,
    listing: listingName(planned, fingerprint),
  };
}
