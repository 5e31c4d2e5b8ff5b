// The demand facts of a journal entry (./demand.ts): the chart's figures derive from them
// at any later clock exactly as the planner computes them there, a table whose demand did
// not change is not entered again as its wait grows, and the stored form keeps them (a
// chunk written before they were kept reads as unknown).
import { describe, expect, it } from "vitest";
import { planFleet } from "@/lib/planner/plan";
import { NOW, demand, fleet } from "@/lib/planner/plan/__fixtures__/fleet";
import { decodeChunk, encodeChunk, type JournalChunk } from "./codec";
import { figuresAt } from "./demand";
import { diffStates, planStates } from "./entry";

const planAt = (now: number, tables: Record<string, ReturnType<typeof demand>>) => planFleet(fleet({ tables }), now);
const figures = (now: number, tables: Record<string, ReturnType<typeof demand>>, target: string) => {
  const t = planAt(now, tables).byTarget.get(target)!;
  return { pending_generations: t.pending_generations, wait_ms: t.wait_ms, score: t.score };
};

describe("demand facts", () => {
  const tables = {
    aged: demand(6, NOW - 1_800_000), // a tail whose score grows with its exact age
    due: demand(20, NOW - 60_000),
    compact: demand(0, NOW, { fragment_count: 30 }),
  };

  it("derive, hours later, the wait and score the planner gives then", () => {
    const facts = planStates(planAt(NOW, tables), null);
    for (const later of [NOW, NOW + 5_000, NOW + 3 * 3_600_000]) {
      for (const target of Object.keys(tables)) {
        expect(figuresAt(facts.get(target)!.demand!, later)).toEqual(figures(later, tables, target));
      }
    }
    expect(figuresAt(facts.get("aged")!.demand!, NOW + 3_600_000)).toEqual({
      pending_generations: 6,
      wait_ms: 5_400_000,
      score: 0.75 * (1 + 5_400 / 3_600),
    });
  });

  it("a table whose demand did not change is not entered again as the clock moves", () => {
    const before = planStates(planAt(NOW, tables), null);
    const after = planStates(planAt(NOW + 5_000, tables), null);
    expect(diffStates(before, after).changed.size).toBe(0);
    const grown = planStates(planAt(NOW + 5_000, { ...tables, due: demand(21, NOW - 60_000) }), null);
    expect([...diffStates(before, grown).changed.keys()]).toEqual(["due"]);
  });

  it("round-trip in the stored form; a row without them reads as unknown", () => {
    const state = planStates(planAt(NOW, tables), null);
    const chunk: JournalChunk = {
      kind: "after_no_sampler",
      from_ms: NOW,
      to_ms: NOW,
      evaluations: [{ revision: 3, now_ms: NOW, changed: state, removed: [] }],
    };
    expect(decodeChunk(encodeChunk(chunk)).evaluations[0].changed).toEqual(state);
    const old = new Map([...state].map(([t, s]) => [t, { ...s, demand: undefined }]));
    const read = decodeChunk(encodeChunk({ ...chunk, evaluations: [{ ...chunk.evaluations[0], changed: old }] }));
    expect([...read.evaluations[0].changed.values()].map((s) => "demand" in s)).toEqual([false, false, false]);
  });
});
