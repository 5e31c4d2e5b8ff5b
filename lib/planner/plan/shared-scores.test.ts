import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { TableDemand } from "@/lib/schema/demand";
import { comparePlannerOrder, mergeSorted, sortByPlannerKey, sortPlannerOrder, type OrderKey } from "../order";
import { scoreTables } from "../score";
import { shadowPass } from "../shadow";
import { planFleet } from "./full-plan";
import { mergeThresholds } from "./table";
import { NOW, GiB, demand, fleet, heartbeat } from "./__fixtures__/fleet";

const keyArb = fc.record({
  target: fc.string({ maxLength: 3 }),
  class_rank: fc.integer({ min: 0, max: 6 }),
  wait_ms: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
  score: fc.constantFrom(0, 0.5, 1, 2, Infinity, Number.NaN),
});

describe("grouped planner sort", () => {
  it("equals the comparator sort (NaN included, duplicates stable)", () => {
    fc.assert(
      fc.property(fc.array(keyArb, { maxLength: 40 }), (items) => {
        expect(sortPlannerOrder(items)).toEqual([...items].sort(comparePlannerOrder));
        expect(sortByPlannerKey(items, (k) => k)).toEqual([...items].sort(comparePlannerOrder));
      }),
      { numRuns: 300 },
    );
  });

  it("groups by class, then wait (class 1) or score, then target in UTF-8 byte order", () => {
    const k = (target: string, class_rank: number, score: number, wait_ms: number | null = null): OrderKey => ({
      target,
      class_rank,
      score,
      wait_ms,
    });
    const items = [
      k("b", 3, 2),
      k("a", 3, 2),
      k("\u{1F600}", 5, 0.5),
      k("\uFF61", 5, 0.5),
      k("z", 1, 9, null),
      k("y", 1, 1, 500),
      k("x", 1, 1, 900),
      k("c", 3, 4),
    ];
    expect(sortPlannerOrder(items).map((i) => i.target)).toEqual(["x", "y", "z", "c", "a", "b", "\uFF61", "\u{1F600}"]);
  });

  it("mergeSorted of two sorted lists equals sorting their union", () => {
    fc.assert(
      fc.property(
        fc.array(
          keyArb.filter((k) => !Number.isNaN(k.score)),
          { maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 30 }),
        (items, cut) => {
          const unique = [...new Map(items.map((i) => [i.target, i])).values()];
          const a = sortPlannerOrder(unique.slice(0, cut));
          const b = sortPlannerOrder(unique.slice(cut));
          expect(mergeSorted(a, b, comparePlannerOrder)).toEqual(sortPlannerOrder(unique));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("planFleet shares its merge scores with the §6.2 shadow pass", () => {
  it("plan.scored = scoreTables with each table's thresholds; merge_order = its planner order; the pass is the same", () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 3 }),
          fc.record({
            pending: fc.integer({ min: 0, max: 400 }),
            ageSecs: fc.integer({ min: 0, max: 8000 }),
            frag: fc.integer({ min: 0, max: 80 }),
          }),
          { maxKeys: 25 },
        ),
        fc.boolean(),
        (spec, withPolicy) => {
          const tables: Record<string, TableDemand> = {};
          for (const [t, s] of Object.entries(spec))
            tables[t] = demand(s.pending, NOW - s.ageSecs * 1000, { fragment_count: s.frag });
          const first = Object.keys(tables)[0];
          const policies =
            withPolicy && first !== undefined
              ? { [first]: { merge: { min_generations: 2 }, kinds_allowed: ["Compact" as const] } }
              : {};
          const f = fleet({
            tables,
            policies,
            heartbeats: { e1: heartbeat({ bytes_total: 4 * GiB }), e2: heartbeat({ slots_total: { merge_wal: 1 } }) },
          });
          const plan = planFleet(f, NOW);
          const expected = scoreTables(f.tables, NOW, (t) => mergeThresholds(plan.byTarget.get(t)!.policy.effective));
          expect(plan.scored).toEqual(expected);
          expect(plan.merge_order).toEqual(sortPlannerOrder(expected));
          const heartbeats = [...f.heartbeats].map(([id, hb]) => ({ id, heartbeat: hb }));
          const input = { scored: plan.scored, heartbeats, assignments: [], now: NOW, plannerToken: "t" };
          expect(shadowPass({ ...input, ordered: plan.merge_order })).toEqual(shadowPass(input));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("exact numbers on a small fleet", () => {
    const f = fleet({
      tables: { a: demand(16, NOW - 5000), b: demand(300, NOW - 1000), c: demand(3, NOW - 10), idle: demand(0, NOW) },
    });
    const plan = planFleet(f, NOW);
    expect(plan.scored.map((s) => [s.target, s.class, s.score])).toEqual([
      ["a", "normal", 2 * (1 + 5 / 3600)],
      ["b", "critical", 37.5 * (1 + 1 / 3600)],
      ["c", "tail", 0.375 * (1 + 0.01 / 3600)],
    ]);
    expect(plan.merge_order.map((s) => s.target)).toEqual(["b", "a", "c"]);
    expect(plan.tables.map((t) => t.target)).toEqual(["b", "a", "c", "idle"]);
  });
});
