import "server-only";
// One revision's state (FleetSnapshot, folded tables, what the process remembers of each
// execution's progress) → the planner's PlannerFleet (lib/planner/plan/input.ts): plain maps
// and lists, indexed once per revision. Pure: the same view gives the same input.
import { emptyTableDemand, type TableDemand } from "@/lib/schema/demand";
import type { Heartbeat } from "@/lib/schema/executors";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { ExecutionProgress, PlannerFence, PlannerFleet } from "@/lib/planner/plan/input";
import type { SequenceClock } from "@/lib/planner/progress";
import type { TaskRecord } from "@/lib/schema/tasks";
import type { FleetSnapshot } from "@/lib/snapshot/types";
import { processWide } from "@/lib/schema/process-wide";

/**
 * A derived-value cache shared by the whole process: Next bundles this module into several
 * chunks, and a re-plan compares a fleet one chunk derived with one another derived, by
 * identity (lib/planner/plan/fleet-diff.ts): a cache per chunk made them always differ.
 */
const shared = <K extends object, V>(what: string) =>
  processWide(`scheduler-console.planner-input.${what}`, () => new WeakMap<K, V>());

/** When an execution was first seen by this process, and its sequence then (null: no record). */
export interface ExecutionSeen {
  sequence: number | null;
  at_ms: number;
}
export type FirstSeen = ReadonlyMap<string, ExecutionSeen>;
const FIRST_SEEN_KEPT = 10_000;

/**
 * `previous` with the executions of `snapshot` it does not hold yet, seen at the snapshot's
 * read time with their sequence there (the same map when none is new). The live cache keeps
 * one per process and hands it out on each view, so the planner input is a function of the
 * view alone: no earlier request, pinned or not, changes what a view plans as.
 */
export function withFirstSeen(previous: FirstSeen, snapshot: FleetSnapshot): FirstSeen {
  let next: Map<string, ExecutionSeen> | null = null;
  let sequences: Map<string, number> | null = null;
  for (const e of snapshot.mergeExecutions) {
    const id = e.execution.id;
    if (previous.has(id) || next?.has(id)) continue;
    sequences ??= new Map(snapshot.mergeProgress.map((p) => [p.executionId, p.progress.sequence]));
    next ??= new Map(previous);
    next.set(id, { sequence: sequences.get(id) ?? null, at_ms: snapshot.readAtMs });
    if (next.size > FIRST_SEEN_KEPT) next.delete(next.keys().next().value!);
  }
  return next ?? previous;
}

/** What this process remembers of each execution's progress (a FleetView carries both). */
export interface ProgressMemory {
  /** when the merge-progress sequence of each execution was last seen to move */
  sequenceClocks?: ReadonlyMap<string, SequenceClock>;
  /** when each execution was first seen (absent: at the read, with the sequence read) */
  firstSeen?: FirstSeen;
}

/** Wall time at which a revision was written (a revision clock), null when unknown. */
export type RevisionTime = (revision: number) => number | null;

export interface ExecutionSample {
  executionId: string;
  /** `merge-progress/<id>`.sequence, null when the key is absent */
  sequence: number | null;
  /** mod_revision of the progress key (null when absent) and of the execution record */
  progressRevision: number | null;
  executionRevision: number;
}

const earliest = (a: number | null, b: number | null | undefined): number | null =>
  b == null ? a : a === null ? b : Math.min(a, b);

/**
 * How an execution's merge-progress sequence has moved, as this process can tell. The last
 * increase is bounded by the sequence clock (when this process saw it change, or its first
 * read) and by the time the progress key was written (its mod_revision on `revisionTime`);
 * with no progress record at all, "no progress since" is bounded by when this process first
 * saw the execution and when the execution record was written. "Advanced" only once the
 * sequence rose above the one first seen: a bound is never progress.
 */
export function executionProgress(
  sample: ExecutionSample,
  memory: ProgressMemory,
  readAtMs: number,
  revisionTime?: RevisionTime,
): ExecutionProgress {
  const { executionId, sequence } = sample;
  const seen = memory.firstSeen?.get(executionId) ?? { sequence, at_ms: readAtMs };
  if (sequence === null) {
    const watched = seen.sequence === null ? seen.at_ms : null;
    return {
      sequence: null,
      last_progress_ms: earliest(watched, revisionTime?.(sample.executionRevision)),
      advanced: false,
    };
  }
  const clock = memory.sequenceClocks?.get(executionId);
  // a clock only speaks for the sequence it saw
  const observed =
    clock && clock.execution_id === executionId && clock.sequence === sequence ? clock.changed_at_ms : null;
  const written = sample.progressRevision === null ? null : revisionTime?.(sample.progressRevision);
  return {
    sequence,
    last_progress_ms: earliest(observed, written),
    advanced: observed !== null && (seen.sequence === null || sequence > seen.sequence),
  };
}

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

export function fencesOf(
  snapshot: FleetSnapshot,
  memory: ProgressMemory = {},
  revisionTime?: RevisionTime,
): Map<string, PlannerFence> {
  const fences = new Map<string, PlannerFence>();
  const fence = (target: string) => {
    let f = fences.get(target);
    if (!f) fences.set(target, (f = {}));
    return f;
  };
  for (const e of snapshot.targetLocks) fence(e.target).targetLock = e.value;
  for (const e of snapshot.mergeClaims) fence(e.target).mergeClaim = e.value;
  const progress = new Map(snapshot.mergeProgress.map((p) => [p.executionId, p]));
  for (const e of snapshot.mergeExecutions) {
    const f = fence(e.target);
    f.execution = e.execution;
    const p = progress.get(e.execution.id);
    const sample = {
      executionId: e.execution.id,
      sequence: p?.progress.sequence ?? null,
      progressRevision: p?.modRevision ?? null,
      executionRevision: e.modRevision,
    };
    f.progress = executionProgress(sample, memory, snapshot.readAtMs, revisionTime);
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
const cacheOnlyTables = shared<object, TableDemand>("cache-only-tables");

/** console-api.md: a table exists with demand events OR a cache row; a cache-only row plans as empty. */
export function withCacheOnlyTables(
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
const heartbeatsOf = shared<Snap["executors"], Map<string, Heartbeat>>("heartbeatsOf");
const assignmentsOf = shared<Snap["assignments"], PlannerFleet["assignments"]>("assignmentsOf");
const policiesOf = shared<Snap["policies"], PlannerFleet["policies"]>("policiesOf");
const queuedOf = shared<Snap["queue"], TaskRecord[]>("queuedOf");
const runningOf = shared<Snap["running"], TaskRecord[]>("runningOf");
const cooldownsOf = shared<Snap["cooldowns"], PlannerFleet["cooldowns"]>("cooldownsOf");
const failuresOf = shared<Snap["mergeFailures"], PlannerFleet["failures"]>("failuresOf");
const historyOf = shared<Snap["tasks"], { running: Snap["running"]; queue: Snap["queue"]; history: TaskRecord[] }>(
  "historyOf",
);

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
export interface PlannerSource extends ProgressMemory {
  snapshot: FleetSnapshot;
  /** the folded demand tables */
  tables: ReadonlyMap<string, TableDemand>;
}

/**
 * The planner's input of one revision: a function of `source` (and of `revisionTime`, a
 * revision clock when the caller has one; with the sequence clocks it bounds when the write
 * turn last progressed).
 */
export function plannerFleet(source: PlannerSource, revisionTime?: RevisionTime): PlannerFleet {
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
    fences: fencesOf(snapshot, source, revisionTime),
    history: historyFrom(snapshot),
  };
}
