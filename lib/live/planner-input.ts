import "server-only";
// FleetSnapshot (+ folded tables) → the planner's PlannerFleet (lib/planner/plan/input.ts):
// plain maps and lists, indexed once per revision.
import { emptyTableDemand, type TableDemand } from "@/lib/schema/demand";
import type { Heartbeat } from "@/lib/schema/executors";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { PlannerFence, PlannerFleet } from "@/lib/planner/plan/input";
import type { FleetSnapshot } from "@/lib/snapshot/types";

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

export function fencesOf(snapshot: FleetSnapshot): Map<string, PlannerFence> {
  const fences = new Map<string, PlannerFence>();
  const fence = (target: string) => {
    let f = fences.get(target);
    if (!f) fences.set(target, (f = {}));
    return f;
  };
  for (const e of snapshot.targetLocks) fence(e.target).targetLock = e.value;
  for (const e of snapshot.mergeClaims) fence(e.target).mergeClaim = e.value;
  for (const e of snapshot.mergeExecutions) fence(e.target).execution = e.execution;
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

/** console-api.md: a table exists with demand events OR a cache row; a cache-only row plans as empty. */
export function withCacheOnlyTables(snapshot: FleetSnapshot, tables: ReadonlyMap<string, TableDemand>): ReadonlyMap<string, TableDemand> {
  let out: Map<string, TableDemand> | null = null;
  for (const row of snapshot.demandTables) {
    if (tables.has(row.target)) continue;
    out ??= new Map(tables);
    out.set(row.target, emptyTableDemand());
  }
  return out ?? tables;
}

export function plannerFleet(snapshot: FleetSnapshot, folded: ReadonlyMap<string, TableDemand>): PlannerFleet {
  const tables = withCacheOnlyTables(snapshot, folded);
  const heartbeats = new Map<string, Heartbeat>(snapshot.executors.map((e) => [e.id, e.heartbeat]));
  const tablePolicies = new Map<string, PolicyDocument>();
  let defaultPolicy: PolicyDocument | null = null;
  for (const p of snapshot.policies) {
    if (p.target === null) defaultPolicy = p.document;
    else tablePolicies.set(p.target, p.document);
  }
  return {
    tables,
    heartbeats,
    assignments: snapshot.assignments.map((a) => a.assignment),
    policies: { default: defaultPolicy, tables: tablePolicies },
    tasks: { queued: snapshot.queue.map((t) => t.task), running: snapshot.running.map((t) => t.task) },
    cooldowns: snapshot.cooldowns.map((c) => c.cooldown),
    failures: snapshot.mergeFailures.map((f) => f.failure),
    fences: fencesOf(snapshot),
  };
}
