import { describe, expect, it } from "vitest";
import { sameSettings } from "./same";

describe("sameSettings (no_change)", () => {
  it("null, absent, empty sections and v say nothing", () => {
    expect(
      sameSettings(
        { v: 1, merge: { min_generations: 8, min_bytes: null }, backlog: {} },
        { merge: { min_generations: 8 } },
      ),
    ).toBe(true);
    expect(sameSettings(null, { v: 1 })).toBe(true);
    expect(sameSettings(null, {})).toBe(true);
  });
  it("a changed value, a new leaf or a list in another order is a change", () => {
    expect(sameSettings({ merge: { min_generations: 8 } }, { merge: { min_generations: 9 } })).toBe(false);
    expect(sameSettings({ mode: "legacy" }, { mode: "legacy", backpressure: "off" })).toBe(false);
    expect(
      sameSettings({ executors_allowed: ["worker", "resident"] }, { executors_allowed: ["resident", "worker"] }),
    ).toBe(false);
  });
});
