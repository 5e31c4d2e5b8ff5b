import { describe, expect, it } from "vitest";
import { historyRevisions } from "./table-history";

describe("historyRevisions", () => {
  it("spreads 16 reads over the last 2,400 revisions, newest first", () => {
    const r = historyRevisions(10_000);
    expect(r).toHaveLength(16);
    expect(r[0]).toBe(10_000);
    expect(r[1]).toBe(10_000 - 160);
    expect(r[15]).toBe(10_000 - 15 * 160);
  });

  it("never reads before the floor or revision 1", () => {
    expect(historyRevisions(10_000, 9_990)).toEqual([10_000, 9_999, 9_998, 9_997, 9_996, 9_995, 9_994, 9_993, 9_992, 9_991, 9_990]);
    expect(historyRevisions(3)).toEqual([3, 2, 1]);
  });
});
