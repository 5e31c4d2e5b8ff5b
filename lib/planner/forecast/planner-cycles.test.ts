// The leader's placing cycles read from its placements (./planner-cycles.ts), hand-worked.
import { describe, expect, it } from "vitest";
import { plannerCycles } from "./planner-cycles";

const NOW = 1_800_000_000_000;

describe("the planner's cycles", () => {
  it("takes the median gap between distinct creation moments, placements per moment, and the next cycle after now", () => {
    // cycles 30 s apart, one skipped (a 60 s gap the median passes over): 2 + 1 + 3 + 2 placements
    const created = [
      ...[NOW - 125_000, NOW - 125_000],
      NOW - 95_000,
      ...[NOW - 35_000, NOW - 35_000, NOW - 35_000],
      ...[NOW - 5_000, NOW - 5_000],
    ];
    expect(plannerCycles(created, NOW)).toEqual({ every_ms: 30_000, per_cycle: 2, next_in_ms: 25_000 });
    // later than a whole period after the last: the next whole period from it
    expect(plannerCycles(created, NOW + 40_000)).toEqual({ every_ms: 30_000, per_cycle: 2, next_in_ms: 15_000 });
    // a cycle exactly now has happened: the next one is a period on
    expect(plannerCycles(created, NOW - 5_000)?.next_in_ms).toBe(30_000);
    // a cycle due exactly now whose placements this read does not hold yet: due now, not a period on
    expect(plannerCycles(created, NOW + 25_000)?.next_in_ms).toBe(0);
    expect(plannerCycles(created, NOW + 55_000)?.next_in_ms).toBe(0);
  });

  it("counts a cycle's placements by the median cycle, not the mean (a cycle with few waiting says nothing of how many it can place)", () => {
    const created = [
      ...Array.from({ length: 8 }, () => NOW - 90_000),
      ...Array.from({ length: 8 }, () => NOW - 60_000),
      NOW - 30_000,
      ...Array.from({ length: 8 }, () => NOW - 10_000),
    ];
    // mean 25 / 4 = 6.25; median 8
    expect(plannerCycles(created, NOW)?.per_cycle).toBe(8);
  });

  it("says nothing from fewer than two cycles", () => {
    expect(plannerCycles([], NOW)).toBeNull();
    expect(plannerCycles([NOW - 1_000, NOW - 1_000, NOW - 1_000], NOW)).toBeNull();
  });
});
