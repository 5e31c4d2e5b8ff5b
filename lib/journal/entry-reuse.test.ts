// A patched plan's journal entries are made from the last plan's (planStates `before`): the
// rows a patch keeps keep their entries, so the sampler's evaluation at 100 events/s costs
// what changed, not 13,405 entries a second. The entries must equal those made from scratch,
// and nothing may change an entry once made (the log marks copies, not the entries handed in).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replanEach, replanSteps } from "@/lib/planner/plan/__fixtures__/replans";
import type { OutcomeName } from "@/lib/schema/codes";
import type { FleetPlan } from "@/lib/planner/plan";
import { planStates, type PlanStates, type TableState } from "./entry";
import { JournalLog } from "./log";
import type { InputMarks } from "./inputs";

const OUTCOMES: (OutcomeName | null)[] = [null, "queued_only", "placement_gap", null];

describe("a plan's entries made from the last plan's", () => {
  it("equal the entries made from scratch, and keep the entry objects of the rows the patch kept", () => {
    let reused = 0;
    let made = 0;
    fc.assert(
      fc.property(replanSteps, fc.array(fc.nat(3), { minLength: 30, maxLength: 30 }), (steps, picks) => {
        let before: PlanStates | null = null;
        let step = 0;
        replanEach(steps, [], (plan: FleetPlan) => {
          // the shadow outcomes move now and then, as the pass's do
          step++;
          const outcomes = new Map<string, OutcomeName>();
          plan.tables.forEach((t, i) => {
            const o = OUTCOMES[(picks[i % picks.length] + (step % 3 === 0 ? i : 0)) % OUTCOMES.length];
            if (o !== null) outcomes.set(t.target, o);
          });
          const kept = planStates(plan, outcomes, before);
          expect(kept).toEqual(planStates(plan, outcomes));
          for (const t of plan.tables) {
            const was = before?.tables.get(t.target);
            const same =
              before !== null &&
              before.plan.now_ms === plan.now_ms &&
              before.plan.byTarget.get(t.target) === t &&
              was?.shadow_outcome === (outcomes.get(t.target) ?? null);
            expect(kept.get(t.target) === was).toBe(same);
            if (same) reused++;
            else made++;
          }
          before = { plan, tables: kept };
        });
      }),
      { numRuns: 80 },
    );
    expect(reused).toBeGreaterThan(500);
    expect(made).toBeGreaterThan(500);
  });
});

describe("the journal log", () => {
  it("marks copies of the entries it enters, and keeps the handed-in entries as they are", () => {
    const entry = (code: "cycle_limit" | "no_capacity", pending: number): TableState =>
      Object.freeze({
        class: "normal",
        verdict: { state: "would_skip", code, executor: null },
        write_turn: null,
        shadow_outcome: null,
        demand: { head: "other", pending_generations: pending, score: 1, since_ms: null },
      }) as TableState;
    const marksAt =
      (n: number) =>
      (target: string): InputMarks => [n, target.length, 0, 0, 0, 0];
    const log = new JournalLog({ checkpointEveryMs: 10_000, idleExtendMs: 60_000, maxChunkEntries: 100 });
    const a1 = entry("cycle_limit", 1);
    const b1 = entry("cycle_limit", 2);
    const first = new Map([
      ["a", a1],
      ["b", b1],
    ]);
    log.observe({ revision: 1, now_ms: 1000 }, first, marksAt(1)); // the first checkpoint: not marked
    const a2 = entry("no_capacity", 1);
    const second = new Map([
      ["a", a2],
      ["b", b1],
    ]);
    log.observe({ revision: 2, now_ms: 2000 }, second, marksAt(2)); // a delta: `a` marked
    const b3 = entry("no_capacity", 2);
    const third = new Map([
      ["a", a2],
      ["b", b3],
    ]);
    log.observe({ revision: 3, now_ms: 12_000 }, third, marksAt(3)); // a delta, then the restatement
    const chunks = log.drain(20_000);
    const evaluations = chunks.flatMap((c) => c.evaluations.map((e) => ({ kind: c.kind, ...e })));
    const said = evaluations.map((e) => [
      e.kind,
      e.revision,
      Object.fromEntries([...e.changed].map(([t, s]) => [t, [s.verdict.code, s.inputs ?? null]])),
    ]);
    expect(said).toEqual([
      ["after_no_sampler", 1, { a: ["cycle_limit", null], b: ["cycle_limit", null] }],
      // the evaluations after a checkpoint go into its chunk, as deltas
      ["after_no_sampler", 2, { a: ["no_capacity", [2, 1, 0, 0, 0, 0]] }],
      ["after_no_sampler", 3, { b: ["no_capacity", [3, 1, 0, 0, 0, 0]] }],
      // the restatement's rows are the entries as the delta marked them
      ["restated", 3, { a: ["no_capacity", null], b: ["no_capacity", [3, 1, 0, 0, 0, 0]] }],
    ]);
    // the entries handed in are as they were made (frozen: a write would have thrown)
    for (const e of [a1, b1, a2, b3]) expect(e.inputs).toBeUndefined();
    expect([...third.values()]).toEqual([a2, b3]);
  });
});
