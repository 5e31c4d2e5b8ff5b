// The patch state of a plan (replan.ts) lives on the plan itself (issue 46: no module WeakMaps
// in the planner): the plan carries what patching it needs, and its JSON carries none of it.
import { describe, expect, it } from "vitest";
import type { TableDemand } from "@/lib/schema/demand";
import { canPatch, replanFleet, rowsPatchOf } from "./replan";
import type { PlannerFleet } from "./input";
import { planFleet } from "./full-plan";
import type { FleetPlan } from "./types";
import { NOW, demand, fleet, heartbeat } from "./__fixtures__/fleet";

describe("replanFleet: the patch state lives on the plan", () => {
  it("a plan is patched from what it carries, to the full plan's JSON, and its JSON carries none of it", () => {
    const tables = new Map<string, TableDemand>();
    for (let i = 0; i < 40; i++) tables.set(`t${String(i).padStart(2, "0")}`, demand(8 + i, NOW - 1_800_000 - i));
    const first: PlannerFleet = {
      ...fleet(),
      tables,
      heartbeats: new Map([["e1", heartbeat()]]),
    };
    const plan = replanFleet(null, first, NOW);
    expect(JSON.stringify(plan)).toBe(JSON.stringify(planFleet(first, NOW)));
    const next: PlannerFleet = { ...first, tables: new Map([...tables, ["t07", demand(90, NOW - 1_800_000)]]) };
    expect(canPatch(plan, NOW, next)).toBe(true);
    const patched = replanFleet(plan, next, NOW);
    expect(rowsPatchOf(patched)?.previous.deref()).toBe(plan); // patched, not planned again
    // every map spelled as its entries: a patched plan's maps are layered, a full plan's are not
    const json = (p: FleetPlan) =>
      JSON.stringify(p, (_key, value: unknown) =>
        value instanceof Map || (typeof value === "object" && value !== null && "entries" in value && "size" in value)
          ? { map: [...(value as ReadonlyMap<unknown, unknown>).entries()] }
          : value,
      );
    expect(json(patched)).toBe(json(planFleet(next, NOW)));
    expect(JSON.stringify(patched)).not.toContain("previous");
    // and no process-wide slot carried it (issue 46: the planner keeps its patch state on the plan)
    const slots = Object.getOwnPropertySymbols(globalThis).map((s) => s.description ?? "");
    expect(slots.filter((name) => name.includes("planner"))).toEqual([]);
  });
});
