import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/schema/api/errors";
import { beforeHistory, historyStartOf } from "./history-start";

describe("a time before etcd's history", () => {
  const start = Date.UTC(2026, 11, 2, 10, 0, 15);

  it("is a 404 naming the revision the history starts at and its time, read back as where to start", () => {
    const e = beforeHistory(start - 3_600_000, 2, {
      revision: 2,
      at_ms: start,
      basis: "record_timestamps",
      error_ms: 15_000,
    });
    expect([e.status, e.code, e.message]).toEqual([
      404,
      "not_found",
      "2026-12-02 09:00:15Z is before etcd's history, which starts at revision 2, written about 2026-12-02 10:00:15Z (± 15s). Pick a later time.",
    ]);
    expect(historyStartOf(e, start - 3_600_000)).toEqual({
      revision: 2,
      at_ms: start,
      error_ms: 15_000,
      requested_ms: start - 3_600_000,
    });
  });

  it("a compaction point without a known time starts there, its time unknown", () => {
    expect(historyStartOf(beforeHistory(5, 1_200), 5)).toEqual({
      revision: 1_200,
      at_ms: null,
      error_ms: null,
      requested_ms: 5,
    });
  });

  it("any other error is not a history start", () => {
    expect(historyStartOf(new ApiError(404, "not_found", "no such table"), 0)).toBeNull();
    expect(historyStartOf(new ApiError(503, "etcd_unavailable", "down", { oldest_revision: 3 }), 0)).toBeNull();
    expect(historyStartOf(new Error("boom"), 0)).toBeNull();
  });
});
