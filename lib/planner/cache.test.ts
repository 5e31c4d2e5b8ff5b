import { describe, expect, it } from "vitest";
import { sameTableDemand } from "./index";
import { cloneTableDemand, ev, foldAll } from "./__fixtures__/demand";

describe("demand cache agreement (§3.7 equality)", () => {
  it("equality ignores updated_ms and, unless asked, observed_revision", () => {
    const a = foldAll([ev("a", 5, null, 1, "W")]);
    const b = { ...cloneTableDemand(a), observed_revision: 99, updated_ms: 5 };
    expect(sameTableDemand(a, b)).toBe(true);
    expect(sameTableDemand(a, b, true)).toBe(false);
  });
});
