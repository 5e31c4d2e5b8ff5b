import "server-only";
// GET /api/v1/scheduler/assignments: live assignments (state != released) with bind age
// and the overdue flag (past bind_deadline_ms and still not bound; never a shadow row).
import type { AssignmentRow, AssignmentsQuery, AssignmentsResponse } from "@/lib/schema/api/assignments";
import type { FleetView } from "@/lib/live/cache";
import { compareTargets } from "@/lib/planner/order";
import { overdueMs } from "@/lib/planner/deadline";
import { snapshotMeta, type Evaluation } from "@/lib/live/evaluation";

export function assignmentsResponse(
  view: FleetView,
  query: AssignmentsQuery,
  evaluation: Evaluation,
): AssignmentsResponse {
  const { now } = evaluation;
  const rows: AssignmentRow[] = [];
  for (const { assignment: a } of view.snapshot.assignments) {
    if (a.state === "released") continue;
    if (query.target !== undefined && a.target !== query.target) continue;
    if (query.executor !== undefined && a.executor !== query.executor) continue;
    rows.push({
      unit_id: a.unit_id,
      kind: a.kind,
      target: a.target,
      executor: a.executor,
      state: a.state,
      reserved_slots: a.reserved_slots as Record<string, number>,
      reserved_bytes: a.reserved_bytes,
      created_ms: a.created_ms,
      bind_deadline_ms: a.bind_deadline_ms,
      age_ms: Math.max(0, now - a.created_ms),
      // shadow rows are never bound in P1 (§2.5, §6.2): their deadline is not a promise
      overdue: a.state !== "bound" && a.state !== "shadow" && now > a.bind_deadline_ms,
      overdue_ms: a.state !== "bound" && a.state !== "shadow" ? overdueMs(a.bind_deadline_ms, now) : null,
    });
  }
  rows.sort(
    (x, y) => x.created_ms - y.created_ms || compareTargets(x.target, y.target) || compareTargets(x.unit_id, y.unit_id),
  );
  return { ...snapshotMeta(view, evaluation), now_ms: now, assignments: rows };
}
