// Each world's standing and its basis (./legacy.ts, ./planner-world.ts, ./forecasts.ts):
// an estimate from the place and the rate, or no ETA with the reason — never a made-up figure.
import { describe, expect, it } from "vitest";
import type { TaskRecord } from "@/lib/schema/tasks";
import { planFleet } from "../plan/full-plan";
import { assignment, demand, fleet, NOW } from "../plan/__fixtures__/fleet";
import { legacyLine, legacyStanding, MIN_FINISHES } from "./legacy";
import { plannerStanding } from "./planner-world";
import { returningTables } from "./returning";
import { actingWorld, tableForecasts } from "./forecasts";
import { task } from "./__fixtures__/tasks";

/** The legacy line of a fleet whose only history is the leader's placements at `created` (ms). */
const placingCycles = (created: number[]) =>
  legacyLine(
    {
      queue: [],
      running: [],
      tasks: [],
      slots: new Map(),
      cooldowns: [],
      assignments: created.map((created_ms) => ({ kind: "merge_wal", state: "released", created_ms })),
    },
    NOW,
  );

const finished = (n: number, gapMs: number) =>
  Array.from({ length: n }, (_, i) =>
    task(`0000-${i}`, `done/${i}`, {
      state: "done",
      started_at: NOW - 3_000_000,
      finished_at: NOW - 3_000_000 + i * gapMs,
    }),
  );

describe("the legacy world's standing", () => {
  const queue = [task("0003", "c"), task("0001", "a"), task("0002", "b")];
  const line = (tasks: TaskRecord[], extra: Partial<Parameters<typeof legacyLine>[0]> = {}) =>
    legacyLine({ queue, running: [], tasks, slots: new Map(), cooldowns: [], ...extra }, NOW);

  it("ranks the queued tasks in id order and times them by the mean gap between the hour's finishes", () => {
    const l = line(finished(21, 30_000)); // 21 finishes 30 s apart: one every 30 s
    expect(l.gap_ms.get("merge_wal")).toBe(30_000);
    const c = legacyStanding(l, "c", "merge_wal", 0.8);
    expect(c).toMatchObject({
      basis_code: "estimate",
      position: { kind: "merge_wal", rank: 3, of: 3 },
      point_ms: 90_000,
    });
    expect(c.basis).toBe(
      "Rank 3 of 3 queued merge_wal tasks (id order, as the legacy workers claim them); 21 merge_wal tasks finished in the last hour, one every 30s.",
    );
  });

  it("says why there is no ETA: too few finishes, not queued, cooling down, running, nothing pending", () => {
    expect(legacyStanding(line(finished(MIN_FINISHES - 1, 30_000)), "a", "merge_wal", 0.8)).toMatchObject({
      basis_code: "no_throughput",
      point_ms: null,
      basis:
        "No basis: only 4 merge_wal tasks finished in the last hour (tasks/ records with a finished_at), too few for a rate.",
    });
    const l = line(finished(10, 30_000), {
      cooldowns: [{ kind: "compact", target: "a", until_ms: NOW + 600_000 }],
      running: [task("0009", "z", { state: "running", started_at: NOW - 5_000 })],
    });
    expect(legacyStanding(l, "a", "index_id", 0.8)).toMatchObject({ basis_code: "not_queued", point_ms: null });
    expect(legacyStanding(l, "a", "compact", 0.8)).toMatchObject({ basis_code: "cooling_down", at_ms: NOW + 600_000 });
    expect(legacyStanding(l, "z", "merge_wal", 0.8)).toMatchObject({ basis_code: "running", at_ms: NOW - 5_000 });
    expect(legacyStanding(l, "a", null, 0.8)).toMatchObject({ basis_code: "nothing_pending", position: null });
  });
});

describe("the planner world's standing and the acting world", () => {
  it("gives the line's place; a paused table and a table out of line have no ETA, with the reason", () => {
    const plan = planFleet(
      fleet({
        tables: { a: demand(300, NOW - 7_200_000), b: demand(60, NOW - 3_600_000), t: demand(3, NOW - 60_000) },
        policies: { b: { v: 1, mode: "frozen" } },
      }),
      NOW,
    );
    const rates = legacyLine(
      { queue: [], running: [], tasks: finished(10, 60_000), slots: new Map(), cooldowns: [] },
      NOW,
    );
    expect(plannerStanding(plan.byTarget.get("a")!, plan.line, returningTables(plan), rates, 0.8)).toMatchObject({
      basis_code: "placed_now",
      point_ms: 0,
    });
    expect(plannerStanding(plan.byTarget.get("b")!, plan.line, returningTables(plan), rates, 0.8)).toMatchObject({
      basis_code: "paused",
      basis: "Paused: its policy mode is frozen, so the planner places nothing new on it.",
    });
    // a tail is not in line: its why-not says why
    const tail = plannerStanding(plan.byTarget.get("t")!, plan.line, returningTables(plan), rates, 0.8);
    expect(tail.basis_code).toBe("not_in_line");
    expect(tail.basis).toMatch(/^Not in the planner's line: merge_wal is a tail/);

    expect(actingWorld("legacy")).toBe("legacy");
    expect(actingWorld("active")).toBe("legacy");
    expect(actingWorld("planner")).toBe("planner");
    const legacy = legacyStanding(rates, "a", "merge_wal", 0.8);
    const planner = plannerStanding(plan.byTarget.get("a")!, plan.line, returningTables(plan), rates, 0.8);
    expect(tableForecasts("legacy", legacy, planner, new Map()).map((f) => [f.world, f.acting])).toEqual([
      ["legacy", true],
      ["planner", false],
    ]);
    expect(tableForecasts("planner", legacy, planner, new Map()).map((f) => [f.world, f.acting, f.eta])).toEqual([
      ["planner", true, { low_ms: 0, high_ms: 0, level: 0.8, basis: "The plan places it now." }],
      ["legacy", false, null],
    ]);
  });

  it("times a table in planner mode by the leader's cycles: the tables in planner mode ahead take the first placements", () => {
    const planner = { v: 1, mode: "planner" } as const;
    const plan = planFleet(
      fleet({
        tables: {
          a: demand(60, NOW - 7_200_000),
          b: demand(60, NOW - 5_400_000),
          l: demand(60, NOW - 4_000_000),
          c: demand(60, NOW - 3_600_000),
        },
        policies: { a: planner, b: planner, c: planner },
      }),
      NOW,
    );
    // placing cycles every 30 s, two placements each, the last 5 s ago: the next in 25 s
    const created = [NOW - 95_000, NOW - 65_000, NOW - 35_000, NOW - 5_000].flatMap((at) => [at, at]);
    const rates = placingCycles(created);
    expect(rates.placed.get("merge_wal")).toBe(8);
    const a = plannerStanding(plan.byTarget.get("a")!, plan.line, returningTables(plan), rates, 0.8);
    expect(a).toMatchObject({ basis_code: "estimate", point_ms: 25_000, spread: { low_ms: 0, high_ms: 55_000 } });
    expect(a.basis).toBe(
      "Rank 1 of 4 in the planner's merge_wal line, 0 tables in planner mode ahead of it; the planner placed 8 merge_wal units in the last hour, in cycles every 30s (2 a cycle).",
    );
    // c: a and b ahead in planner mode (l, in legacy mode, is the legacy queue's): the cycle after the next
    expect(plannerStanding(plan.byTarget.get("c")!, plan.line, returningTables(plan), rates, 0.8)).toMatchObject({
      point_ms: 55_000,
      position: { rank: 4 },
    });
    // without placements to go on: no ETA, and why
    const none = legacyLine({ queue: [], running: [], tasks: [], slots: new Map(), cooldowns: [] }, NOW);
    expect(plannerStanding(plan.byTarget.get("a")!, plan.line, returningTables(plan), none, 0.8)).toMatchObject({
      basis_code: "no_throughput",
      point_ms: null,
      basis:
        "No basis: the planner placed no merge_wal unit in the last hour (assignments), so there is no pace to go on.",
    });
  });

  it("counts ahead of a table in planner mode the ones whose planner merge runs now and that the order puts first (in line again by the next cycle)", () => {
    const planner = { v: 1, mode: "planner" } as const;
    const live = { state: "bound" as const, created_ms: NOW - 10_000, bind_deadline_ms: NOW + 20_000 };
    const plan = planFleet(
      fleet({
        tables: {
          x: demand(60, NOW - 9_000_000), // merging now, first in the order
          a: demand(60, NOW - 7_200_000),
          b: demand(60, NOW - 5_400_000),
          y: demand(60, NOW - 1_000_000), // merging now, after b
        },
        policies: { x: planner, a: planner, b: planner, y: planner },
        assignments: [
          assignment("x", "e1", { unit_id: "u-x", ...live }),
          assignment("y", "e1", { unit_id: "u-y", ...live }),
        ],
      }),
      NOW,
    );
    expect(plan.byTarget.get("x")!.write_turn_holder?.type).toBe("assignment");
    expect(plan.byTarget.get("x")!.line_kind).toBeNull();
    const returning = returningTables(plan);
    expect(returning.aheadOf(plan.byTarget.get("a")!, "merge_wal")).toBe(1);
    expect(returning.aheadOf(plan.byTarget.get("b")!, "merge_wal")).toBe(1);
    expect(returning.aheadOf(plan.byTarget.get("b")!, "compact")).toBe(0);
    // two a cycle, the next in 25 s
    const created = [NOW - 95_000, NOW - 65_000, NOW - 35_000, NOW - 5_000].flatMap((at) => [at, at]);
    const rates = placingCycles(created);
    // b: a in line and x back by then take the next cycle's two placements; b the one after (y is behind it)
    const b = plannerStanding(plan.byTarget.get("b")!, plan.line, returning, rates, 0.8);
    expect(b).toMatchObject({ basis_code: "estimate", point_ms: 55_000 });
    expect(b.basis).toBe(
      "Rank 2 of 2 in the planner's merge_wal line, 1 table in planner mode ahead of it, and 1 more whose merge_wal runs now (in line again by the next cycle); the planner placed 8 merge_wal units in the last hour, in cycles every 30s (2 a cycle).",
    );
    // a: only x ahead of it, the next cycle
    expect(plannerStanding(plan.byTarget.get("a")!, plan.line, returning, rates, 0.8)).toMatchObject({
      point_ms: 25_000,
    });
  });
});
