import { describe, expect, it } from "vitest";
import { historyStartInWords } from "./history-start";

describe("historyStartInWords", () => {
  it("names the revision, its time with the error, and the time asked for", () => {
    expect(
      historyStartInWords({
        revision: 1_234,
        at_ms: Date.UTC(2026, 11, 2, 10, 0, 15),
        error_ms: 15_000,
        requested_ms: Date.UTC(2026, 11, 2, 4, 0, 0),
      }),
    ).toBe(
      "etcd's history starts at revision 1,234 (written 2026-12-02 10:00:15Z ± 15s); 2026-12-02 04:00:00Z is before it, so this starts there.",
    );
  });

  it("leaves out a time nothing tells", () => {
    expect(historyStartInWords({ revision: 7, at_ms: null, error_ms: null, requested_ms: 0 })).toBe(
      "etcd's history starts at revision 7; 1970-01-01 00:00:00Z is before it, so this starts there.",
    );
  });
});
