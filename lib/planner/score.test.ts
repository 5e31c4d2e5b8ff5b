import { describe, expect, it } from "vitest";
import { emptyTableDemand } from "@/lib/schema";
import {
  DEFAULT_MERGE_THRESHOLDS,
  comparePlannerOrder,
  compareTargets,
  foldEvent,
  scoreTable,
  sortPlannerOrder,
  type Scored,
} from "./index";
import { demand, ev } from "./__fixtures__/demand";

const NOW = 10_000_000;

describe("T25 classes_follow_thresholds (defaults, now 10,000,000)", () => {
  it("an empty table is not scored", () => {
    expect(scoreTable("t", emptyTableDemand(), NOW)).toBeNull();
  });
  it("3 pending → tail, score ≈ 0.3751", () => {
    const s = scoreTable("t", demand(3, NOW - 1000), NOW)!;
    expect(s.class).toBe("tail");
    expect(s.class_rank).toBe(5);
    expect(s.reason).toBe("below_threshold");
    expect(s.wait_ms).toBe(999);
    expect(s.wait_exact_ms).toBe(999);
    expect(s.by_gens).toBe(0.375);
    expect(s.score).toBe(0.375 * (1 + 0.999 / 3600));
    expect(s.score).toBeCloseTo(0.3751, 4);
    expect(s.pending_bytes).toBe(3_000_000);
  });
  it("16 pending → normal, score ≥ 2", () => {
    const s = scoreTable("t", demand(16, NOW - 1000), NOW)!;
    expect(s.class).toBe("normal");
    expect(s.reason).toBe("merge_score_due");
    expect(s.score).toBeGreaterThanOrEqual(2);
  });
  it("300 pending → critical, pending_at_or_above_critical", () => {
    const s = scoreTable("t", demand(300, NOW - 1000), NOW)!;
    expect(s.class).toBe("critical");
    expect(s.class_rank).toBe(1);
    expect(s.reason).toBe("pending_at_or_above_critical");
  });
});

describe("age rules (§4.1, §11 item 3)", () => {
  it("a wait ≥ max_turn_wait promotes any merge table, tails included", () => {
    const s = scoreTable("t", demand(1, NOW - 3_600_001), NOW)!;
    expect(s.wait_ms).toBe(3_600_000);
    expect(s.class).toBe("critical");
    expect(s.reason).toBe("promoted_for_age");
    expect(s.age_boost).toBe(2);
    expect(s.score).toBe(0.25);
  });
  it("an upper bound promotes (floor) but never boosts the score", () => {
    const t = emptyTableDemand();
    // generations 1..100 flushed at 1000+g; only 1..63 and 100 are kept; merged 70 → upper bound at 100
    for (let g = 1; g <= 100; g++) foldEvent(t, { ...ev("s", g, null, 1, "W"), flushed_at_ms: 1000 + g }, g, 0);
    foldEvent(t, ev("s", 1, 70, 1, "Ex"), 101, 0);
    const now = 1100 + 3_600_000;
    const s = scoreTable("t", t, now)!;
    expect(s.wait_ms).toBe(3_600_000);
    expect(s.wait_exact_ms).toBeNull();
    expect(s.age_boost).toBe(1);
    expect(s.score).toBe(30 / 8);
    expect(s.reason).toBe("promoted_for_age");
  });
  it("unknown times: no wait, no boost", () => {
    const t = emptyTableDemand();
    foldEvent(t, ev("s", 20, 4, 1, "Ex"), 1, 0); // executor events teach no time
    const s = scoreTable("t", t, NOW)!;
    expect(s.wait_ms).toBeNull();
    expect(s.score).toBe(2);
    expect(s.class).toBe("normal");
  });
  it("thresholds are a parameter: min_bytes adds a bytes term, max_age 0 disables aging", () => {
    const s = scoreTable("t", demand(2, NOW - 1000), NOW, {
      ...DEFAULT_MERGE_THRESHOLDS,
      min_bytes: 1_000_000,
      max_age_secs: 0,
    })!;
    expect(s.by_bytes).toBe(2);
    expect(s.age_boost).toBe(1);
    expect(s.score).toBe(2);
    expect(s.class).toBe("normal");
  });
});

const row = (target: string, class_rank: number, score: number, wait_ms: number | null): Scored => ({
  target,
  class: class_rank === 1 ? "critical" : class_rank === 3 ? "normal" : "tail",
  class_rank,
  reason: "merge_score_due",
  score,
  pending_generations: 1,
  pending_bytes: 0,
  oldest_pending_ms: null,
  wait_ms,
  wait_exact_ms: null,
  wait_floor_ms: null,
  by_gens: 1,
  by_bytes: 0,
  age_boost: 1,
  shards: 1,
});

describe("planner order (§4.1)", () => {
  it("class; class 1 by wait desc with unknown last; others score desc; NaN equal; then target bytes", () => {
    const items = [
      row("n-low", 3, 1.5, 10),
      row("tail", 5, 0.9, 999_999),
      row("c-unknown-b", 1, 9, null),
      row("c-unknown-a", 1, 1, null),
      row("c-old", 1, 1, 5000),
      row("c-new", 1, 50, 10),
      row("n-high", 3, 4, 0),
      row("n-nan-b", 3, NaN, 0),
      row("n-nan-a", 3, NaN, 0),
    ];
    expect(sortPlannerOrder(items).map((s) => s.target)).toEqual([
      "c-old",
      "c-new",
      "c-unknown-a",
      "c-unknown-b",
      "n-high",
      "n-low",
      "n-nan-a",
      "n-nan-b",
      "tail",
    ]);
    expect(comparePlannerOrder(row("a", 3, NaN, 0), row("b", 3, 7, 0))).toBeLessThan(0); // NaN equal → target
  });
  it("targets compare by UTF-8 bytes, not UTF-16 units", () => {
    expect(compareTargets("a", "b")).toBeLessThan(0);
    expect(compareTargets("ab", "a")).toBeGreaterThan(0);
    // U+FF5E (ef bd 9e) sorts before U+1F600 (f0 9f 98 80) in bytes; UTF-16 says the opposite
    expect(compareTargets("\uff5e", "\u{1f600}")).toBeLessThan(0);
    expect("\uff5e" < "\u{1f600}").toBe(false);
  });
});
