// The soft memory limit's two rules (./memory-limit.ts): when the process counts as over its
// budget (past it, and again under only well below it), and the growth it goes back to.
import { describe, expect, it } from "vitest";
import { RELAX_BELOW, stillOver, usualGrowingPercent } from "./memory-limit";

const MIB = 1_048_576;

describe("the soft memory limit", () => {
  it("is over past the budget, and under again only below 80 % of it", () => {
    const budget = 1024 * MIB;
    const edge = budget * RELAX_BELOW;
    const walk = [900, 1024, 1025, 1000, 900, edge / MIB + 0.001, edge / MIB - 0.001, 900, 1100].map((m) => m * MIB);
    const seen: boolean[] = [];
    let over = false;
    for (const rss of walk) seen.push((over = stillOver(over, rss, budget)));
    expect(seen).toEqual([false, false, true, true, true, true, false, false, true]);
  });

  it("goes back to the growth the process was started with, its command line over NODE_OPTIONS, else V8's own", () => {
    expect(usualGrowingPercent(["--max-semi-space-size=64", "--heap-growing-percent=50"], undefined)).toBe(50);
    expect(usualGrowingPercent(["--heap-growing-percent=50"], "--heap_growing_percent=30 --inspect")).toBe(50);
    expect(usualGrowingPercent([], "--enable-source-maps --heap-growing-percent=30")).toBe(30);
    expect(usualGrowingPercent(["--max-semi-space-size=64"], "")).toBe(0);
    expect(usualGrowingPercent(["--heap-growing-percent=abc"], undefined)).toBe(0);
  });
});
