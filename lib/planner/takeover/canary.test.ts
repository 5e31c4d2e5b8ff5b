import { describe, expect, it } from "vitest";
import type { CanarySample } from "@/lib/schema/api/canary";
import type { FleetPlan } from "@/lib/planner/plan";
import type { ShadowComparison } from "@/lib/planner/shadow";
import { canaryHistoryReport, discoveryMissesInPlannerMode, inPlannerMode, trendPerDay } from "./canary";

const sample = (at_ms: number, miss: number, agree: boolean, misses: string[]): CanarySample => ({
  at_ms,
  revision: at_ms,
  outcomes: { discovery_miss: miss, queued_only: 5, running: 3, placement_gap: 2, phantom_task: 0 },
  disagreements: miss,
  placements_agree: agree,
  tables: { discovery_miss: misses, phantom_task: [] },
});

describe("the canary report (observations, §6.2)", () => {
  it("fits a slope per day", () => {
    expect(
      trendPerDay([
        { t: 0, y: 1 },
        { t: 43_200_000, y: 2 },
      ]),
    ).toBe(2);
    expect(trendPerDay([{ t: 5, y: 1 }])).toBeNull();
  });

  it("states levels, trends, agreement and chronic tables; flags an outcome that should fall and rose", () => {
    const samples = [
      sample(0, 2, true, ["a", "b"]),
      sample(60_000, 4, false, ["a"]),
      sample(120_000, 6, true, ["a", "c"]),
      sample(180_000, 8, true, ["b"]),
    ];
    const r = canaryHistoryReport(samples);
    expect(r.samples).toBe(4);
    expect(r.enough_data).toBe(false);
    expect(r.outcomes.discovery_miss).toEqual({ mean: 5, first: 2, last: 8, trend_per_day: 2 * 1440 });
    expect(r.outcomes.running).toEqual({ mean: 3, first: 3, last: 3, trend_per_day: 0 });
    expect(r.agreement).toEqual({ placements_agree_share: 0.75, samples: 4 });
    expect(r.chronic).toEqual([
      { target: "a", outcome: "discovery_miss", share: 0.75, samples: 3 },
      { target: "b", outcome: "discovery_miss", share: 0.5, samples: 2 },
    ]);
    expect(r.rising).toEqual(["discovery_miss"]);
  });

  it("judges the warning on the tables in mode legacy: moving due tables into planner mode is not misses rising", () => {
    // 2 legacy-mode misses throughout; from the third sample 3, then 6 tables are in planner
    // mode with no legacy task (§6.2 counts them as misses), and the last sample has one
    // legacy-mode miss more than the first
    const at = (k: number, inPlanner: number | undefined, legacy: number): CanarySample => ({
      ...sample(k * 60_000, legacy + (inPlanner ?? 0), true, []),
      ...(inPlanner === undefined ? {} : { discovery_miss_in_planner_mode: inPlanner }),
    });
    const r = canaryHistoryReport([at(0, undefined, 2), at(1, 0, 2), at(2, 3, 2), at(3, 6, 2)]);
    expect(r.outcomes.discovery_miss).toMatchObject({ first: 2, last: 8 });
    expect(r.outcomes.discovery_miss.trend_per_day).toBeGreaterThan(0);
    expect(r.legacy_mode.discovery_miss).toEqual({ mean: 2, first: 2, last: 2, trend_per_day: 0 });
    expect(r.rising).toEqual([]);
    // a legacy-mode table missed more: that rises, whatever the planner-mode count does
    const worse = canaryHistoryReport([at(0, 6, 2), at(1, 3, 2), at(2, 0, 3)]);
    expect(worse.outcomes.discovery_miss).toMatchObject({ first: 8, last: 3 });
    expect(worse.legacy_mode.discovery_miss).toMatchObject({ first: 2, last: 3 });
    expect(worse.rising).toEqual(["discovery_miss"]);
  });

  it("says nothing it cannot know from an empty window", () => {
    const r = canaryHistoryReport([]);
    expect(r.outcomes.phantom_task).toEqual({ mean: null, first: null, last: null, trend_per_day: null });
    expect(r.agreement.placements_agree_share).toBeNull();
    expect(r.rising).toEqual([]);
  });
});

describe("discovery misses in planner mode", () => {
  const modes = ["planner", "legacy", "planner", "legacy", "planner"] as const;
  const tables = modes.map((mode, k) => ({ target: `t/${k}`, policy: { effective: { mode } } }));
  const plan = { tables, byTarget: new Map(tables.map((t) => [t.target, t])) } as unknown as FleetPlan;
  const comparisonOf = (misses: string[]) => ({ targets: { discovery_miss: misses } }) as unknown as ShadowComparison;

  it("counts the misses whose table the plan has in mode planner: the same count as asking each miss's row", () => {
    const misses = ["t/0", "t/1", "t/2", "t/3", "gone/9"];
    const byRow = misses.filter((t) => inPlannerMode(plan, t)).length;
    expect(byRow).toBe(2);
    expect(discoveryMissesInPlannerMode(comparisonOf(misses), plan)).toBe(byRow);
    expect(discoveryMissesInPlannerMode(comparisonOf(["t/4"]), plan)).toBe(1);
    expect(discoveryMissesInPlannerMode(comparisonOf([]), plan)).toBe(0);
  });

  it("is 0 when no table is in mode planner", () => {
    const legacy = tables.map((t) => ({ ...t, policy: { effective: { mode: "legacy" } } }));
    const misses = legacy.map((t) => t.target);
    expect(discoveryMissesInPlannerMode(comparisonOf(misses), { tables: legacy } as unknown as FleetPlan)).toBe(0);
  });
});
