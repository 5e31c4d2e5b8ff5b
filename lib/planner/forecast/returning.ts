// The tables in planner mode that are out of line only while the planner's own unit runs
// (console-api.md "Forecasts …", `planner`, for a table in planner mode): a table whose
// writers are still busy has work again once its merge ends, and a merge placed at one cycle
// is mostly done by the next (the master places every PLANNER_RECONCILE_SECS,
// scheduler-model.md §6.1). At that cycle it is a candidate again, and where the §4.1 order
// puts it ahead of a table waiting now, it takes a placement first. So a waiting table's
// turn is counted behind the planner-mode candidates ahead of it AND these. Counted from one
// plan, once: their order keys per kind, sorted; a row's count is one binary search. Pure.
import type { FleetPlan, TablePlan } from "../plan/types";
import { comparePlannerOrder, type OrderKey } from "../order";
import { lowerBound } from "../plan/sorted-patch";

const keyOf = (t: TablePlan): OrderKey => ({
  target: t.target,
  class_rank: t.class_rank,
  wait_ms: t.wait_ms,
  score: typeof t.score === "number" ? t.score : Infinity,
});

/** Its write turn is held by a unit the planner placed (a non-shadow assignment, or the execution it started). */
export const heldByPlanner = (t: TablePlan) =>
  t.write_turn_holder?.type === "assignment" || t.write_turn_holder?.type === "execution";

export interface Returning {
  /** planner-mode tables of `kind` out of line while their unit runs, ahead of `t` in the §4.1 order */
  aheadOf(t: TablePlan, kind: string): number;
}

/** The returning tables of one plan, by kind of their head unit. */
export function returningTables(plan: Pick<FleetPlan, "tables">): Returning {
  const byKind = new Map<string, OrderKey[]>();
  for (const t of plan.tables) {
    if (t.policy.effective.mode !== "planner" || t.line_kind !== null || t.units.length === 0) continue;
    if (!heldByPlanner(t)) continue;
    const kind = t.units[0].kind;
    let list = byKind.get(kind);
    if (!list) byKind.set(kind, (list = []));
    list.push(keyOf(t));
  }
  for (const list of byKind.values()) list.sort(comparePlannerOrder);
  return {
    aheadOf(t, kind) {
      const list = byKind.get(kind);
      return list ? lowerBound(list, keyOf(t), comparePlannerOrder) : 0;
    },
  };
}
