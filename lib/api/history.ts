import "server-only";
// GET /api/v1/scheduler/demand/history (console-api.md "Time"). The table's own keys —
// its demand events, cache row, policies (its own and `_default`), write-turn lock,
// execution and the other fences (merge claim, catch-up, prepared compaction), merge
// failures, cooldowns and assignments — are walked back through etcd's history
// by mod_revision (lib/etcd/key-history.ts): one point per revision at which one of them
// changed. Keys deleted before the window's end are not found (no value is left to walk
// back from). Each point is evaluated at the revision's own time (./revision-clock.ts), in
// one of two ways, named by `verdict_basis`:
// * `fleet_plan`: the whole fleet read at that revision and planned at that time — the
//   very view and plan a page pinned there shows (./fleet.ts, ./plan.ts `planOnce`), so
//   the table page, the diff and the history agree. Chosen while points × tables stays
//   within what one request replays (EXACT_TABLE_PLANS).
// * `table_alone`: past that, the table is rebuilt from its own keys beside the executors,
//   assignments and legacy queue current then, and planned alone with the same parsers,
//   fold and planner: its demand, wait, class and score are the page's, but its verdict
//   weighs it against the capacity free then, not against the tables ahead of it in line,
//   nor the `tasks/` window of fairness (§4.2 turns).
import { planFleet, type TablePlan } from "@/lib/planner/plan";
import { TASK_KINDS } from "@/lib/schema/kinds";
import { hex, keys } from "@/lib/schema/keys";
import { DEFAULT_HISTORY_WINDOW_MS, type HistoryPoint, type HistoryQuery, type HistoryResponse } from "@/lib/schema/api/history";
import type { RevisionTime } from "@/lib/schema/api/revisions";
import { etcdClient, etcdPrefix, type EtcdClient } from "@/lib/etcd/client";
import { keyHistories, readRange, readRangesAtRevisions, type KeyHistory, type VersionedKv } from "@/lib/etcd/key-history";
import { currentRevision } from "@/lib/etcd/paged-read";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import type { SnapshotKv } from "@/lib/snapshot/types";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import { plannerFleet } from "@/lib/live/planner-input";
import { ApiError } from "./errors";
import { fleetView } from "./fleet";
import { evaluate } from "./meta";
import { planOnce } from "./plan";
import { FUTURE_SLACK_MS, revisionClock, type RevisionClock } from "./revision-clock";

/** parallel etcd reads per request (keys walked, points evaluated) */
const CONCURRENCY = 32;
/** table plans one request makes to plan every point's whole fleet (≈ 1 s here: a 13k-table fleet read and plan is ≈ 0.5 s) */
export const EXACT_TABLE_PLANS = 40_000;
/** whole-fleet points one request plans at most, whatever the fleet's size */
export const MAX_EXACT_POINTS = 600;
/** whole-fleet reads in flight at once */
const EXACT_CONCURRENCY = 4;

async function inParallel<T, R>(items: readonly T[], run: (item: T) => Promise<R>, concurrency = CONCURRENCY): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await run(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}

/** The table's own keys: single keys, and prefixes whose keys are found at the window's end. */
export function ownKeys(prefix: string, target: string): { single: string[]; prefixes: string[] } {
  const h = hex(target);
  return {
    single: [
      keys.demandTable(prefix, target),
      `${prefix}/policies/_default`,
      `${prefix}/policies/${h}`,
      keys.targetLock(prefix, target),
      keys.mergeExecution(prefix, target),
      ...["merge-claims", "catchup-active", "compact-preparations", "compact-commit-ready"].map((family) => `${prefix}/${family}/${h}`),
      ...TASK_KINDS.filter((k) => k !== "merge_wal").map((k) => keys.cooldown(prefix, k, target)),
    ],
    prefixes: [`${prefix}/demand-events/${h}/`, `${prefix}/merge-failures/${h}/`, `${prefix}/assignments/${h}/`],
  };
}

/** The window in revisions: [from, to] and where compaction cut it. */
async function windowOf(clock: RevisionClock, client: EtcdClient, prefix: string, fromMs: number, toMs: number, now: number) {
  const toRevision = toMs >= now ? await currentRevision(client, prefix) : (await clock.revisionAt(toMs)).revision;
  const oldest = await clock.oldestReadable();
  let fromRevision: number;
  let cut = false;
  try {
    fromRevision = (await clock.revisionAt(fromMs)).revision + 1;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 404) throw e;
    fromRevision = oldest;
    cut = oldest > 1;
  }
  return { fromRevision: Math.max(fromRevision, oldest), toRevision, oldest, cut };
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
 * What the table meets at each of `revisions` besides its own keys: executors and
 * assignments (the capacity free then) and the legacy queue with its claims (a task
 * running on the table), keyed by executor and task id rather than by table. Many
 * revisions share one round trip (readRangesAtRevisions).
 */
async function surroundingsAt(client: EtcdClient, prefix: string, revisions: readonly number[]): Promise<VersionedKv[][]> {
  const ranges = [keys.executors(prefix), keys.assignments(prefix), `${prefix}/queue/`, `${prefix}/running/`, `${prefix}/claims/`].map((key) => ({ key, prefix: true }));
  return (await readRangesAtRevisions(client, prefix, ranges, revisions)).map((perRange) => perRange.flat());
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
    if (!out) seen.set(id, (out = { key: kv.key, value: Buffer.from(kv.value, "utf8"), modRevision: kv.modRevision, lease: "0" }));
    return out;
  };
}

/** The most points a request plans with the whole fleet, for a fleet of `tables` tables. */
export function exactPointsLimit(tables: number, tablePlans = EXACT_TABLE_PLANS): number {
  return Math.min(MAX_EXACT_POINTS, Math.floor(tablePlans / Math.max(1, tables)));
}

function pointOf(revision: number, time: RevisionTime | null, t: TablePlan): HistoryPoint {
  return {
    revision,
    at_ms: time?.at_ms ?? null,
    error_ms: time?.error_ms ?? null,
    pending_generations: t.pending_generations,
    wait_ms: t.wait_ms,
    class: t.class,
    score: t.score,
    verdict: t.verdict.state === "would_place" ? { state: "would_place", code: null } : { state: "would_skip", code: t.verdict.code },
  };
}

/** The point as a page pinned at `revision` shows the table: the fleet read there, planned at the revision's time. */
async function fleetPlanPoint(target: string, revision: number): Promise<HistoryPoint | null> {
  const view = await fleetView(revision, { keep: false });
  const evaluation = await evaluate(view, {});
  const t = planOnce(view, evaluation.now).byTarget.get(target);
  return t ? pointOf(revision, evaluation.revision_time, t) : null; // null: the table did not exist then
}

function evaluatePoint(prefix: string, target: string, revision: number, time: RevisionTime, kvs: SnapshotKv[], now: number): HistoryPoint | null {
  const at = time.at_ms ?? now;
  // read "at" the point's own time: an execution first seen here was there by then (not at 0 ms)
  const snapshot = buildSnapshot(prefix, revision, groupByFamily(prefix, kvs), { readAtMs: at });
  const plan = planFleet(plannerFleet(snapshot, foldSnapshot(snapshot)), at);
  const t = plan.byTarget.get(target);
  return t ? pointOf(revision, time, t) : null; // null: the table did not exist at this revision
}

/** `tablePlans`: the whole-fleet budget (EXACT_TABLE_PLANS; tests force either way with it). */
export async function demandHistory(q: HistoryQuery, opts: { tablePlans?: number } = {}): Promise<HistoryResponse> {
  const client = etcdClient();
  const prefix = etcdPrefix();
  const clock = revisionClock();
  const now = Date.now();
  const toMs = q.to_ms ?? now;
  if (toMs > now + FUTURE_SLACK_MS) {
    const message = `to_ms ${toMs} is in the future (server clock ${now})`;
    throw new ApiError(400, "invalid_query", message, { issues: [{ path: ["to_ms"], code: "future_time", message }] });
  }
  const fromMs = q.from_ms ?? toMs - DEFAULT_HISTORY_WINDOW_MS;
  const w = await windowOf(clock, client, prefix, fromMs, toMs, now);
  const own = ownKeys(prefix, q.target);
  const found = await Promise.all(own.prefixes.map((p) => readRange(client, prefix, { key: p, prefix: true, revision: w.toRevision })));
  const walked = [...own.single, ...found.flatMap((r) => r.kvs.map((kv) => kv.key))];
  const histories = await keyHistories(client, prefix, walked, w.fromRevision, w.toRevision);
  const revisions = [...new Set(histories.flatMap((h) => h.versions.map((v) => v.modRevision)))].sort((a, b) => a - b);
  // every point is a mod_revision read just now, at or after the oldest: checking that one is enough
  if (revisions.length > 0) await clock.timeOf(revisions[0]);
  const limit = exactPointsLimit((await fleetView()).tables.size, opts.tablePlans);
  const whole = revisions.length <= limit;
  const points = whole
    ? await inParallel(revisions, (revision) => fleetPlanPoint(q.target, revision), EXACT_CONCURRENCY)
    : await tableAlonePoints(client, prefix, clock, q.target, histories, revisions, now);
  const cut = w.cut || histories.some((h) => h.compacted);
  return {
    target: q.target,
    from_ms: fromMs,
    to_ms: toMs,
    from_revision: w.fromRevision,
    to_revision: w.toRevision,
    points: points.filter((p): p is HistoryPoint => p !== null),
    compacted_before: cut ? w.oldest : null,
    verdict_basis: whole ? "fleet_plan" : "table_alone",
    fleet_plan_points: limit,
  };
}

/** Every point from the table's own keys and its surroundings, planned alone (see the top). */
async function tableAlonePoints(
  client: EtcdClient,
  prefix: string,
  clock: RevisionClock,
  target: string,
  histories: KeyHistory[],
  revisions: number[],
  now: number,
): Promise<(HistoryPoint | null)[]> {
  const states = statesAt(histories, revisions);
  const snapshotKv = versionCache();
  const assignmentsPrefix = keys.assignments(prefix);
  const [times, around] = await Promise.all([inParallel(revisions, (revision) => clock.timeOfReadable(revision)), surroundingsAt(client, prefix, revisions)]);
  return revisions.map((revision, i) => {
    // the table's own assignments also come with the fleet's: each key once
    const own = states[i].filter((kv) => !kv.key.startsWith(assignmentsPrefix));
    return evaluatePoint(prefix, target, revision, times[i], [...own, ...around[i]].map(snapshotKv), now);
  });
}
