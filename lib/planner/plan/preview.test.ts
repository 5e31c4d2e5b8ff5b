import { describe, expect, it } from "vitest";
import { previewPolicy } from "./preview";
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
    const frozenVerdict = { state: "would_skip", code: "policy_frozen", message: "This table's policy mode is frozen: nothing new is placed until an admin changes it." };
    // the tail's verdict changes too (frozen outranks tail); the idle table has nothing to freeze
    expect(frozen.changed.map((c) => [c.target, c.after.verdict])).toEqual([["b", frozenVerdict], ["a", frozenVerdict]]);
    expect(frozen.unchanged_count).toBe(1);
    const restored = previewPolicy(fleet({ tables, policies: { b: { mode: "frozen" } } }), "b", null, NOW);
    expect(restored.changed.map((c) => [c.target, c.after.verdict.state])).toEqual([["b", "would_place"]]);
  });
});
