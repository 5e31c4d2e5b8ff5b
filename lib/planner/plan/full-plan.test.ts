// The full plan in steps (full-plan.ts planSteps, replan.ts planFleetInSteps): the live
// clock makes its plan of 13k tables slice by slice, and that plan must be the plan made at
// once, kept so that the next change patches it.
import { describe, expect, it } from "vitest";
import type { TableDemand } from "@/lib/schema/demand";
import { LayeredMap } from "../layered-map";
import { planFleet, STEP_TABLES } from "./full-plan";
import { canPatch, planFleetInSteps, replanFleet } from "./replan";
import type { FleetPlan } from "./types";
import { NOW, demand, fleet, heartbeat } from "./__fixtures__/fleet";

const canonical = (plan: FleetPlan) =>
  JSON.stringify(plan, (_key, value: unknown) =>
    value instanceof Map || value instanceof LayeredMap ? { map: [...value.entries()] } : value,
  );

describe("the full plan in steps", () => {
  it("pauses every STEP_TABLES tables and candidates, and is the plan made at once, kept for patches", () => {
    const n = 3 * STEP_TABLES + 7;
    const tables = new Map<string, TableDemand>(
      Array.from({ length: n }, (_, i) => [`t${i}`, demand(i % 5 === 0 ? 0 : 8 + (i % 40), NOW - 60_000 * (i % 90))]),
    );
    const f = { ...fleet({ heartbeats: { e1: heartbeat(), e2: heartbeat() } }), tables };
    const steps = planFleetInSteps(f, NOW);
    let pauses = 0;
    let step = steps.next();
    while (!step.done) {
      pauses++;
      step = steps.next();
    }
    const plan = step.value;
    // one pause per STEP_TABLES tables drafted and per STEP_TABLES candidates placed, and three between the phases
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(n / STEP_TABLES) + 3);
    expect(canonical(plan)).toBe(canonical(planFleet(f, NOW)));
    expect(canPatch(plan, NOW)).toBe(true);
    // the next change patches it: only that table's row is new
    const changed = new Map(tables).set("t1", demand(500, NOW - 10_000));
    const next = replanFleet(plan, { ...f, tables: changed }, NOW);
    expect(canonical(next)).toBe(canonical(planFleet({ ...f, tables: changed }, NOW)));
    expect(next.tables.filter((t) => plan.byTarget.get(t.target) !== t).map((t) => t.target)).toContain("t1");
    expect(next.tables.filter((t) => plan.byTarget.get(t.target) !== t).length).toBeLessThan(n / 10);
  });
});
