import { describe, expect, it } from "vitest";
import { compareSemver, isPolicyAware, parseSemver } from "./semver";

const cmp = (a: string, b: string) => compareSemver(parseSemver(a)!, parseSemver(b)!);

describe("semver", () => {
  it("orders by the numeric core, not the text", () => {
    expect(cmp("0.43.0", "0.42.9")).toBe(1);
    expect(cmp("0.9.0", "0.10.0")).toBe(-1);
    expect(cmp("1.0.0", "1.0.0+build.7")).toBe(0);
  });
  it("puts a pre-release before its release (semver.org §11)", () => {
    const ordered = [
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
    ];
    for (let i = 1; i < ordered.length; i++) expect(cmp(ordered[i - 1], ordered[i])).toBe(-1);
  });
  it("says which masters apply policies", () => {
    expect(isPolicyAware("0.43.0", "0.43.0")).toBe(true);
    expect(isPolicyAware("0.43.0-rc.1", "0.43.0")).toBe(false);
    expect(isPolicyAware("v1.2.3", "0.43.0")).toBe(true);
    expect(isPolicyAware("0.42.0", "0.43.0")).toBe(false);
    expect(isPolicyAware("0.43.0", null)).toBe(false);
    expect(isPolicyAware("garbage", "0.1.0")).toBe(false);
    expect(isPolicyAware(null, "0.1.0")).toBe(false);
  });
});
