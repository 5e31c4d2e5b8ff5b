// One pass over the fleet-wide lists, indexed by target and by executor, so planning a
// table never scans the whole fleet (13,405 tables per refresh, §8.3).
import type { Assignment } from "@/lib/schema/assignments";
import type { TaskKind } from "@/lib/schema/kinds";
import type { TaskCooldown, TaskRecord } from "@/lib/schema/tasks";
import { correctOnRead, type FailureLedgerRecord } from "../failure-ledger";
import type { PlannerFleet } from "./input";

const RATE_WINDOW_MS = 60_000;

export interface TargetIndex {
  running: TaskRecord[];
  /** oldest `enqueued_at` of a queued legacy task, per kind */
  queuedSince: Map<TaskKind, number>;
  queuedIds: string[];
  cooldowns: TaskCooldown[];
  /** merge-failures, read-time corrected (§9.1) */
  failures: FailureLedgerRecord[];
  /** live, non-shadow assignments (assigned / bound) holding the write turn */
  liveAssignments: Assignment[];
}

export interface FleetIndex {
  byTarget: Map<string, TargetIndex>;
  /** non-shadow placements per executor created within the last minute (§5.5) */
  recentPlacements: Map<string, number>;
}

function entry(index: Map<string, TargetIndex>, target: string): TargetIndex {
  let e = index.get(target);
  if (!e) {
    e = { running: [], queuedSince: new Map(), queuedIds: [], cooldowns: [], failures: [], liveAssignments: [] };
    index.set(target, e);
  }
  return e;
}

export function indexFleet(fleet: PlannerFleet, now: number): FleetIndex {
  const byTarget = new Map<string, TargetIndex>();
  const recentPlacements = new Map<string, number>();
  for (const t of fleet.tasks.running) entry(byTarget, t.target).running.push(t);
  for (const t of fleet.tasks.queued) {
    const e = entry(byTarget, t.target);
    e.queuedIds.push(t.id);
    const since = e.queuedSince.get(t.kind);
    if (since === undefined || t.enqueued_at < since) e.queuedSince.set(t.kind, t.enqueued_at);
  }
  for (const c of fleet.cooldowns) entry(byTarget, c.target).cooldowns.push(c);
  for (const f of fleet.failures) entry(byTarget, f.target).failures.push(correctOnRead(f).record);
  for (const a of fleet.assignments) {
    // Shadow rows are the master's own ephemeral plan, replaced every pass (§6.2): they are
    // neither placements nor write-turn holders.
    if (a.state === "shadow") continue;
    if (a.created_ms > now - RATE_WINDOW_MS && a.created_ms <= now) {
      recentPlacements.set(a.executor, (recentPlacements.get(a.executor) ?? 0) + 1);
    }
    if (a.state !== "released") entry(byTarget, a.target).liveAssignments.push(a);
  }
  return { byTarget, recentPlacements };
}

/** Failure-ledger endpoints per unit kind: maintenance runs on `master:<kind>`, merges on
 * worker URLs (§1.2). */
export function failureAppliesTo(endpoint: string, kind: string): boolean {
  if (kind === "merge_wal") return !endpoint.startsWith("master:");
  return endpoint === `master:${kind}`;
}
