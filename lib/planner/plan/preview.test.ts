import { describe, expect, it } from "vitest";
import {
  changesExcept,
  decisionChanges,
  decisionSets,
  isStarving,
  noDecisionChange,
  previewEffect,
  previewPolicy,
  previewPolicyInSteps,
} from "./preview";
import type { TableDemand } from "@/lib/schema/demand";
import { planFleet, STEP_TABLES } from "./full-plan";
import { NOW, demand, fleet } from "./__fixtures__/fleet";

describe("policy preview", () => {
  const tables = { a: demand(6, NOW - 1000), b: demand(16, NOW - 1000), c: demand(0, 0) };

  it("lists only the tables whose class, score or verdict change", () => {
    const p = previewPolicy(fleet({ tables }), "a", { merge: { min_generations: 4 } }, NOW);
    expect(p.unchanged_count).toBe(2);
    expect(p.changed).toHaveLength(1);
    expect(p.changed[0]).toMatchObject({
      target: "a",
      before: { class: "tail", verdict: { state: "would_skip", code: "tail_below_threshold" } },
      after: { class: "normal", verdict: { state: "would_place", executor: "e1" } },
    });
    expect(p.changed[0].after.score).toBeCloseTo(1.5 * (1 + 1 / 3600), 12);
  });

  it("a fleet default edit reaches every table without an override; deleting an override restores it", () => {
    const frozen = previewPolicy(fleet({ tables }), "_default", { mode: "frozen" }, NOW);
    const frozenVerdict = {
      state: "would_skip",
      code: "policy_frozen",
      message: "This table's policy mode is frozen: nothing new is placed until an admin changes it.",
    };
    // the tail's verdict changes too (frozen outranks tail); the idle table has nothing to freeze
    expect(frozen.changed.map((c) => [c.target, c.after.verdict])).toEqual([
      ["b", frozenVerdict],
      ["a", frozenVerdict],
    ]);
    expect(frozen.unchanged_count).toBe(1);
    const restored = previewPolicy(fleet({ tables, policies: { b: { mode: "frozen" } } }), "b", null, NOW);
    expect(restored.changed.map((c) => [c.target, c.after.verdict.state])).toEqual([["b", "would_place"]]);
  });
});

describe("preview summary and effect", () => {
  // a: 16 pending (due, placed); b: 300 pending (critical, placed); c: 5 pending (tail)
  const tables = { a: demand(16, NOW - 1000), b: demand(300, NOW - 1000), c: demand(5, NOW - 1000) };

  it("a fleet default that raises both thresholds loses both placements and starves the warned table", () => {
    const p = previewPolicy(
      fleet({ tables }),
      "_default",
      { merge: { min_generations: 100_000, critical_generations: 100_000 } },
      NOW,
    );
    expect(p.summary).toEqual({ placements_lost: 2, placements_gained: 0, promoted: 0, demoted: 2, newly_starving: 1 });
    const byTarget = new Map(p.changed.map((r) => [r.target, r]));
    expect(byTarget.get("b")?.effects).toEqual(["placements_lost", "demoted", "newly_starving"]);
    expect(byTarget.get("a")?.effects).toEqual(["placements_lost", "demoted"]);
    // c stays a tail: only its score moves, so it is listed without an effect
    expect(byTarget.get("c")?.effects).toEqual([]);
    expect([byTarget.get("b")?.before.class, byTarget.get("b")?.after.class]).toEqual(["critical", "tail"]);
  });

  it("lowering one table's threshold gains its placement and promotes it", () => {
    const p = previewPolicy(fleet({ tables }), "c", { merge: { min_generations: 2 } }, NOW);
    expect(p.summary).toEqual({ placements_lost: 0, placements_gained: 1, promoted: 1, demoted: 0, newly_starving: 0 });
  });

  it("freezing starves every table with pending work", () => {
    const p = previewPolicy(fleet({ tables }), "_default", { mode: "frozen" }, NOW);
    expect(p.summary.newly_starving).toBe(3);
    expect(isStarving(planFleet(fleet({ tables }), NOW).byTarget.get("c")!)).toBe(false);
  });

  it("the effect ignores scores and skip messages but not classes or verdicts", () => {
    const f = fleet({ tables });
    const one = previewPolicy(
      f,
      "_default",
      { merge: { min_generations: 100_000, critical_generations: 100_000 } },
      NOW,
    );
    // an hour later every score differs; the effect is the same
    const later = previewPolicy(
      f,
      "_default",
      { merge: { min_generations: 100_000, critical_generations: 100_000 } },
      NOW + 60_000,
    );
    expect(later.changed.find((r) => r.target === "c")?.after.score).not.toBe(
      one.changed.find((r) => r.target === "c")?.after.score,
    );
    expect(previewEffect(later)).toBe(previewEffect(one));
    // a new due table under the same proposal changes the effect
    const grown = previewPolicy(
      fleet({ tables: { ...tables, d: demand(20, NOW - 1000) } }),
      "_default",
      { merge: { min_generations: 100_000, critical_generations: 100_000 } },
      NOW,
    );
    expect(previewEffect(grown)).not.toBe(previewEffect(one));
  });
});

describe("decision sets (console-api.md third version: stale means material)", () => {
  const tables = { a: demand(16, NOW - 1000), b: demand(300, NOW - 1000), c: demand(5, NOW - 1000) };
  const RAISE = { merge: { min_generations: 100_000, critical_generations: 100_000 } };

  it("the sets list each effect's targets, sorted; the digest input is those sets only", () => {
    const p = previewPolicy(fleet({ tables }), "_default", RAISE, NOW);
    expect(decisionSets(p)).toEqual({
      placements_lost: ["a", "b"],
      placements_gained: [],
      promoted: [],
      demoted: ["a", "b"],
      newly_starving: ["b"],
    });
    expect(previewEffect(p)).toBe(
      JSON.stringify([
        ["placements_lost", ["a", "b"]],
        ["placements_gained", []],
        ["promoted", []],
        ["demoted", ["a", "b"]],
        ["newly_starving", ["b"]],
      ]),
    );
  });

  it("more pending on a table that keeps its effects leaves the sets (and digest) alone", () => {
    const one = previewPolicy(fleet({ tables }), "_default", RAISE, NOW);
    const moved = previewPolicy(
      fleet({ tables: { ...tables, a: demand(40, NOW - 1000), c: demand(6, NOW - 1000) } }),
      "_default",
      RAISE,
      NOW,
    );
    expect(moved.changed.find((r) => r.target === "a")?.before.score).not.toBe(
      one.changed.find((r) => r.target === "a")?.before.score,
    );
    expect(previewEffect(moved)).toBe(previewEffect(one));
  });

  it("changes name the added and removed targets per effect; skipped targets drop out", () => {
    const one = decisionSets(previewPolicy(fleet({ tables }), "_default", RAISE, NOW));
    const grown = decisionSets(
      previewPolicy(fleet({ tables: { ...tables, d: demand(20, NOW - 1000) } }), "_default", RAISE, NOW),
    );
    const changes = decisionChanges(one, grown);
    expect(changes).toEqual({
      placements_lost: { added: ["d"], removed: [] },
      placements_gained: { added: [], removed: [] },
      promoted: { added: [], removed: [] },
      demoted: { added: ["d"], removed: [] },
      newly_starving: { added: [], removed: [] },
    });
    expect(noDecisionChange(changes)).toBe(false);
    expect(noDecisionChange(changesExcept(changes, (t) => t === "d"))).toBe(true);
  });
});

describe("the preview in steps (lib/policies/preview.ts runs it in slices)", () => {
  it("pauses within both plans and the comparison, every STEP_TABLES tables, and ends in the preview", () => {
    const n = 2 * STEP_TABLES + 5;
    const tables = new Map<string, TableDemand>(
      Array.from({ length: n }, (_, i) => [`t${i}`, demand(i % 4 === 0 ? 0 : 2 + (i % 20), NOW - 60_000 * (i % 50))]),
    );
    const f = { ...fleet({}), tables };
    const proposed = { merge: { min_generations: 4 } };
    const steps = previewPolicyInSteps(f, "_default", proposed, NOW);
    let pauses = 0;
    let step = steps.next();
    while (!step.done) {
      pauses++;
      step = steps.next();
    }
    // two plans of n tables (drafts and placements both pause) and one comparison of n rows
    expect(pauses).toBeGreaterThanOrEqual(3 * Math.floor(n / STEP_TABLES));
    const preview = step.value;
    expect(preview).toEqual(previewPolicy(f, "_default", proposed, NOW));
    // checked against the two plans made at once
    const before = planFleet(f, NOW);
    const after = planFleet({ ...f, policies: { ...f.policies, default: proposed } }, NOW);
    expect(preview.unchanged_count + preview.changed.length).toBe(after.tables.length);
    const changedByHand = after.tables.filter((t) => {
      const b = before.byTarget.get(t.target)!;
      return b.class !== t.class || b.score !== t.score || JSON.stringify(b.verdict) !== JSON.stringify(t.verdict);
    });
    expect(changedByHand.length).toBeGreaterThan(0);
    expect(preview.changed.map((c) => c.target)).toEqual(expect.arrayContaining(changedByHand.map((t) => t.target)));
    expect(preview.modes).toEqual({ [after.tables[0].policy.effective.mode]: n });
  });
});
