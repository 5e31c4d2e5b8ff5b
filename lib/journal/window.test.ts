// One table's history from the journal (./window.ts; console-api.md "The decision
// journal"): only the chunks overlapping the window and the checkpoint before it are read,
// gaps leave the window uncovered, a restart restates the entry, and time in state sums to
// the window, longest first.
import type { WhyNotCode } from "@/lib/schema/codes";
import { describe, expect, it } from "vitest";
import type { ChunkKind, ChunkMeta, JournalChunk } from "./codec";
import type { TableState } from "./entry";
import { chunkRange, chunkRuns, coveredSpans, targetTimeline, timeInState, uncovered } from "./window";

const meta = (kind: ChunkKind, from_ms: number, to_ms: number): ChunkMeta => ({
  key: `k${String(from_ms).padStart(6, "0")}`,
  kind,
  from_ms,
  to_ms,
  entries: 1,
  bytes: 10,
});
const placed = (executor: string): TableState => ({
  class: "normal",
  verdict: { state: "would_place", code: null, executor },
  write_turn: null,
  shadow_outcome: null,
});
const skipped = (code: WhyNotCode): TableState => ({
  class: "normal",
  verdict: { state: "would_skip", code, executor: null },
  write_turn: "held",
  shadow_outcome: null,
});
const states = (o: Record<string, TableState>) => new Map(Object.entries(o));

describe("chunkRange", () => {
  const metas = [
    meta("after_no_sampler", 0, 100),
    meta("delta", 100, 200),
    meta("checkpoint", 200, 300),
    meta("delta", 300, 400),
    meta("delta", 400, 500),
    meta("checkpoint", 500, 600),
  ];
  it("reads from the checkpoint at or before the window to the last chunk starting in it", () => {
    expect(chunkRange(metas, 350, 420)).toEqual({ fromKey: "k000200", toKey: "k000500" });
    expect(chunkRange(metas, 150, 250)).toEqual({ fromKey: "k000000", toKey: "k000300" });
    expect(chunkRange(metas, 550, 900)).toEqual({ fromKey: "k000500", toKey: null });
  });
  it("starts at the first checkpoint when the journal begins inside the window, and is null before it", () => {
    const late = [meta("delta", 0, 50), meta("after_no_sampler", 100, 200)];
    expect(chunkRange(late, 0, 150)).toEqual({ fromKey: "k000100", toKey: null });
    expect(chunkRange(late, 0, 90)).toBeNull();
  });
});

describe("coveredSpans and uncovered", () => {
  it("a restart after a gap starts a new span; the window minus the spans is what to re-plan", () => {
    const spans = coveredSpans([
      meta("delta", 0, 10),
      meta("after_no_sampler", 100, 200),
      meta("delta", 200, 300),
      meta("after_etcd_unavailable", 400, 500),
    ]);
    expect(spans).toEqual([
      { from_ms: 100, to_ms: 300 },
      { from_ms: 400, to_ms: 500 },
    ]);
    expect(uncovered(spans, 50, 600)).toEqual([
      { from_ms: 50, to_ms: 100 },
      { from_ms: 300, to_ms: 400 },
      { from_ms: 500, to_ms: 600 },
    ]);
    expect(uncovered(spans, 150, 250)).toEqual([]);
  });
});

describe("chunkRuns", () => {
  it("leaves out the restatements after the first chunk read; an older writer's checkpoints are read", () => {
    const metas = [
      meta("after_no_sampler", 0, 100),
      meta("restated", 150, 150), // restates the deltas' state: skipped when folding from the one before
      meta("delta", 150, 200),
      meta("checkpoint", 250, 300), // an older writer's, carrying deltas: read
      meta("checkpoint", 320, 320), // an older writer's periodic one: its evaluation is in no delta, read
      meta("restated", 350, 350),
      meta("after_no_sampler", 400, 400), // a restart after a gap: always read
      meta("delta", 400, 500),
    ];
    expect(chunkRuns(metas, 50, 450)).toEqual([
      { fromKey: "k000000", toKey: "k000150" },
      { fromKey: "k000150", toKey: "k000350" }, // the delta at 150 (in the real layout the restatement's key sorts first)
      { fromKey: "k000400", toKey: null },
    ]);
    // the first chunk read is never skipped, even a lone restatement
    expect(chunkRuns(metas, 360, 380)).toEqual([{ fromKey: "k000350", toKey: "k000400" }]);
    expect(chunkRuns([meta("delta", 0, 50)], 0, 50)).toBeNull();
  });
});

describe("targetTimeline", () => {
  const chunks: JournalChunk[] = [
    {
      kind: "after_no_sampler",
      from_ms: 100,
      to_ms: 300,
      evaluations: [
        { revision: 5, now_ms: 100, changed: states({ a: skipped("cycle_limit"), b: placed("e1") }), removed: [] },
        { revision: 6, now_ms: 200, changed: states({ a: placed("e1") }), removed: [] },
        { revision: 8, now_ms: 300, changed: new Map(), removed: ["a"] },
      ],
    },
    {
      kind: "after_no_sampler",
      from_ms: 500,
      to_ms: 600,
      evaluations: [
        { revision: 12, now_ms: 500, changed: states({ b: placed("e1") }), removed: [] },
        { revision: 13, now_ms: 600, changed: states({ a: skipped("no_free_slot"), c: placed("e1") }), removed: [] },
      ],
    },
  ];
  it("the entry at the window's start, then each change (a removal included) in the window, with the tables placed beside it", () => {
    expect(targetTimeline(chunks, "a", 150, 700)).toEqual({
      initial: skipped("cycle_limit"),
      initialRevision: 5,
      changes: [
        { revision: 6, now_ms: 200, state: placed("e1"), placed_with: [] },
        { revision: 8, now_ms: 300, state: null, placed_with: [] },
        { revision: 13, now_ms: 600, state: skipped("no_free_slot"), placed_with: ["c"] },
      ],
    });
  });
  it("an unchanged entry is restated only at a restart after a gap", () => {
    expect(targetTimeline(chunks, "b", 150, 700).changes).toEqual([]);
    expect(targetTimeline(chunks, "b", 150, 700, new Set([500]))).toEqual({
      initial: placed("e1"),
      initialRevision: 5,
      changes: [{ revision: 12, now_ms: 500, state: placed("e1"), placed_with: [] }], // a checkpoint names no one placed beside it
    });
  });
  it("initial is undefined when the journal does not reach back to the window's start", () => {
    expect(targetTimeline(chunks, "a", 50, 150).initial).toBeUndefined();
  });
});

describe("timeInState", () => {
  it("sums to the window, longest first, unknown before the first mark", () => {
    const got = timeInState(
      [
        { at_ms: 400, key: { state: "would_place", code: null } },
        { at_ms: 100, key: { state: "would_skip", code: "cycle_limit" } },
        { at_ms: 900, key: { state: "would_skip", code: "cycle_limit" } },
        { at_ms: 2000, key: { state: "gone", code: null } },
      ],
      50,
      1000,
    );
    expect(got).toEqual([
      { state: "would_place", code: null, ms: 500 },
      { state: "would_skip", code: "cycle_limit", ms: 400 },
      { state: "unknown", code: null, ms: 50 },
    ]);
    expect(got.reduce((n, t) => n + t.ms, 0)).toBe(950);
  });
});
