// The master's bind deadlines (scheduler-model.md §5.5, [DESIGN] as the console models it):
// an assignment still unbound (`assigned`) at its `bind_deadline_ms` is released, and a
// released record is deleted an hour later. The simulated leader does this every cycle, so an
// orphan assignment lives until its deadline, as the master would keep it.
import type { AssignmentEntry } from "@/lib/snapshot/types";
import { put, del, type SimOp } from "./ops";

/** released records are garbage-collected after this long (§5.5) */
const RELEASED_KEPT_MS = 3_600_000;

/** What one cycle writes for the assignments as read: releases past the bind deadline, deletes of old releases. */
export function bindDeadlineOps(assignments: readonly AssignmentEntry[], now: number): SimOp[] {
  const ops: SimOp[] = [];
  for (const { key, assignment } of assignments) {
    if (assignment.state === "assigned" && assignment.bind_deadline_ms <= now)
      ops.push(put(key, JSON.stringify({ ...assignment, state: "released" })));
    else if (assignment.state === "released" && assignment.bind_deadline_ms + RELEASED_KEPT_MS <= now)
      ops.push(del(key));
  }
  return ops;
}
