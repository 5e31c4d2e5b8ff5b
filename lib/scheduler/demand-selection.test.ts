// A listing of a patched plan in planner order is made from the same listing of the plan
// before it (lib/scheduler/demand.ts `selectionOf`): the rows the patch took out, out; those
// it put in that pass the filters, in. Checked against the rows selected from scratch, over
// random fleets re-planned by patches and by the clock, for every kind of filter.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rowsPatchOf } from "@/lib/planner/plan";
import { finishedMerges } from "@/lib/planner/plan/__fixtures__/fleet";
import { replanEach, replanSteps } from "@/lib/planner/plan/__fixtures__/replans";
import { demandQuerySchema } from "@/lib/schema/api/demand";
import { selectTables, selectionOf } from "./demand";

const QUERIES = [
  {},
  { include_idle: "true" },
  { class: "normal" },
  { class: "idle" },
  { backlog: "warn" },
  { verdict: "would_skip" },
  { q: "t1" },
  { order: "desc" },
  { sort: "score" },
].map((q) => demandQuerySchema.parse(q));

describe("a listing's rows", () => {
  it("of a patched plan, made from the last plan's, are the rows selected from scratch", () => {
    let patched = 0;
    let shared = 0;
    fc.assert(
      fc.property(replanSteps, (steps) => {
        replanEach(steps, finishedMerges(2), (plan) => {
          if (rowsPatchOf(plan)) patched++;
          for (const q of QUERIES) {
            const rows = selectionOf(plan, q);
            expect(rows.map((t) => t.target)).toEqual(selectTables(plan.tables, q, plan.line).map((t) => t.target));
            // the very rows of the plan; all of them in planner order: the plan's own array, not a copy
            for (const t of rows) expect(plan.byTarget.get(t.target)).toBe(t);
            if (q.sort === "planner" && q.order !== "desc" && rows.length === plan.tables.length) {
              expect(rows).toBe(plan.tables);
              shared++;
            }
          }
        });
      }),
      { numRuns: 80 },
    );
    expect(patched).toBeGreaterThan(100);
    expect(shared).toBeGreaterThan(100);
  });
});
