import { describe, expect, it } from "vitest";
import { BUILTIN_POLICY } from "@/lib/schema/policy";
import { backlogClass } from "./backlog";
import { mergeProgress } from "./progress";

describe("backlog_class (ok < 256 ≤ warn < 4096 ≤ critical by default)", () => {
  it.each([
    [0, "ok"],
    [255, "ok"],
    [256, "warn"],
    [4095, "warn"],
    [4096, "critical"],
    [10 ** 9, "critical"],
  ] as const)("%i → %s", (p, c) => {
    expect(backlogClass(p, BUILTIN_POLICY.backlog)).toBe(c);
  });
  it("follows the policy thresholds", () => {
    expect(backlogClass(20, { warn_generations: 10, critical_generations: 20 })).toBe("critical");
  });
});

describe("§7.1 merge progress", () => {
  const base = {
    activeTaskId: "task-1",
    executionId: "e1",
    sequence: 7,
    workReport: { sequence: 7, rows: 10 },
    lastProgressMs: 1000,
    now: 61_000,
  };
  it("statuses", () => {
    expect(mergeProgress(base)).toEqual({
      status: "reported",
      task_id: "task-1",
      sequence: 7,
      work_report: { sequence: 7, rows: 10 },
      unchanged_for_ms: 60_000,
      stalled: false,
    });
    expect(mergeProgress({ ...base, workReport: { sequence: 6 } })).toMatchObject({
      status: "progress_details_unavailable",
      work_report: null,
    });
    expect(mergeProgress({ ...base, workReport: null })).toMatchObject({ status: "progress_details_unavailable" });
    expect(mergeProgress({ ...base, executionId: null, sequence: null })).toMatchObject({
      status: "progress_unknown",
      stalled: false,
      unchanged_for_ms: null,
    });
    expect(mergeProgress({ ...base, executionId: null, activeTaskId: null })).toMatchObject({
      status: "no_active_record",
      task_id: null,
    });
  });
  it("stalls after 600 s without a sequence increase", () => {
    expect(mergeProgress({ ...base, now: 600_999 }).stalled).toBe(false);
    expect(mergeProgress({ ...base, now: 601_000 })).toMatchObject({ stalled: true, unchanged_for_ms: 600_000 });
  });
  it("an unknown last increase is never a stall", () => {
    expect(mergeProgress({ ...base, lastProgressMs: null, now: 10 ** 9 })).toMatchObject({
      stalled: false,
      unchanged_for_ms: null,
    });
  });
});
