// A moment read back from the journal (./moment.ts): a revision is answered by the first
// evaluation that read it, a time by the last evaluation at or before it; deltas before the
// first checkpoint are never read, and a revision the plan never read is not answered.
import { describe, expect, it } from "vitest";
import type { JournalChunk } from "./codec";
import type { TableState } from "./entry";
import { momentOf } from "./moment";

const placed: TableState = {
  class: "normal",
  verdict: { state: "would_place", code: null, executor: "w1" },
  write_turn: null,
  shadow_outcome: null,
};
const waiting: TableState = {
  class: "normal",
  verdict: { state: "would_skip", code: "cycle_limit", executor: null },
  write_turn: null,
  shadow_outcome: null,
};
const m = (o: Record<string, TableState>) => new Map(Object.entries(o));

const CHUNKS: JournalChunk[] = [
  // an unreadable delta (no checkpoint before it)
  {
    kind: "delta",
    from_ms: 0,
    to_ms: 50,
    evaluations: [{ revision: 5, now_ms: 50, changed: m({ a: placed }), removed: [] }],
  },
  {
    kind: "after_no_sampler",
    from_ms: 100,
    to_ms: 300,
    evaluations: [
      { revision: 10, now_ms: 100, changed: m({ a: placed, b: waiting }), removed: [] },
      { revision: 10, now_ms: 200, changed: m({ a: waiting }), removed: [] }, // the clock moved it
      { revision: 14, now_ms: 300, changed: m({ b: placed }), removed: ["a"] },
    ],
  },
];

describe("momentOf", () => {
  it("a revision: the first evaluation that read it", () => {
    expect(momentOf(CHUNKS, { revision: 10 })).toEqual({
      revision: 10,
      now_ms: 100,
      state: m({ a: placed, b: waiting }),
    });
    expect(momentOf(CHUNKS, { revision: 14 })).toEqual({ revision: 14, now_ms: 300, state: m({ b: placed }) });
  });

  it("a revision the plan never read, or one only an unreadable delta read, is not answered", () => {
    expect(momentOf(CHUNKS, { revision: 12 })).toBeNull();
    expect(momentOf(CHUNKS, { revision: 5 })).toBeNull();
    expect(momentOf(CHUNKS, { revision: 15 })).toBeNull();
  });

  it("a time: the last evaluation at or before it", () => {
    expect(momentOf(CHUNKS, { at_ms: 199 })).toEqual({
      revision: 10,
      now_ms: 100,
      state: m({ a: placed, b: waiting }),
    });
    expect(momentOf(CHUNKS, { at_ms: 200 })).toEqual({
      revision: 10,
      now_ms: 200,
      state: m({ a: waiting, b: waiting }),
    });
    expect(momentOf(CHUNKS, { at_ms: 10_000 })).toEqual({ revision: 14, now_ms: 300, state: m({ b: placed }) });
    expect(momentOf(CHUNKS, { at_ms: 99 })).toBeNull();
  });
});
