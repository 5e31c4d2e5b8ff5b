import "server-only";
// GET /api/v1/scheduler/demand/history (console-api.md "Time"). The table's own keys —
// its demand events, cache row, policies (its own and `_default`), write-turn lock,
// execution and the other fences (merge claim, catch-up, prepared compaction), merge
// failures, cooldowns and assignments — are walked back through etcd's history
// by mod_revision (lib/etcd/key-history.ts): one point per revision at which one of them
// changed. Each point rebuilds the table from those keys as they were at that revision,
// beside the executors, assignments and legacy queue current then, and plans it at the revision's own
// time (lib/api/revision-clock.ts) with the same parsers, fold and planner as every page.
// The verdict weighs the table against the capacity free at that revision and the legacy
// tasks then; other tables' competition for the capacity is not replayed (that would be
// one fleet plan per point), nor is the `tasks/` window of fairness (§4.2 turns). Keys
// deleted before the window's end are not found (no value is left to walk back from).
import { planFleet } from "@/lib/planner/plan";
import { TASK_KINDS } from "@/lib/schema/kinds";
import { hex, keys } from "@/lib/schema/keys";
import { DEFAULT_HISTORY_WINDOW_MS, type HistoryPoint, type HistoryQuery, type HistoryResponse } from "@/lib/schema/api/history";
import type { RevisionTime } from "@/lib/schema/api/revisions";
import { etcdClient, etcdPrefix, type EtcdClient } from "@/lib/etcd/client";
import { keyHistory, readRange, readRangesAtRevisions, type KeyHistory, type VersionedKv } from "@/lib/etcd/key-history";
import { currentRevision } from "@/lib/etcd/paged-read";
import { buildSnapshot, groupByFamily } from "@/lib/snapshot/build";
import type { SnapshotKv } from "@/lib/snapshot/types";
import { foldSnapshot } from "@/lib/snapshot/demand-index";
import { plannerFleet } from "@/lib/live/planner-input";
import { ApiError } from "./errors";
import { FUTURE_SLACK_MS, revisionClock, type RevisionClock } from "./revision-clock";

/** parallel etcd reads per request (keys walked, points evaluated) */
const CONCURRENCY = 32;

async function inParallel<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await run(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
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

function evaluatePoint(prefix: string, target: string, revision: number, time: RevisionTime, kvs: SnapshotKv[], now: number): HistoryPoint | null {
  const at = time.at_ms ?? now;
  // read "at" the point's own time: an execution first seen here was there by then (not at 0 ms)
  const snapshot = buildSnapshot(prefix, revision, groupByFamily(prefix, kvs), { readAtMs: at });
  const plan = planFleet(plannerFleet(snapshot, foldSnapshot(snapshot)), at);
  const t = plan.byTarget.get(target);
  if (!t) return null; // the table did not exist at this revision
  return {
    revision,
    at_ms: time.at_ms,
    error_ms: time.error_ms,
    pending_generations: t.pending_generations,
    wait_ms: t.wait_ms,
    class: t.class,
    score: t.score,
    verdict: t.verdict.state === "would_place" ? { state: "would_place", code: null } : { state: "would_skip", code: t.verdict.code },
  };
}

export async function demandHistory(q: HistoryQuery): Promise<HistoryResponse> {
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
  const histories = await inParallel(walked, (key) => keyHistory(client, prefix, key, w.fromRevision, w.toRevision));
  const revisions = [...new Set(histories.flatMap((h) => h.versions.map((v) => v.modRevision)))].sort((a, b) => a - b);
  // every point is a mod_revision read just now, at or after the oldest: checking that one is enough
  if (revisions.length > 0) await clock.timeOf(revisions[0]);
  const states = statesAt(histories, revisions);
  const snapshotKv = versionCache();
  const assignmentsPrefix = keys.assignments(prefix);
  const [times, around] = await Promise.all([inParallel(revisions, (revision) => clock.timeOfReadable(revision)), surroundingsAt(client, prefix, revisions)]);
  const points = revisions.map((revision, i) => {
    // the table's own assignments also come with the fleet's: each key once
    const own = states[i].filter((kv) => !kv.key.startsWith(assignmentsPrefix));
    return evaluatePoint(prefix, q.target, revision, times[i], [...own, ...around[i]].map(snapshotKv), now);
  });
  const cut = w.cut || histories.some((h) => h.compacted);
  return {
    target: q.target,
    from_ms: fromMs,
    to_ms: toMs,
    from_revision: w.fromRevision,
    to_revision: w.toRevision,
    points: points.filter((p): p is HistoryPoint => p !== null),
    compacted_before: cut ? w.oldest : null,
  };
}
