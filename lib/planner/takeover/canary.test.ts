import { describe, expect, it } from "vitest";
import type { CanarySample } from "@/lib/schema/api/canary";
import { canaryHistoryReport, trendPerDay } from "./canary";

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

  it("says nothing it cannot know from an empty window", () => {
    const r = canaryHistoryReport([]);
    expect(r.outcomes.phantom_task).toEqual({ mean: null, first: null, last: null, trend_per_day: null });
    expect(r.agreement.placements_agree_share).toBeNull();
    expect(r.rising).toEqual([]);
  });
});
