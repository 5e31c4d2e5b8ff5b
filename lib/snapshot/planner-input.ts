import "server-only";
// One revision's state (FleetSnapshot, folded tables, each unfinished execution's progress
// from etcd's history) → the planner's PlannerFleet (lib/planner/plan/input.ts): plain maps
// and lists, indexed once per revision. Pure: the same view gives the same input.
import { emptyTableDemand, type TableDemand } from "@/lib/schema/demand";
import type { Heartbeat } from "@/lib/schema/executors";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { ExecutionProgress, PlannerFence, PlannerFleet } from "@/lib/planner/plan/input";
import type { TaskRecord } from "@/lib/schema/tasks";
import type { FleetSnapshot } from "@/lib/snapshot/types";

/**
 * A derived-value cache: a re-plan compares the fleet derived before with the one derived
 * now by identity (lib/planner/plan/fleet-diff.ts), so what is derived once is derived once.
 */
const shared = <K extends object, V>() => new WeakMap<K, V>();

/** `catchup-active/<hex>` holds the owning job (bare id, or JSON `{job, shared}`). */
function catchupOwner(value: string): { job: string; shared?: boolean } {
  if (value.startsWith("{")) {
    try {
      const parsed = JSON.parse(value) as { job?: unknown; shared?: unknown };
      if (typeof parsed.job === "string") return { job: parsed.job, shared: parsed.shared === true };
    } catch {
      /* a bare id after all */
    }
  }
  return { job: value };
}

/**
 * The fence records per target. `progress`: each unfinished execution's last progress from
 * etcd's history (lib/live/progress-history.ts); an execution without one has no known date.
 */
function fencesOf(
  snapshot: FleetSnapshot,
  progress: ReadonlyMap<string, ExecutionProgress> = new Map(),
): Map<string, PlannerFence> {
  const fences = new Map<string, PlannerFence>();
  const fence = (target: string) => {
    let f = fences.get(target);
    if (!f) fences.set(target, (f = {}));
    return f;
  };
  for (const e of snapshot.targetLocks) fence(e.target).targetLock = e.value;
  for (const e of snapshot.mergeClaims) fence(e.target).mergeClaim = e.value;
  const sequences = new Map(snapshot.mergeProgress.map((p) => [p.executionId, p.progress.sequence]));
  for (const e of snapshot.mergeExecutions) {
    const f = fence(e.target);
    f.execution = e.execution;
    f.progress = progress.get(e.execution.id) ?? {
      sequence: sequences.get(e.execution.id) ?? null,
      last_progress_revision: null,
      last_progress_ms: null,
      last_progress_bound: "exact",
    };
  }
  for (const e of snapshot.catchupActive) fence(e.target).catchupOwner = catchupOwner(e.value);
  for (const e of snapshot.compactPreparations) fence(e.target).preparation = e.value;
  for (const e of snapshot.compactCommitReady) {
    const f = fence(e.target);
    f.commitReady = e.value;
    f.commitReadySinceMs = null;
  }
  const claimed = new Set(snapshot.claims.map((c) => c.taskId));
  for (const t of [...snapshot.queue, ...snapshot.running]) {
    if (t.task.kind === "merge_wal" && claimed.has(t.taskId)) fence(t.task.target).activeTaskClaimed = true;
  }
  return fences;
}

/** The empty table a cache-only row plans as: one object per row, so a re-plan sees it unchanged. */
const cacheOnlyTables = shared<object, TableDemand>();

/** console-api.md: a table exists with demand events OR a cache row; a cache-only row plans as empty. */
function withCacheOnlyTables(
  snapshot: FleetSnapshot,
  tables: ReadonlyMap<string, TableDemand>,
): ReadonlyMap<string, TableDemand> {
  let out: Map<string, TableDemand> | null = null;
  for (const row of snapshot.demandTables) {
    if (tables.has(row.target)) continue;
    out ??= new Map(tables);
    let empty = cacheOnlyTables.get(row);
    if (!empty) cacheOnlyTables.set(row, (empty = emptyTableDemand()));
    out.set(row.target, empty);
  }
  return out ?? tables;
}

/**
 * Task records the planner reads as history (write turns started in the last 24 h,
 * completions of the last hour): the `tasks/` records of the read's window, plus the
 * queue/running copies of older tasks still active (a task enqueued before the window may
 * have started inside it). One record per task id, the authoritative `tasks/` one first.
 */
export function taskHistory(snapshot: FleetSnapshot): TaskRecord[] {
  const byId = new Map<string, TaskRecord>();
  for (const t of snapshot.tasks) byId.set(t.taskId, t.task);
  for (const t of [...snapshot.running, ...snapshot.queue]) if (!byId.has(t.taskId)) byId.set(t.taskId, t.task);
  return [...byId.values()];
}

/**
 * One derived value per source list. The live store hands out the same list while its
 * family is unchanged, so an unchanged family gives the planner the same object, and a
 * re-plan (lib/planner/plan/replan.ts) knows by identity that no fleet-wide input moved.
 */
function derivedFrom<S extends object, T>(cache: WeakMap<S, T>, source: S, build: (source: S) => T): T {
  let value = cache.get(source);
  if (value === undefined) cache.set(source, (value = build(source)));
  return value;
}

type Snap = FleetSnapshot;
const heartbeatsOf = shared<Snap["executors"], Map<string, Heartbeat>>();
const assignmentsOf = shared<Snap["assignments"], PlannerFleet["assignments"]>();
const policiesOf = shared<Snap["policies"], PlannerFleet["policies"]>();
const queuedOf = shared<Snap["queue"], TaskRecord[]>();
const runningOf = shared<Snap["running"], TaskRecord[]>();
const cooldownsOf = shared<Snap["cooldowns"], PlannerFleet["cooldowns"]>();
const failuresOf = shared<Snap["mergeFailures"], PlannerFleet["failures"]>();
const historyOf = shared<Snap["tasks"], { running: Snap["running"]; queue: Snap["queue"]; history: TaskRecord[] }>();

function policiesFrom(list: Snap["policies"]): PlannerFleet["policies"] {
  const tables = new Map<string, PolicyDocument>();
  let fleetDefault: PolicyDocument | null = null;
  for (const p of list) {
    if (p.target === null) fleetDefault = p.document;
    else tables.set(p.target, p.document);
  }
  return { default: fleetDefault, tables };
}

function historyFrom(snapshot: FleetSnapshot): TaskRecord[] {
  const kept = historyOf.get(snapshot.tasks);
  if (kept && kept.running === snapshot.running && kept.queue === snapshot.queue) return kept.history;
  const history = taskHistory(snapshot);
  historyOf.set(snapshot.tasks, { running: snapshot.running, queue: snapshot.queue, history });
  return history;
}

/** One revision's state as the planner reads it (lib/live's FleetView is one). */
export interface PlannerSource {
  snapshot: FleetSnapshot;
  /** the folded demand tables */
  tables: ReadonlyMap<string, TableDemand>;
  /** each unfinished execution's last progress (absent: not known) */
  progress?: ReadonlyMap<string, ExecutionProgress>;
}

/** The planner's input of one revision: a function of `source`. */
export function plannerFleet(source: PlannerSource): PlannerFleet {
  const { snapshot } = source;
  const tables = withCacheOnlyTables(snapshot, source.tables);
  return {
    tables,
    heartbeats: derivedFrom(
      heartbeatsOf,
      snapshot.executors,
      (list) => new Map<string, Heartbeat>(list.map((e) => [e.id, e.heartbeat])),
    ),
    assignments: derivedFrom(assignmentsOf, snapshot.assignments, (list) => list.map((a) => a.assignment)),
    policies: derivedFrom(policiesOf, snapshot.policies, policiesFrom),
    tasks: {
      queued: derivedFrom(queuedOf, snapshot.queue, (list) => list.map((t) => t.task)),
      running: derivedFrom(runningOf, snapshot.running, (list) => list.map((t) => t.task)),
    },
    cooldowns: derivedFrom(cooldownsOf, snapshot.cooldowns, (list) => list.map((c) => c.cooldown)),
    failures: derivedFrom(failuresOf, snapshot.mergeFailures, (list) => list.map((f) => f.failure)),
    fences: fencesOf(snapshot, source.progress),
    history: historyFrom(snapshot),
  };
}
