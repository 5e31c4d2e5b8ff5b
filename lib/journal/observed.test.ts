// How long the journal observed a table (console-api.md "The takeover gate and the canary
// evidence": observed_days from the journal): covered time with the table in the plan, gaps
// and time after the last chunk left out. Every figure is worked out by hand from the chunks.
import { describe, expect, it } from "vitest";
import type { JournalChunk } from "./codec";
import type { TableState } from "./entry";
import { emptyFold, foldObserved, observedIn } from "./observed";

const s: TableState = {
  class: "normal",
  verdict: { state: "would_skip", code: "no_free_slot", executor: null },
  write_turn: null,
  shadow_outcome: null,
};
const m = (...targets: string[]) => new Map(targets.map((t) => [t, s]));

// 0 after_no_sampler [0, 100]: a, b planned; at 40 b leaves; at 70 c enters
// 1 delta [100, 200]: at 150 a leaves
// 2 periodic checkpoint [210, 300]: b, c (b is back; a still out)
// gap (no sampler) 300..400
// 3 after_etcd_unavailable [400, 500]: a, c
const CHUNKS: JournalChunk[] = [
  {
    kind: "after_no_sampler",
    from_ms: 0,
    to_ms: 100,
    evaluations: [
      { revision: 1, now_ms: 0, changed: m("a", "b"), removed: [] },
      { revision: 2, now_ms: 40, changed: m(), removed: ["b"] },
      { revision: 3, now_ms: 70, changed: m("c"), removed: [] },
    ],
  },
  {
    kind: "delta",
    from_ms: 100,
    to_ms: 200,
    evaluations: [{ revision: 4, now_ms: 150, changed: m(), removed: ["a"] }],
  },
  {
    kind: "checkpoint",
    from_ms: 210,
    to_ms: 300,
    evaluations: [{ revision: 5, now_ms: 210, changed: m("b", "c"), removed: [] }],
  },
  {
    kind: "after_etcd_unavailable",
    from_ms: 400,
    to_ms: 500,
    evaluations: [{ revision: 9, now_ms: 400, changed: m("a", "c"), removed: [] }],
  },
];

describe("observedIn", () => {
  it("counts the covered time each table was planned, not the gaps", () => {
    expect(observedIn(CHUNKS, "a", 1000)).toEqual({ ms: 150 + 100, since_ms: 0, until_ms: 500, gaps: 1 });
    // b: 0..40, then the periodic checkpoint at 210 (the span 200..210 is covered, b was out) to 300
    expect(observedIn(CHUNKS, "b", 1000)).toEqual({ ms: 40 + 90, since_ms: 0, until_ms: 300, gaps: 1 });
    // c: 70..300 (covered through the periodic checkpoint), 400..500
    expect(observedIn(CHUNKS, "c", 1000)).toEqual({ ms: 230 + 100, since_ms: 70, until_ms: 500, gaps: 1 });
    expect(observedIn(CHUNKS, "never", 1000)).toEqual({ ms: 0, since_ms: null, until_ms: null, gaps: 0 });
  });

  it("the fleet is observed whenever the journal covers; nothing after now counts", () => {
    expect(observedIn(CHUNKS, null, 1000)).toEqual({ ms: 300 + 100, since_ms: 0, until_ms: 500, gaps: 1 });
    expect(observedIn(CHUNKS, null, 250)).toEqual({ ms: 250, since_ms: 0, until_ms: 250, gaps: 0 });
  });

  it("deltas before the first checkpoint are not readable and count nothing", () => {
    expect(observedIn(CHUNKS.slice(1), "c", 1000)).toEqual({ ms: 90 + 100, since_ms: 210, until_ms: 500, gaps: 1 });
  });

  it("a fold resumed with the chunks written since equals one fold of them all", () => {
    for (const target of ["a", "b", "c", null])
      for (let cut = 0; cut <= CHUNKS.length; cut++) {
        const fold = foldObserved(emptyFold(), CHUNKS.slice(0, cut), target, 1000);
        expect(foldObserved(structuredClone(fold), CHUNKS.slice(cut), target, 1000).observed).toEqual(
          observedIn(CHUNKS, target, 1000),
        );
      }
  });
});
