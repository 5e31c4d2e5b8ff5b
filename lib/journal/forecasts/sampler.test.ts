// What the forecast journal's writer records at each evaluation (./sampler.ts), worked by hand
// on a small fleet: both worlds' estimates of the tables in line, at most one a minute per
// table, and their outcomes — a queued task starting (dated by its started_at), the plan
// placing a table (dated by the evaluation), a table leaving the line (withdrawn).
import { describe, expect, it } from "vitest";
import { planFleet } from "@/lib/planner/plan/full-plan";
import { assignment, demand, fleet, heartbeat, NOW } from "@/lib/planner/plan/__fixtures__/fleet";
import { legacyLine } from "@/lib/planner/forecast/legacy";
import type { Calibration } from "@/lib/planner/forecast/calibration";
import type { TaskRecord } from "@/lib/schema/tasks";
import { task } from "@/lib/planner/forecast/__fixtures__/tasks";
import { ForecastSampler, SAMPLE_TABLES_PER_MINUTE } from "./sampler";

/** 11 merges finished 100 s apart in the last hour: one every 100 s */
const FINISHED = Array.from({ length: 11 }, (_, i) =>
  task(`0000-done-${String(i).padStart(2, "0")}`, `done/${i}`, {
    state: "done",
    started_at: NOW - 1_100_000 + i * 100_000,
    finished_at: NOW - 1_050_000 + i * 100_000,
  }),
);
const NONE: Calibration = new Map();
// a critical table (placed: one merge slot), then b and c in line; b and c queued in the legacy queue in that order
const TABLES = { a: demand(300, NOW - 7_200_000), b: demand(60, NOW - 3_600_000), c: demand(30, NOW - 3_600_000) };

function moment(
  now: number,
  tables: Record<string, ReturnType<typeof demand>>,
  queue: TaskRecord[],
  running: TaskRecord[],
) {
  const tasks = [...FINISHED, ...queue, ...running];
  const plan = planFleet(
    fleet(
      { tables, heartbeats: { e1: heartbeat({ slots_total: { merge_wal: 1 } }) } },
      { history: tasks, tasks: { queued: queue, running } },
    ),
    now,
  );
  const legacy = legacyLine({ queue, running, tasks, slots: new Map([["merge_wal", 1]]), cooldowns: [] }, now);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return { now, plan, legacy, taskById: (id: string) => byId.get(id) ?? null, placedAt: () => null, calibration: NONE };
}

describe("the forecast sampler", () => {
  it("samples both worlds' estimates of the tables in line, then resolves them when their turn comes", () => {
    const sampler = new ForecastSampler();
    const qb = task("0001-queued-b", "b");
    const qc = task("0002-queued-c", "c");
    const first = sampler.evaluate(moment(NOW, TABLES, [qb, qc], []));
    expect(first.outcomes).toEqual([]);
    // tables never sampled go in an order that is neither rank nor fate (a hash of the name): c, then b
    first.forecasts.sort((x, y) => (x.target < y.target ? -1 : x.target > y.target ? 1 : 0));
    // legacy: b first in the queue takes the free slot at once (0 s); c waits for one finish (100 s)
    // planner: a is placed; b is placed once the one table ahead of it leaves (one finish), c
    // once both have (two); the legacy queue of 2 is no longer than the line ahead of them
    // the tables are in legacy mode: the legacy forecasts are acting, the planner's what-ifs
    expect(first.forecasts.map((f) => [f.world, f.target, f.rank, f.of, f.point_ms, f.calibrated, f.acting])).toEqual([
      ["legacy", "b", 1, 2, 0, false, true],
      ["planner", "b", 2, 3, 100_000, false, false],
      ["legacy", "c", 2, 2, 100_000, false, true],
      ["planner", "c", 3, 3, 200_000, false, false],
    ]);
    // not calibrated yet: the interval is the rate's own spread around the point, k finishes
    // ± z·√k of them (z of 0.9 = 1.28155): k = 0 and 1 → [0, 128 s] and [0, 228 s]; k = 2 → [19 s, 381 s]
    expect(first.forecasts.map((f) => [f.low_ms, f.high_ms])).toEqual([
      [0, 128_155],
      [0, 228_155],
      [0, 228_155],
      [18_761, 381_239],
    ]);

    // 30 s later a was merged: the plan places b (the legacy queue has not started it yet)
    const second = sampler.evaluate(moment(NOW + 30_000, { b: TABLES.b, c: TABLES.c }, [qb, qc], []));
    expect(second.outcomes.sort((p, q) => (p.target < q.target ? -1 : 1))).toEqual([
      { target: "b", world: "planner", what: "turn", kind: null, at_ms: NOW + 30_000 },
    ]);
    expect(second.forecasts).toEqual([]); // sampled less than a minute ago

    // a minute on: b's task started at +45 s (its running/ copy says so); c's task went without
    // starting and c has nothing pending any more: both its forecasts lost their premise
    const rb = { ...qb, state: "running" as const, started_at: NOW + 45_000 };
    const third = sampler.evaluate(moment(NOW + 60_000, { b: TABLES.b, c: demand(0, NOW) }, [], [rb]));
    expect(third.outcomes).toEqual([
      { target: "c", world: "legacy", what: "withdrawn", kind: "merge_wal", at_ms: NOW + 60_000 },
      { target: "b", world: "legacy", what: "turn", kind: "merge_wal", at_ms: NOW + 45_000 },
      { target: "c", world: "planner", what: "withdrawn", kind: null, at_ms: NOW + 60_000 },
    ]);
    expect(third.forecasts).toEqual([]); // b runs (no estimate to sample); c is not in line
  });
});

describe("the sampling budget", () => {
  it("samples at most SAMPLE_TABLES_PER_MINUTE tables a minute, the least recently sampled first", () => {
    const targets = Array.from({ length: 400 }, (_, i) => `q/${String(i).padStart(3, "0")}`);
    const queue = targets.map((t, i) => task(`0001-${String(i).padStart(3, "0")}`, t));
    const tables = Object.fromEntries(targets.map((t) => [t, demand(20, NOW - 3_600_000)]));
    const sampler = new ForecastSampler();
    const sampledTables = (ev: { forecasts: { target: string }[] }) => new Set(ev.forecasts.map((f) => f.target));
    const first = sampledTables(sampler.evaluate(moment(NOW, tables, queue, [])));
    expect(first.size).toBe(SAMPLE_TABLES_PER_MINUTE);
    // 30 s on, half a minute's budget (150): the 100 tables not sampled yet, and no other (due once a minute)
    const second = sampledTables(sampler.evaluate(moment(NOW + 30_000, tables, queue, [])));
    expect([...second].sort()).toEqual(targets.filter((t) => !first.has(t)));
    // a minute after the first: the 50 left and 150 more: 200 of the first minute's tables, due again
    const third = sampledTables(sampler.evaluate(moment(NOW + 60_000, tables, queue, [])));
    expect(third.size).toBe(200);
    expect([...third].every((t) => first.has(t))).toBe(true);
  });

  it("dates a table in planner mode's turn by the planner's placement (its assignment's created_ms), within the sample and the evaluation", () => {
    const planner = { v: 1, mode: "planner" } as const;
    // the leader's cycles: every 30 s, two placements each, the last 5 s before NOW
    const cycles = [NOW - 95_000, NOW - 65_000, NOW - 35_000, NOW - 5_000].flatMap((at) => [at, at]);
    const at = (now: number, placed: { target: string; created_ms: number }[]) => {
      const assignments = placed.map((p) =>
        assignment(p.target, "e1", {
          unit_id: `u-${p.target}`,
          state: "assigned",
          created_ms: p.created_ms,
          bind_deadline_ms: p.created_ms + 30_000,
        }),
      );
      const plan = planFleet(
        fleet({
          tables: { x: demand(60, NOW - 3_600_000), y: demand(60, NOW - 3_000_000) },
          policies: { x: planner, y: planner },
          assignments,
        }),
        now,
      );
      const legacy = legacyLine(
        {
          queue: [],
          running: [],
          tasks: [],
          slots: new Map(),
          cooldowns: [],
          assignments: cycles.map((created_ms) => ({ kind: "merge_wal", state: "released", created_ms })),
        },
        now,
      );
      const created = new Map(placed.map((p) => [p.target, p.created_ms]));
      return {
        now,
        plan,
        legacy,
        taskById: () => null,
        placedAt: (t: string) => created.get(t) ?? null,
        calibration: NONE,
      };
    };
    const sampler = new ForecastSampler();
    const first = sampler.evaluate(at(NOW, []));
    const acting = first.forecasts.filter((f) => f.acting).sort((p, q) => (p.target < q.target ? -1 : 1));
    // both at the next cycle (two a cycle), 25 s on
    expect(acting.map((f) => [f.world, f.target, f.point_ms])).toEqual([
      ["planner", "x", 25_000],
      ["planner", "y", 25_000],
    ]);
    // seen 20 s later: x placed by the cycle at NOW + 17 s, y by one the read dates before the sample
    const second = sampler.evaluate(
      at(NOW + 20_000, [
        { target: "x", created_ms: NOW + 17_000 },
        { target: "y", created_ms: NOW - 2_000 },
      ]),
    );
    expect(second.outcomes.sort((p, q) => (p.target < q.target ? -1 : 1))).toEqual([
      { target: "x", world: "planner", what: "turn", kind: null, at_ms: NOW + 17_000 },
      { target: "y", world: "planner", what: "turn", kind: null, at_ms: NOW },
    ]);
  });
});
