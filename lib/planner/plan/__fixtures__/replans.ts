// Random runs of re-plans for property tests: a small fleet whose tables' demand is edited
// step by step (some steps move the clock), each step's plan patched from the last one
// where it can be (./fleet.ts for the records).
import fc from "fast-check";
import type { TableDemand } from "@/lib/schema/demand";
import type { TaskRecord } from "@/lib/schema/tasks";
import type { PlannerFleet } from "../input";
import { replanFleet } from "../replan";
import type { FleetPlan } from "../types";
import { NOW, demand, fleet, heartbeat } from "./fleet";

const TARGETS = Array.from({ length: 30 }, (_, i) => `t${String(29 - i).padStart(2, "0")}`);

const edit = fc.record({
  table: fc.integer({ min: 0, max: TARGETS.length - 1 }),
  pending: fc.constantFrom(0, 1, 8, 20, 300, 5000),
  ageS: fc.integer({ min: 0, max: 7200 }),
  fragments: fc.constantFrom(0, 0, 40), // a compaction as well
});
const step = fc.record({ edits: fc.array(edit, { minLength: 1, maxLength: 5 }), clockS: fc.constantFrom(0, 0, 5) });
export const replanSteps = fc.array(step, { minLength: 1, maxLength: 8 });
type Step = { edits: { table: number; pending: number; ageS: number; fragments: number }[]; clockS: number };

/** Plans the fleet, then each step's edits, handing every plan (the first included) to `check`. */
export function replanEach(steps: readonly Step[], history: TaskRecord[], check: (plan: FleetPlan) => void): void {
  let tables = new Map<string, TableDemand>(
    TARGETS.map((t, i) => [t, demand(i % 4 === 0 ? 0 : 8 + (i % 50), NOW - 1_800_000 - i)]),
  );
  const heartbeats = new Map([
    ["e1", heartbeat({ slots_total: { merge_wal: 1, compact: 1 } })],
    ["e2", heartbeat({ slots_total: { merge_wal: 2 } })],
  ]);
  // the fleet-wide records stay the same objects between steps, as the live view's do: a
  // step's plan is then patched from the last one (lib/planner/plan/fleet-diff.ts sameFleetWide)
  const wide = fleet();
  let now = NOW;
  let plan: FleetPlan | null = null;
  for (const s of [{ edits: [], clockS: 0 }, ...steps]) {
    tables = new Map(tables);
    for (const e of s.edits)
      tables.set(
        TARGETS[e.table],
        demand(e.pending, NOW - e.ageS * 1000, e.fragments > 0 ? { fragment_count: e.fragments } : {}),
      );
    now += s.clockS * 1000;
    plan = replanFleet(plan, { ...wide, tables, heartbeats, history } as PlannerFleet, now);
    check(plan);
  }
}
