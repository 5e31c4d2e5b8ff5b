import { describe, expect, it } from "vitest";
import type { CanaryResponse, CanarySample } from "@/lib/schema/api/canary";
import { canaryHistoryReport } from "@/lib/planner/takeover/canary";
import { plannerModeAmongMisses } from "./outcomes";

const sample = (k: number, misses: number, inPlanner?: number): CanarySample => ({
  at_ms: k * 60_000,
  revision: k,
  outcomes: { discovery_miss: misses, queued_only: 0, running: 0, placement_gap: 0, phantom_task: 0 },
  disagreements: misses,
  ...(inPlanner === undefined ? {} : { discovery_miss_in_planner_mode: inPlanner }),
});

const report = (samples: CanarySample[], nowInPlanner: number) => {
  const r = canaryHistoryReport(samples);
  return { ...r, current: { discovery_miss_in_planner_mode: nowInPlanner } } as unknown as Pick<
    CanaryResponse,
    "current" | "outcomes" | "legacy_mode"
  >;
};

describe("plannerModeAmongMisses: when the page and the CLI say how many misses are tables in planner mode", () => {
  it("not when no sample and not now (the legacy-mode figures are the row's own)", () => {
    expect(plannerModeAmongMisses(report([sample(0, 3), sample(1, 5, 0)], 0))).toBe(false);
  });
  it("when one is now, or when any sample of the window counted one", () => {
    expect(plannerModeAmongMisses(report([sample(0, 3), sample(1, 5, 0)], 2))).toBe(true);
    expect(plannerModeAmongMisses(report([sample(0, 3, 1), sample(1, 5, 0), sample(2, 5, 0)], 0))).toBe(true);
  });
});
