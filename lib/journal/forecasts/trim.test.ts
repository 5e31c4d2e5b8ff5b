// The forecast journal's trim (./trim.ts): retention first, then the byte cap, oldest first,
// the newest chunk always kept.
import { describe, expect, it } from "vitest";
import type { ForecastChunkMeta } from "@/lib/schema/forecast-keys";
import { forecastTrim } from "./trim";

const HOUR = 3_600_000;
const meta = (i: number, bytes: number): ForecastChunkMeta => ({
  key: `k${i}`,
  kind: "delta",
  from_ms: i * HOUR,
  to_ms: (i + 1) * HOUR,
  entries: 1,
  outcomes: 0,
  bytes,
});

describe("the forecast journal's trim", () => {
  const metas = [meta(0, 100), meta(1, 100), meta(2, 100), meta(3, 100)];
  it("drops the chunks that ended before the retention horizon", () => {
    expect(forecastTrim(metas, 5 * HOUR, 3.5 * HOUR, 1_000)).toBe("k1"); // k0 ended at 1 h < 1.5 h
    expect(forecastTrim(metas, 5 * HOUR, 10 * HOUR, 1_000)).toBeNull();
  });
  it("then the oldest while over the byte cap, never the newest", () => {
    expect(forecastTrim(metas, 5 * HOUR, 10 * HOUR, 250)).toBe("k2");
    expect(forecastTrim(metas, 5 * HOUR, 10 * HOUR, 10)).toBe("k3");
    expect(forecastTrim(metas, 50 * HOUR, HOUR, 1_000)).toBe("k3");
    expect(forecastTrim([], 5 * HOUR, HOUR, 10)).toBeNull();
  });
});
