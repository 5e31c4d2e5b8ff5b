// The patch state of a plan (replan.ts) lives on the plan itself, so a plan one copy of the
// module made (one Next route bundle) is patched by another, with no process-wide slot.
import { describe, expect, it } from "vitest";
import type { TableDemand } from "@/lib/schema/demand";
import { twoCopies } from "@/test/support/two-copies";
import type { PlannerFleet } from "./input";
import { planFleet } from "./full-plan";
import type { FleetPlan } from "./types";
import { NOW, demand, fleet, heartbeat } from "./__fixtures__/fleet";

describe("replanFleet: the patch state lives on the plan", () => {
  it("a plan made by one copy of the module is patched by another (two route bundles), and its JSON carries none of it", async () => {
    const [a, b] = await twoCopies(() => import("./replan"));
    expect(a.replanFleet).not.toBe(b.replanFleet);
    const tables = new Map<string, TableDemand>();
    for (let i = 0; i < 40; i++) tables.set(`t${String(i).padStart(2, "0")}`, demand(8 + i, NOW - 1_800_000 - i));
    const first: PlannerFleet = {
      ...fleet(),
      tables,
      heartbeats: new Map([["e1", heartbeat()]]),
    };
    const plan = a.replanFleet(null, first, NOW);
    expect(JSON.stringify(plan)).toBe(JSON.stringify(planFleet(first, NOW)));
    const next: PlannerFleet = { ...first, tables: new Map([...tables, ["t07", demand(90, NOW - 1_800_000)]]) };
    expect(b.canPatch(plan, NOW, next)).toBe(true);
    const patched = b.replanFleet(plan, next, NOW);
    expect(b.rowsPatchOf(patched)?.previous.deref()).toBe(plan); // patched, not planned again
    // canonical() knows this copy's map classes only: here every map is spelled as its entries
    const json = (p: FleetPlan) =>
      JSON.stringify(p, (_key, value: unknown) =>
        value instanceof Map || (typeof value === "object" && value !== null && "entries" in value && "size" in value)
          ? { map: [...(value as ReadonlyMap<unknown, unknown>).entries()] }
          : value,
      );
    expect(json(patched)).toBe(json(planFleet(next, NOW)));
    // and no process-wide slot carried it (issue 46: the planner keeps its patch state on the plan)
    const slots = Object.getOwnPropertySymbols(globalThis).map((s) => s.description ?? "");
    expect(slots.filter((name) => name.includes("planner"))).toEqual([]);
  });
});
