// The reasons view's pure fold (console-api.md "The decision journal", GET /scheduler/reasons).
import type { ClassName, WhyNotCode } from "@/lib/schema/codes";
import { describe, expect, it } from "vitest";
import type { JournalChunk } from "./codec";
import type { Coverage } from "./coverage";
import type { TableState } from "./entry";
import { covers, reasonPoints, stepsOf } from "./reasons";
import { codesOf } from "./verdict-codes";

const s = (cls: ClassName, code: WhyNotCode | null): TableState => ({
  class: cls,
  verdict:
    code === null
      ? { state: "would_place", code: null, executor: "e1" }
      : { state: "would_skip", code, executor: null },
  write_turn: null,
  shadow_outcome: null,
});
const m = (o: Record<string, TableState>) => new Map(Object.entries(o));

describe("reasonPoints", () => {
  const chunks: JournalChunk[] = [
    {
      kind: "delta",
      from_ms: 0,
      to_ms: 500,
      evaluations: [{ revision: 1, now_ms: 500, changed: m({ z: s("normal", "no_free_slot") }), removed: [] }],
    },
    {
      kind: "checkpoint",
      from_ms: 1000,
      to_ms: 3000,
      evaluations: [
        {
          revision: 5,
          now_ms: 1000,
          changed: m({
            a: s("normal", null),
            b: s("critical", "no_free_slot"),
            c: s("tail", "no_free_slot"),
            d: s("idle", "no_demand"),
          }),
          removed: [],
        },
        {
          revision: 6,
          now_ms: 2000,
          changed: m({ a: s("normal", "cycle_limit"), c: s("normal", "no_free_slot") }),
          removed: [],
        },
        { revision: 7, now_ms: 3000, changed: m({}), removed: ["b"] },
      ],
    },
    {
      kind: "delta",
      from_ms: 3000,
      to_ms: 4000,
      evaluations: [{ revision: 9, now_ms: 4000, changed: m({ a: s("tail", "cycle_limit") }), removed: [] }],
    },
  ];

  it("counts due (neither tail nor idle) tables by code at each step, each table's entry as of the last evaluation at or before the step", () => {
    expect(reasonPoints(chunks.map(codesOf), [500, 1000, 1999, 2000, 3500, 4000, 9000])).toEqual([
      // 500: only a delta before the first checkpoint: unreadable, left out
      { at_ms: 1000, due: 2, by_code: { no_free_slot: 1, placed: 1 } },
      { at_ms: 1999, due: 2, by_code: { no_free_slot: 1, placed: 1 } },
      { at_ms: 2000, due: 3, by_code: { cycle_limit: 1, no_free_slot: 2 } },
      { at_ms: 3500, due: 2, by_code: { cycle_limit: 1, no_free_slot: 1 } },
      { at_ms: 4000, due: 1, by_code: { no_free_slot: 1 } },
      { at_ms: 9000, due: 1, by_code: { no_free_slot: 1 } },
    ]);
  });

  it("a checkpoint after a gap starts the counts afresh", () => {
    const after: JournalChunk = {
      kind: "after_no_sampler",
      from_ms: 5000,
      to_ms: 5000,
      evaluations: [{ revision: 12, now_ms: 5000, changed: m({ q: s("recovery", null) }), removed: [] }],
    };
    expect(reasonPoints([...chunks, after].map(codesOf), [4500, 5000])).toEqual([
      { at_ms: 4500, due: 1, by_code: { no_free_slot: 1 } },
      { at_ms: 5000, due: 1, by_code: { placed: 1 } },
    ]);
  });
});

describe("stepsOf, covers", () => {
  it("steps from `from` by `step`, ending on `to`", () => {
    expect(stepsOf(0, 10, 5)).toEqual([0, 5, 10]);
    expect(stepsOf(0, 11, 5)).toEqual([0, 5, 10, 11]);
  });

  it("covers a window inside the span (to within the writer's lag) with no gap in it", () => {
    const c: Coverage = {
      from_ms: 1000,
      to_ms: 5000,
      entries: 1,
      bytes: 1,
      retention_ms: 1,
      gaps: [{ from_ms: 2000, to_ms: 2500, reason: "no_sampler" }],
    };
    expect(covers(c, 2500, 5100, 100)).toBe(true);
    expect(covers(c, 2500, 5101, 100)).toBe(false);
    expect(covers(c, 999, 1500, 100)).toBe(false);
    expect(covers(c, 1500, 2001, 100)).toBe(false);
    expect(covers({ ...c, from_ms: null, to_ms: null, gaps: [] }, 1, 2, 100)).toBe(false);
  });
});
