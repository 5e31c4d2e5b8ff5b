import { describe, expect, it } from "vitest";
import { verdictSpans, type HistoryPoint } from "./table-history";

const point = (
  at_ms: number,
  state: "would_place" | "would_skip",
  code: NonNullable<HistoryPoint["verdict"]>["code"],
): HistoryPoint => ({
  revision: at_ms,
  at_ms,
  error_ms: 0,
  pending_generations: 1,
  wait_ms: 0,
  class: "normal",
  score: 1,
  verdict: { state, code },
  moved_by: null,
  executor: null,
  journal: null,
  now_ms: at_ms,
  basis: "fleet_plan",
});

describe("verdictSpans", () => {
  it("joins runs of one verdict and ends each where the next begins", () => {
    const spans = verdictSpans(
      [
        point(10, "would_skip", "no_free_slot"),
        point(20, "would_skip", "no_free_slot"),
        point(30, "would_place", null),
        point(40, "would_skip", "cooldown"),
      ],
      50,
    );
    expect(spans).toEqual([
      { state: "would_skip", code: "no_free_slot", fromMs: 10, toMs: 30, points: 2 },
      { state: "would_place", code: null, fromMs: 30, toMs: 40, points: 1 },
      { state: "would_skip", code: "cooldown", fromMs: 40, toMs: 50, points: 1 },
    ]);
  });

  it("a run of points without a verdict (figures only) is a span of its own", () => {
    const figures = (at: number): HistoryPoint => ({
      ...point(at, "would_place", null),
      verdict: null,
      basis: "figures_only",
    });
    expect(
      verdictSpans([point(10, "would_place", null), figures(20), figures(30), point(40, "would_place", null)], 50),
    ).toEqual([
      { state: "would_place", code: null, fromMs: 10, toMs: 20, points: 1 },
      { state: "figures_only", code: null, fromMs: 20, toMs: 40, points: 2 },
      { state: "would_place", code: null, fromMs: 40, toMs: 50, points: 1 },
    ]);
  });

  it("leaves out points whose time is unknown", () => {
    expect(verdictSpans([{ ...point(10, "would_place", null), at_ms: null }], 50)).toEqual([]);
  });
});
