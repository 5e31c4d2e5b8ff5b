import { describe, expect, it } from "vitest";
import { etaWords } from "./forecasts";
import { positionText } from "./place-in-line";

describe("place in line in words", () => {
  it("shows the ETA as a range with its level, now, or unknown; never negative", () => {
    expect(etaWords(null)).toBe("unknown");
    expect(etaWords({ low_ms: 0, high_ms: 0, level: 0.8 })).toBe("now");
    expect(etaWords({ low_ms: 120_000, high_ms: 600_000, level: 0.8 })).toBe("in 2m 00s – 10m 00s (80 %)");
    expect(etaWords({ low_ms: -5_000, high_ms: 90_000, level: 0.8 })).toBe("in 0s – 1m 30s (80 %)");
    expect(etaWords({ low_ms: 60_000, high_ms: 60_000, level: 0.9 })).toBe("in about 1m 00s (90 %)");
  });

  it("shows the rank of all", () => {
    expect(positionText({ kind: "merge_wal", rank: 3, of: 1200 })).toBe("3 of 1,200");
    expect(positionText(null)).toBe("—");
  });
});
