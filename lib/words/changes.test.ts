// The diff's changes in words and ranked (./changes.ts): no raw code is printed, and the
// largest change comes first.
import { describe, expect, it } from "vitest";
import {
  classChangeSize,
  classInWords,
  executorChanges,
  rankByChange,
  verdictChangeSize,
  verdictInWords,
} from "./changes";

describe("changes in words", () => {
  it("classes and verdicts", () => {
    expect(classInWords("commit_ready")).toBe("commit ready");
    expect(classInWords(null)).toBe("not in the plan");
    expect(verdictInWords({ state: "would_place", code: null })).toBe("placed");
    expect(verdictInWords({ state: "would_skip", code: "write_turn_stalled" })).toBe("write turn stalled");
    expect(verdictInWords(null)).toBe("not in the plan");
  });

  it("an executor's facts that differ, each in words with its unit", () => {
    expect(
      executorChanges(
        {
          draining: false,
          slots_total: { merge_wal: 1, compact: 2 },
          bytes_total: 1024 ** 3,
          kinds: ["merge_wal"],
          version: "1.2.0",
        },
        {
          draining: true,
          slots_total: { merge_wal: 2, compact: 2 },
          bytes_total: 2 * 1024 ** 3,
          kinds: ["merge_wal"],
          version: "1.3.0",
        },
      ),
    ).toEqual([
      "accepting → draining",
      "merge wal slots 1 → 2",
      "byte budget 1.0 GiB → 2.0 GiB",
      "version 1.2.0 → 1.3.0",
    ]);
    expect(executorChanges({ draining: false }, { draining: false })).toEqual([]);
  });
});

describe("ranked by how much changed", () => {
  it("class distance and verdict flips", () => {
    expect(classChangeSize("critical", "tail")).toBe(4);
    expect(classChangeSize("normal", "critical")).toBe(2);
    expect(classChangeSize("tail", "tail")).toBe(0);
    expect(verdictChangeSize({ state: "would_place", code: null }, { state: "would_skip", code: "cooldown" })).toBe(2);
    expect(
      verdictChangeSize({ state: "would_skip", code: "cooldown" }, { state: "would_skip", code: "cycle_limit" }),
    ).toBe(1);
  });

  it("largest first, then by name", () => {
    const items = [
      { target: "b", before: "normal", after: "critical" },
      { target: "c", before: "critical", after: "tail" },
      { target: "a", before: "normal", after: "critical" },
    ];
    expect(
      rankByChange(
        items,
        (c) => classChangeSize(c.before, c.after),
        (c) => c.target,
      ).map((c) => c.target),
    ).toEqual(["c", "a", "b"]);
  });
});
