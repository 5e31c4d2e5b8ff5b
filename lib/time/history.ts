import "server-only";
// GET /api/v1/scheduler/demand/history (console-api.md "Time"; "The decision journal";
// fourth version "The same answer from any replica": history points are never a verdict the
// pinned one-table answer would not give). Where the decision journal covers the window,
// the points are its entries (basis `journal`, ./journal-history.ts); before its start, in
// its gaps and after its last write the window is re-planned as follows, each point naming
// its basis. The table's own keys — its demand events, cache row, policies (its own and
// `_default`), write-turn lock, execution and the other fences (merge claim, catch-up,
// prepared compaction), merge failures, cooldowns and assignments — are walked back through
// etcd's history by mod_revision (lib/etcd/key-history.ts): one point per revision at which
// one of them changed. Keys deleted before the window's end are not found (no value is left
// to walk back from). Every point is dated by the revision clock (lib/live/revision-clock.ts), as
// a page pinned at its revision is, and is one of:
// * `journal`: the entry the live plan made at that revision (equal to the one-table answer
//   at `?revision=R&now_ms=<now_ms>`);
// * `fleet_plan`: the whole fleet read at that revision and planned at its time — the very
//   view and plan a page pinned there shows (lib/live/fleet-view.ts, lib/live/plan.ts
//   `planOnce`), so the table page, the diff and the history agree. Chosen while points ×
//   tables stays within what one request replays (EXACT_TABLE_PLANS);
// * `figures_only`: past that, the table's own keys alone, folded and scored with the same
//   parsers, fold and planner: its demand, wait, class and score are the page's, and its
//   verdict is null — an honest gap, never a verdict the page would not give.
import { verdictKey } from "@/lib/journal/entry";
import { planFleet, type TablePlan } from "@/lib/planner/plan";
import {
  DEFAULT_HISTORY_WINDOW_MS,
  type HistoryPoint,
  type HistoryQuery,
  type HistoryResponse,
  type TimeInState,
} from "@/lib/schema/api/history";
import { timeInState, type StateKey } from "@/lib/journal/window";
import { ownKeys } from "@/lib/journal/inputs";
import type { HistoryStart, RevisionTime } from "@/lib/schema/api/revisions";
import { etcdClient, etcdPrefix, type EtcdClient } from "@/lib/etcd/client";
import { keyHistories, readRange, type KeyHistory, type VersionedKv } from "@/lib/etcd/key-history";
import { pingEtcd } from "@/lib/live/etcd-ping";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import type { SnapshotKv } from "@/lib/snapshot/types";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import { plannerFleet } from "@/lib/snapshot/planner-input";
import { ApiError } from "@/lib/schema/api/errors";
import { fleetView } from "@/lib/live/fleet-view";
import { mapPooled } from "@/lib/util/worker-pool";
import { withMovedBy } from "./history-moved-by";
import { journalWindow, type JournalWindow } from "./journal-history";
import { evaluate } from "@/lib/live/evaluation";
import { planOnce } from "@/lib/live/plan";
import { liveCache } from "@/lib/live/cache";
import { historyStartOf } from "@/lib/live/history-start";
import { FUTURE_SLACK_MS, revisionClock, type RevisionClock } from "@/lib/live/revision-clock";

/** parallel etcd reads per request (keys walked, points evaluated) */
const CONCURRENCY = 32;
/** table plans one request makes to plan every point's whole fleet (≈ 1 s here: a 13k-table fleet read and plan is ≈ 0.5 s) */
export const EXACT_TABLE_PLANS = 40_000;
/** whole-fleet points one request plans at most, whatever the fleet's size */
export const MAX_EXACT_POINTS = 600;

/** The window in revisions: [from, to] and where compaction cut it. */
async function windowOf(
  clock: RevisionClock,
  client: EtcdClient,
  prefix: string,
  fromMs: number,
  toMs: number,
  now: number,
) {
  // the current revision by the ping, which fails within 1.5 s when etcd is away (a plain call waits out its deadline)
  const toRevision = toMs >= now ? await pingEtcd(client, prefix) : (await clock.revisionAt(toMs)).revision;
  const oldest = await clock.oldestReadable();
  let fromRevision: number;
  let cut = false;
  let starts: HistoryStart | null = null;
  try {
    fromRevision = (await clock.revisionAt(fromMs)).revision + 1;
  } catch (e) {
    // a window from before etcd's history starts where the history does, and says so
    starts = historyStartOf(e, fromMs);
    if (starts === null) throw e;
    fromRevision = starts.revision;
    cut = oldest > 1;
  }
  return { fromRevision: Math.max(fromRevision, oldest), toRevision, oldest, cut, starts };
}

/** The value of each walked key current at each of `revisions` (ascending): one sweep per key. */
function statesAt(histories: KeyHistory[], revisions: readonly number[]): VersionedKv[][] {
  const out = revisions.map((): VersionedKv[] => []);
  for (const h of histories) {
    let current: VersionedKv | null = h.before;
    let next = 0;
    revisions.forEach((revision, i) => {
      while (next < h.versions.length && h.versions[next].modRevision <= revision) current = h.versions[next++];
      if (current) out[i].push(current);
    });
  }
  return out;
}

/**
 * One SnapshotKv per stored version for the whole request: a version current at many
 * points is parsed once (buildSnapshot remembers the parse on the kv object).
 */
function versionCache(): (kv: VersionedKv) => SnapshotKv {
  const seen = new Map<string, SnapshotKv>();
  return (kv) => {
    const id = `${kv.modRevision}:${kv.key}`;
    let out = seen.get(id);
    if (!out)
      seen.set(
        id,
        (out = { key: kv.key, value: Buffer.from(kv.value, "utf8"), modRevision: kv.modRevision, lease: "0" }),
      );
    return out;
  };
}

/** The most points a request plans with the whole fleet, for a fleet of `tables` tables. */
export function exactPointsLimit(tables: number, tablePlans = EXACT_TABLE_PLANS): number {
  return Math.min(MAX_EXACT_POINTS, Math.floor(tablePlans / Math.max(1, tables)));
}

function pointOf(
  revision: number,
  time: RevisionTime | null,
  t: TablePlan,
  now: number,
  basis: "fleet_plan" | "figures_only",
): HistoryPoint {
  return {
    revision,
    at_ms: time?.at_ms ?? null,
    error_ms: time?.error_ms ?? null,
    pending_generations: t.pending_generations,
    wait_ms: t.wait_ms,
    class: t.class,
    score: t.score,
    verdict: basis === "figures_only" ? null : verdictKey(t.verdict),
    executor: basis === "fleet_plan" && t.verdict.state === "would_place" ? t.verdict.executor : null,
    now_ms: now,
    basis,
    journal: null,
    moved_by: null,
  };
}

/** The point as a page pinned at `revision` shows the table: the fleet read there, planned at the revision's time. */
export async function fleetPlanPoint(target: string, revision: number): Promise<HistoryPoint | null> {
  const view = await fleetView(revision, { keep: false });
  const evaluation = await evaluate(view, {});
  const t = planOnce(view, evaluation.now).byTarget.get(target);
  return t ? pointOf(revision, evaluation.revision_time, t, evaluation.now, "fleet_plan") : null; // null: the table did not exist then
}

/**
 * The point at `revision`: planned in the offload worker (lib/live/offload-pool.ts) when there
 * is one and the live view can neither answer it nor be put back to it, else here.
 */
function pointAt(target: string, revision: number): Promise<HistoryPoint | null> {
  const pool = liveCache().offloadFor(revision);
  if (pool === null) return fleetPlanPoint(target, revision);
  return pool.run<HistoryPoint | null>({ kind: "history_point", target, revision });
}

/**
 * Every point's whole fleet read and planned, through the process's one bound on such work
 * (`liveCache().wholeFleets`, shared by every request: two histories at once hold no more
 * fleets than one). After a failure no further point starts; the first failure rejects.
 */
async function fleetPlanPoints(target: string, revisions: readonly number[]): Promise<(HistoryPoint | null)[]> {
  const { wholeFleets } = liveCache();
  let failed = false;
  return Promise.all(
    revisions.map((revision) =>
      wholeFleets(async () => {
        if (failed) return null;
        try {
          return await pointAt(target, revision);
        } catch (e) {
          failed = true;
          throw e;
        }
      }),
    ),
  );
}

/** The table's own figures at `revision`, from its own keys alone (its verdict is not re-planned: null). */
function figuresPoint(
  prefix: string,
  target: string,
  revision: number,
  time: RevisionTime,
  kvs: SnapshotKv[],
  now: number,
): HistoryPoint | null {
  const at = time.at_ms ?? now;
  const snapshot = buildSnapshot(prefix, revision, groupByFamily(prefix, kvs), { readAtMs: at });
  const plan = planFleet(plannerFleet({ snapshot, tables: foldSnapshot(snapshot) }), at);
  const t = plan.byTarget.get(target);
  return t ? pointOf(revision, time, t, at, "figures_only") : null; // null: the table did not exist at this revision
}

/**
 * `tablePlans`: the whole-fleet budget (EXACT_TABLE_PLANS; tests force either way with it).
 * `journalInputs: false`: what moved is read from etcd at every point, the journal's marks
 * unused (tests compare the two).
 */
export async function demandHistory(
  q: HistoryQuery,
  opts: { tablePlans?: number; journalInputs?: boolean } = {},
): Promise<HistoryResponse> {
  const client = etcdClient();
  const prefix = etcdPrefix();
  const clock = revisionClock();
  const now = Date.now();
  const toMs = q.to_ms ?? now;
  if (toMs > now + FUTURE_SLACK_MS) {
    const message = `to_ms ${toMs} is in the future (server clock ${now})`;
    throw new ApiError(400, "invalid_query", message, { issues: [{ path: ["to_ms"], code: "future_time", message }] });
  }
  const askedFromMs = q.from_ms ?? toMs - DEFAULT_HISTORY_WINDOW_MS;
  const [w, fleet] = await Promise.all([windowOf(clock, client, prefix, askedFromMs, toMs, now), fleetView()]);
  // nothing is known before the history's start: the window (its chart, its time in state) begins
  // at the earliest moment its first revision may have been written (an estimate's error either
  // way), unless that leaves no window (a later revision's estimate may be no later)
  const startMs = w.starts?.at_ms == null ? askedFromMs : w.starts.at_ms - (w.starts.error_ms ?? 0);
  const fromMs = Math.max(askedFromMs, startMs) < toMs ? Math.max(askedFromMs, startMs) : askedFromMs;
  const journal = await journalWindow(q.target, fromMs, toMs);
  const limit = exactPointsLimit(fleet.tables.size, opts.tablePlans);
  // re-plan only where the journal does not answer (console-api.md "The decision journal")
  const replays = await Promise.all(
    journal.uncovered.map(async (u) => {
      const uw =
        u.from_ms === fromMs && u.to_ms === toMs ? w : await windowOf(clock, client, prefix, u.from_ms, u.to_ms, now);
      // never a revision the journal already answers (Span `after` / `before`)
      const bounded = {
        ...uw,
        fromRevision: Math.max(uw.fromRevision, (u.after ?? 0) + 1),
        toRevision: Math.min(uw.toRevision, (u.before ?? Infinity) - 1),
      };
      return bounded.fromRevision > bounded.toRevision
        ? { points: [], whole: true, cut: false }
        : replayPoints(client, prefix, clock, q.target, bounded, limit, now);
    }),
  );
  const replayed = replays.flatMap((r) => r.points);
  const points = await withMovedBy(
    [...journal.points, ...replayed].sort((a, b) => a.revision - b.revision || (a.now_ms ?? 0) - (b.now_ms ?? 0)),
    journal.initialRevision ?? w.fromRevision - 1, // the journal's own start is exact; the revision clock's is an estimate
    journal.placedWith,
    ownKeys(prefix, q.target),
    opts.journalInputs === false ? new Map() : journal.inputs,
  );
  const coversAll = journal.uncovered.length === 0;
  const basis: HistoryResponse["verdict_basis"] =
    replayed.some((p) => p.basis === "figures_only") || (!coversAll && replays.some((r) => !r.whole))
      ? "figures_only"
      : replayed.length > 0 || (!coversAll && journal.points.length === 0)
        ? "fleet_plan"
        : "journal";
  return {
    target: q.target,
    from_ms: fromMs,
    to_ms: toMs,
    from_revision: w.fromRevision,
    to_revision: w.toRevision,
    points,
    compacted_before: replays.some((r) => r.cut) ? w.oldest : null,
    history_starts: w.starts,
    verdict_basis: basis,
    fleet_plan_points: limit,
    time_in_state: windowTimeInState(journal, points, fromMs, toMs),
  };
}

/** The verdict from each point on; "unknown" at the start of a journal gap until a re-planned point says (lib/journal/window.ts). */
function windowTimeInState(
  journal: JournalWindow,
  points: readonly HistoryPoint[],
  fromMs: number,
  toMs: number,
): TimeInState {
  const marks: { at_ms: number; key: StateKey }[] = [];
  if (journal.initial) marks.push({ at_ms: fromMs, key: journal.initial });
  // a gap inside the window (not the tail after the last write, where the journal's last entry still holds)
  for (const u of journal.uncovered)
    if (u.from_ms > fromMs && u.to_ms < toMs) marks.push({ at_ms: u.from_ms, key: { state: "unknown", code: null } });
  for (const p of points) {
    const at = p.basis === "journal" ? p.now_ms : p.at_ms;
    if (at === null) continue;
    const key: StateKey =
      p.verdict === null
        ? { state: "unknown", code: null } // figures only: no verdict was re-planned there
        : p.journal?.gone || p.verdict.code === "gone"
          ? { state: "gone", code: null }
          : { state: p.verdict.state, code: p.verdict.code };
    marks.push({ at_ms: at, key });
  }
  return timeInState(marks, fromMs, toMs);
}

/** The re-planned points of one window (see the top): the whole fleet at each point while the budget allows, else the table's own figures. */
async function replayPoints(
  client: EtcdClient,
  prefix: string,
  clock: RevisionClock,
  target: string,
  w: Awaited<ReturnType<typeof windowOf>>,
  limit: number,
  now: number,
) {
  const own = ownKeys(prefix, target);
  const found = await Promise.all(
    own.prefixes.map((p) => readRange(client, prefix, { key: p, prefix: true, revision: w.toRevision })),
  );
  const walked = [...own.single, ...found.flatMap((r) => r.kvs.map((kv) => kv.key))];
  const histories = await keyHistories(client, prefix, walked, w.fromRevision, w.toRevision);
  const revisions = [...new Set(histories.flatMap((h) => h.versions.map((v) => v.modRevision)))].sort((a, b) => a - b);
  // every point is a mod_revision read just now, at or after the oldest: checking that one is enough
  if (revisions.length > 0) await clock.timeOf(revisions[0]);
  const whole = revisions.length <= limit;
  const points = whole
    ? await fleetPlanPoints(target, revisions)
    : await figuresOnlyPoints(prefix, clock, target, histories, revisions, now);
  return {
    points: points.filter((p): p is HistoryPoint => p !== null),
    whole,
    cut: w.cut || histories.some((h) => h.compacted),
  };
}

/** Every point's own figures, from the table's own keys alone (see the top). */
async function figuresOnlyPoints(
  prefix: string,
  clock: RevisionClock,
  target: string,
  histories: KeyHistory[],
  revisions: number[],
  now: number,
): Promise<(HistoryPoint | null)[]> {
  const states = statesAt(histories, revisions);
  const snapshotKv = versionCache();
  const times = await mapPooled(revisions, CONCURRENCY, (revision) => clock.timeOfReadable(revision));
  return revisions.map((revision, i) =>
    figuresPoint(prefix, target, revision, times[i], states[i].map(snapshotKv), now),
  );
}
