import { describe, expect, it } from "vitest";
import { emptyTableDemand } from "@/lib/schema";
import { planCacheWrites, sameTableDemand } from "./index";
import { cloneTableDemand, ev, foldAll } from "./__fixtures__/demand";

describe("demand cache writes (§6.1 steps 4–5)", () => {
  it("puts changed/missing/unparseable rows with updated_ms = now; deletes parseable rows without events", () => {
    const hot = foldAll([ev("a", 40, 10, 1, "W")]);
    const same = foldAll([ev("a", 3, 3, 1, "W")]);
    const folded = new Map([["hot", hot], ["same", same], ["new", foldAll([ev("a", 1, null, 1, "W")])], ["broken", emptyTableDemand()]]);
    const existing = [
      { target: "hot", record: foldAll([ev("a", 39, 10, 1, "W")]) },
      { target: "same", record: { ...cloneTableDemand(same), updated_ms: 12345 } },
      { target: "broken", record: null },
      { target: "cold", record: foldAll([ev("a", 3, 3, 1, "W")]) },
      { target: "junk", record: null },
    ];
    const w = planCacheWrites(folded, existing, 777);
    expect(w.puts.map((p) => p.target)).toEqual(["hot", "new", "broken"]);
    expect(w.puts.every((p) => p.record.updated_ms === 777)).toBe(true);
    expect(w.deletes).toEqual(["cold"]);
  });
  it("equality ignores updated_ms and, unless asked, observed_revision", () => {
    const a = foldAll([ev("a", 5, null, 1, "W")]);
    const b = { ...cloneTableDemand(a), observed_revision: 99, updated_ms: 5 };
    expect(sameTableDemand(a, b)).toBe(true);
    expect(sameTableDemand(a, b, true)).toBe(false);
  });
});
