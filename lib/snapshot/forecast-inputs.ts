// What the legacy world's forecasts read of one revision (console-api.md "Forecasts …",
// `legacy`): the queued and running `queue/` / `running/` tasks, the `tasks/` records of the
// read's window (finished in the last hour: the workers' throughput), the slots of the
// non-draining heartbeating executors, the cooldowns, and the assignments (the planner's own
// placements, for the tables in planner mode) (lib/planner/forecast/legacy.ts).
// Pure: a function of the snapshot.
import { legacyLine, type LegacyLine } from "@/lib/planner/forecast/legacy";
import type { TaskRecord } from "@/lib/schema/tasks";
import type { FleetSnapshot } from "./types";

export function legacyLineOf(snapshot: FleetSnapshot, now: number): LegacyLine {
  const slots = new Map<string, number>();
  for (const e of snapshot.executors) {
    if (e.heartbeat.draining) continue;
    for (const [kind, n] of Object.entries(e.heartbeat.slots_total)) slots.set(kind, (slots.get(kind) ?? 0) + (n ?? 0));
  }
  return legacyLine(
    {
      queue: snapshot.queue.map((e) => e.task),
      running: snapshot.running.map((e) => e.task),
      tasks: snapshot.tasks.map((e) => e.task),
      slots,
      cooldowns: snapshot.cooldowns.map((c) => ({ kind: c.kind, target: c.target, until_ms: c.cooldown.until_ms })),
      assignments: snapshot.assignments.map((a) => a.assignment),
    },
    now,
  );
}

/** A `tasks/` record of the read's window by id (the list is in key = id order: a binary search). */
export function taskLookup(snapshot: FleetSnapshot): (id: string) => TaskRecord | null {
  const tasks = snapshot.tasks;
  return (id) => {
    let lo = 0;
    let hi = tasks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (tasks[mid].taskId < id) lo = mid + 1;
      else hi = mid;
    }
    return lo < tasks.length && tasks[lo].taskId === id ? tasks[lo].task : null;
  };
}

/**
 * When the planner placed each table's live unit: the newest `created_ms` of its non-shadow,
 * unreleased assignments (the planner world's turn, dated by its record:
 * lib/journal/forecasts/sampler.ts).
 */
export function placementLookup(snapshot: FleetSnapshot): (target: string) => number | null {
  let byTarget: Map<string, number> | null = null;
  return (target) => {
    if (byTarget === null) {
      byTarget = new Map();
      for (const { assignment: a } of snapshot.assignments)
        if (a.state === "assigned" || a.state === "bound")
          byTarget.set(a.target, Math.max(byTarget.get(a.target) ?? -Infinity, a.created_ms));
    }
    return byTarget.get(target) ?? null;
  };
}
