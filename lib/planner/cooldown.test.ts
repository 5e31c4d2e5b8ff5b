import { describe, expect, it } from "vitest";
import { cooldownDurationSecs, cooldownRemainingMs, isCooling, recordTaskFailure } from "./cooldown";
import type { CooldownRecord } from "./cooldown";

describe("T52 task cooldown with defaults", () => {
  it("until_ms null for failures 1-2, then 600 s doubling to the 21,600 s cap", () => {
    let rec: CooldownRecord | null = null;
    const untils: Array<number | null> = [];
    for (let i = 1; i <= 12; i++) {
      rec = recordTaskFailure(rec, { kind: "compact", target: "t", error: "boom", now: 0 });
      untils.push(rec!.until_ms);
    }
    expect(untils).toEqual([
      null,
      null,
      600_000,
      1_200_000,
      2_400_000,
      4_800_000,
      9_600_000,
      19_200_000,
      21_600_000,
      21_600_000,
      21_600_000,
      21_600_000,
    ]);
  });
  it("saturates a huge failure count and honours 0 = disabled", () => {
    expect(cooldownDurationSecs(1000)).toBe(21_600);
    const off = recordTaskFailure(
      null,
      { kind: "repair", target: "t", error: "e", now: 5 },
      { afterFailures: 0, baseSecs: 600, maxSecs: 21_600 },
    );
    expect(off!.until_ms).toBeNull();
  });
  it("never cools MergeWal and truncates the error to 512 characters", () => {
    expect(recordTaskFailure(null, { kind: "merge_wal", target: "t", error: "e", now: 0 })).toBeNull();
    expect(
      recordTaskFailure(null, { kind: "index_id", target: "t", error: "é".repeat(600), now: 0 })!.last_error,
    ).toHaveLength(512);
  });
  it("is cooling only while until_ms > now", () => {
    expect(isCooling({ until_ms: 1000 }, 999)).toBe(true);
    expect(isCooling({ until_ms: 1000 }, 1000)).toBe(false);
    expect(isCooling({ until_ms: null }, 0)).toBe(false);
    expect(cooldownRemainingMs({ until_ms: 1000 }, 400)).toBe(600);
  });
});
