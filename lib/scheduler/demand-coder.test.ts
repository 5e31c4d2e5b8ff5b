// The list's rows are said by their plan (lib/scheduler/demand.ts `listingCoder`): a row's
// place in line and ETA are its plan's line, not the row's. What the listings' digests keep
// rests on two facts checked here over random fleets re-planned by patches and by the clock:
// * a row's rank and count in line as the coder says them without encoding it are the
//   encoded row's;
// * a row shared by two plans says the same in both but for its moving fields (so its hash,
//   kept by row, holds for every plan that lists it), and its place is the line's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { finishedMerges } from "@/lib/planner/plan/__fixtures__/fleet";
import { replanEach, replanSteps } from "@/lib/planner/plan/__fixtures__/replans";
import type { TableSummary } from "@/lib/schema/api/demand";
import { listingCoder } from "./demand";

/** The row without its moving fields, as the listing hashes it. */
const steady = (t: TableSummary) =>
  JSON.stringify({ ...t, wait_ms: null, score: 0, position: t.position && { ...t.position, rank: 0, of: 0 } });

describe("the list's coder", () => {
  it("says each row's moving fields as the encoded row has them; a shared row says the same in each plan", () => {
    fc.assert(
      fc.property(replanSteps, (steps) => {
        const said = new Map<object, string>(); // a row's steady part, as the first plan that listed it said it
        replanEach(steps, finishedMerges(3), (plan) => {
          const coder = listingCoder(plan);
          const { ranks } = coder.ranks(plan.tables);
          plan.tables.forEach((t, i) => {
            const row = coder.encode(t);
            expect(ranks[i]).toBe(row.position?.rank ?? 0);
            expect(row.position).toEqual(t.line_kind === null ? null : plan.line.positionOf(t));
            if (row.position) {
              expect(row.position.kind).toBe(t.line_kind);
              expect(coder.lines[row.position.kind]).toBe(row.position.of);
            }
            const first = said.get(t);
            if (first === undefined) said.set(t, steady(row));
            else expect(steady(row), t.target).toBe(first);
          });
        });
      }),
      { numRuns: 80 },
    );
  });
});
