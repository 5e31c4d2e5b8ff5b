// A plan's line (./line.ts) is the plain rule, whichever way the plan was made: walking the
// rows in planner order, a row in line is the next of its kind (rank), its kind's count is
// `of`, and its ETA counts the candidates of its kind ahead of it that the plan does not
// place, against the kind's completions of the last hour. Checked over random fleets,
// re-planned by patches and by the clock.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Eta, FleetPlan, QueuePosition, TablePlan } from "./types";
import { finishedMerges } from "./__fixtures__/fleet";
import { replanEach, replanSteps } from "./__fixtures__/replans";

const HOUR_MS = 3_600_000;

/** The rule, written plainly from the rows. */
function plainLine(plan: FleetPlan, completions: number) {
  const of = new Map<string, number>();
  for (const t of plan.tables) if (t.line_kind !== null) of.set(t.line_kind, (of.get(t.line_kind) ?? 0) + 1);
  const seen = new Map<string, { rank: number; placed: number }>();
  const out = new Map<string, { position: QueuePosition; eta: Eta | null }>();
  for (const t of plan.tables) {
    const kind = t.line_kind;
    if (kind === null) continue;
    const s = seen.get(kind) ?? { rank: 0, placed: 0 };
    seen.set(kind, s);
    s.rank++;
    const placed = t.verdict.state === "would_place";
    const waiting = s.rank - 1 - s.placed;
    const done = kind === "merge_wal" ? completions : 0;
    const units = (n: number, what: string) => `${n} ${kind} ${what}${n === 1 ? "" : "s"}`;
    const eta = placed
      ? { low_ms: 0, high_ms: 0, basis: "It would be placed now." }
      : done === 0
        ? null
        : {
            low_ms: Math.round((waiting * HOUR_MS) / done),
            high_ms: Math.round(((waiting + 1) * HOUR_MS) / done),
            basis: `${units(waiting, "unit")} waiting ahead of it; ${units(done, "task")} finished in the last hour.`,
          };
    out.set(t.target, { position: { kind, rank: s.rank, of: of.get(kind)! }, eta });
    if (placed) s.placed++;
  }
  return out;
}

describe("the line", () => {
  it("is the plain rule over the rows in planner order, for full and patched plans", () => {
    let carriedSteps = 0;
    fc.assert(
      fc.property(replanSteps, fc.constantFrom(0, 1, 4), (steps, completions) => {
        let previous: FleetPlan | null = null;
        replanEach(steps, finishedMerges(completions), (plan) => {
          const plain = plainLine(plan, completions);
          const sizes: Record<string, number> = {};
          for (const t of plan.tables) {
            const want = plain.get(t.target);
            expect(plan.line.positionOf(t), t.target).toEqual(want?.position ?? null);
            expect(plan.line.etaOf(t), t.target).toEqual(want?.eta ?? null);
            if (want) sizes[want.position.kind] = want.position.of;
            // the previous plan's row of the table (another key): still this plan's place
            const before = previous?.byTarget.get(t.target);
            if (before && before.line_kind !== null && t.line_kind !== null)
              expect(plan.line.positionOf(before), t.target).toEqual(want?.position ?? null);
          }
          expect(plan.line.sizes()).toEqual(sizes);
          // ranks along rows in planner order, in another order, and a filtered few
          const rank = (t: TablePlan) => plain.get(t.target)?.position.rank ?? 0;
          for (const rows of [
            plan.tables,
            plan.tables.slice().reverse(),
            plan.tables.slice().sort((a, b) => (a.target < b.target ? -1 : 1)),
            plan.tables.filter((_, i) => i % 3 === 1),
          ])
            expect([...plan.line.ranksAlong(rows)]).toEqual(rows.map(rank));
          // places carried from the last plan's listing, for the rows it shares by object, are the places looked for
          if (previous !== null) {
            const before: FleetPlan = previous;
            const rows = plan.tables;
            const looked = plan.line.placesAlong(rows);
            const at = new Map(before.tables.map((t, j) => [t, j]));
            const kept = Int32Array.from(rows, (t) => at.get(t) ?? -1);
            const carried = { line: before.line.token, places: before.line.placesAlong(before.tables), kept };
            expect([...plan.line.placesAlong(rows, carried)]).toEqual([...looked]);
            // carried by a line that is neither this one nor the one it was patched from: every row looked for
            expect([...plan.line.placesAlong(rows, { ...carried, line: {} })]).toEqual([...looked]);
            if (kept.some((k) => k >= 0) && plan.line !== before.line) carriedSteps++;
          }
          previous = plan;
        });
      }),
      { numRuns: 80 },
    );
    // the carried places were tried on lines that were patched, with rows shared
    expect(carriedSteps).toBeGreaterThan(50);
  });
});
