// The compact time map against a plain Map model: same entries, same answers, same
// pruning (§3.3), whatever the order of operations.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SEALED_TIMES_CAP, SealedTimes } from "./sealed-times";

type Model = Map<number, number>;

const sortedEntries = (m: Model) => [...m.entries()].sort((a, b) => a[0] - b[0]);

function modelRecord(m: Model, g: number, ms: number): "added" | "lowered" | "same" {
  const cur = m.get(g);
  if (cur === undefined) {
    m.set(g, ms);
    return "added";
  }
  if (ms < cur) {
    m.set(g, ms);
    return "lowered";
  }
  return "same";
}

function modelPrune(m: Model): void {
  const gens = [...m.keys()].sort((a, b) => a - b);
  if (gens.length <= SEALED_TIMES_CAP) return;
  for (const g of gens.slice(SEALED_TIMES_CAP - 1, -1)) m.delete(g);
}

const gen = fc.oneof(fc.nat({ max: 200 }), fc.constant(9_999_999_999), fc.constant(10_000_000_000), fc.nat());
const ms = fc.integer({ min: -1_000, max: 2_000_000_000_000 });
const op = fc.oneof(
  fc.record({ kind: fc.constant("record" as const), g: gen, ms }),
  fc.record({ kind: fc.constant("merge" as const), entries: fc.array(fc.tuple(gen, ms), { maxLength: 80 }) }),
  fc.record({ kind: fc.constant("prune" as const) }),
);

describe("SealedTimes", () => {
  it("behaves like a min-per-generation map with §3.3 pruning", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const times = SealedTimes.empty();
        const model: Model = new Map();
        for (const o of ops) {
          if (o.kind === "record") expect(times.record(o.g, o.ms)).toBe(modelRecord(model, o.g, o.ms));
          else if (o.kind === "prune") {
            times.prune();
            modelPrune(model);
          } else {
            const from = SealedTimes.fromEntries(o.entries);
            const before = new Map(model);
            const fromModel: Model = new Map();
            for (const [g, t] of o.entries) modelRecord(fromModel, g, t);
            let changed = false;
            let added = false;
            for (const [g, t] of fromModel) {
              const r = modelRecord(model, g, t);
              if (r !== "same") changed = true;
              if (r === "added") added = true;
            }
            expect(times.merge(from)).toEqual({ changed, added });
            expect(before.size <= model.size).toBe(true);
          }
          expect(times.entries()).toEqual(sortedEntries(model));
        }
        expect(times.size).toBe(model.size);
        for (const g of [0, 1, 50, 199, 10_000_000_000]) {
          expect(times.get(g)).toBe(model.get(g));
          const i = times.indexFrom(g);
          const firstAtOrAfter = sortedEntries(model).find(([k]) => k >= g);
          if (firstAtOrAfter === undefined) expect(i).toBe(times.size);
          else expect([times.generationAt(i), times.timeAt(i)]).toEqual(firstAtOrAfter);
        }
        expect(times.newest()).toBe(model.size === 0 ? null : Math.max(...model.values()));
      }),
      { numRuns: 400 },
    );
  });

  it("reads the wire object numerically, keeping the lower time of one generation", () => {
    const times = SealedTimes.fromRecord({ "10": 7, "010": 5, "9": 1, "100": 3 });
    expect(times.entries()).toEqual([
      [9, 1],
      [10, 5],
      [100, 3],
    ]);
    expect(JSON.stringify({ t: times })).toBe('{"t":{"9":1,"10":5,"100":3}}');
  });

  it("prunes to the 63 lowest plus the highest, numerically", () => {
    const times = SealedTimes.fromEntries(Array.from({ length: 100 }, (_, i) => [9_999_999_950 + i, i] as const));
    times.prune();
    const gens = times.generations();
    expect(gens).toHaveLength(SEALED_TIMES_CAP);
    expect(gens[62]).toBe(9_999_999_950 + 62);
    expect(gens[63]).toBe(9_999_999_950 + 99);
  });

  it("copies are independent and equal until changed", () => {
    const a = SealedTimes.fromRecord({ "1": 10, "2": 20 });
    const b = a.copy();
    expect(b.equals(a)).toBe(true);
    b.record(3, 30);
    expect(a.size).toBe(2);
    expect(b.equals(a)).toBe(false);
  });

  it("a copy shares nothing a change can reach: every change, on either side, after copies of copies", () => {
    // copy on write: each way of changing a map in place, applied to the original, a copy
    // and a copy of the copy in turn, must leave the others as they were
    const changes: ((t: SealedTimes) => unknown)[] = [
      (t) => t.record(5000, 1), // newer than any kept: appended
      (t) => t.record(1001, 0), // an earlier time for a kept generation: lowered
      (t) => t.record(1000, 7), // before the first kept: inserted
      (t) => t.merge(SealedTimes.fromRecord({ "1002": 0, "7000": 3 })),
      (t) => {
        for (let g = 2000; g < 2100; g++) t.record(g, g);
        t.prune(); // cut to the cap
      },
    ];
    for (const change of changes) {
      for (const side of [0, 1, 2]) {
        const a = SealedTimes.fromRecord({ "1001": 11, "1002": 12, "1003": 13 });
        const b = a.copy();
        const c = b.copy();
        const maps = [a, b, c];
        const before = maps.map((m) => m.entries());
        change(maps[side]);
        expect(maps[side].entries()).not.toEqual(before[side]);
        const others = [0, 1, 2].filter((k) => k !== side);
        expect(others.map((k) => maps[k].entries())).toEqual(others.map((k) => before[k]));
      }
    }
  });
});
