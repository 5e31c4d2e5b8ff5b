import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { TableDemand } from "@/lib/schema/demand";
import { SealedTimes } from "@/lib/schema/sealed-times";
import { foldHeadroom } from "../headroom";
import { sortPlannerOrder } from "../order";
import { place } from "../placement";
import { scoreTables } from "../score";
import { planFleet } from "./full-plan";
import type { PlannerFleet, TurnHistory } from "./input";
import { NOW, GiB, demand, fleet, heartbeat } from "./__fixtures__/fleet";

/** The master's path (§4.1 score + order, §6.2 step 3 headroom, §5.4 place) on the same input. */
function masterPlacements(f: PlannerFleet, now: number) {
  const ordered = sortPlannerOrder(scoreTables(f.tables, now));
  const rows = foldHeadroom(
    [...f.heartbeats].map(([id, heartbeat]) => ({ id, heartbeat })),
    f.assignments,
    { countShadow: false },
  );
  return {
    ordered,
    placed: place(ordered, rows, { now, plannerToken: "x" }).placements.map((p) => [
      p.unit.target,
      p.executor,
      p.reserved_bytes,
    ]),
  };
}

const tableArb = fc.record({
  pending: fc.integer({ min: 0, max: 400 }),
  ageSecs: fc.integer({ min: 0, max: 8000 }),
});
const executorArb = fc.record({
  slots: fc.integer({ min: 0, max: 3 }),
  bytes: fc.constantFrom(0, GiB, 2 * GiB, 5 * GiB),
  draining: fc.boolean(),
});

describe("master exactness with the built-in policy", () => {
  it("scores, classes, order and merge placements equal the §4.1/§5.4 core (limits off)", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), tableArb, { maxKeys: 30 }),
        fc.dictionary(fc.constantFrom("e1", "e2", "e3", "e4", "é5"), executorArb),
        (tables, executors) => {
          const demandMap: Record<string, TableDemand> = {};
          for (const [t, spec] of Object.entries(tables))
            demandMap[t] = demand(spec.pending, NOW - spec.ageSecs * 1000);
          const heartbeats = Object.fromEntries(
            Object.entries(executors).map(([id, e]) => [
              id,
              heartbeat({ slots_total: { merge_wal: e.slots }, bytes_total: e.bytes, draining: e.draining }),
            ]),
          );
          const f = fleet(
            { tables: demandMap, heartbeats },
            { limits: { placementsPerExecutorPerMin: null, maxPlacementsPerCycle: null } },
          );
          const plan = planFleet(f, NOW);
          const master = masterPlacements(f, NOW);
          expect(plan.placements.map((p) => [p.target, p.executor, p.reserved_bytes])).toEqual(master.placed);
          const scoredOrder = plan.tables
            .filter((t) => t.class !== "idle")
            .map((t) => [t.target, t.class, t.score, t.reason, t.wait_ms]);
          expect(scoredOrder).toEqual(master.ordered.map((s) => [s.target, s.class, s.score, s.reason, s.wait_ms]));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("with the default §5.5 limits the placements still equal the core when the limits do not bind", () => {
    const tables = {
      a: demand(16, NOW - 5000),
      b: demand(300, NOW - 1000),
      c: demand(3, NOW - 10),
      d: demand(40, NOW - 4_000_000),
    };
    const f = fleet({ tables, heartbeats: { e1: heartbeat(), e2: heartbeat({ slots_total: { merge_wal: 1 } }) } });
    const plan = planFleet(f, NOW);
    expect(plan.placements.map((p) => [p.target, p.executor, p.reserved_bytes])).toEqual(
      masterPlacements(f, NOW).placed,
    );
    expect(plan.tables.map((t) => [t.target, t.class])).toEqual([
      ["d", "critical"],
      ["b", "critical"],
      ["a", "normal"],
      ["c", "tail"],
    ]);
    expect(plan.counts.by_class).toEqual({
      recovery: 0,
      critical: 2,
      commit_ready: 0,
      normal: 1,
      maintenance: 0,
      tail: 1,
      idle: 0,
    });
    expect(plan.counts.by_backlog).toEqual({ ok: 3, warn: 1, critical: 0 });
    expect(plan.tables_with_pending).toBe(4);
  });
});

/** Run cycles on one table: the placed kind is appended to the turn history each cycle. */
function serveTurns(tableDemand: TableDemand, fences: PlannerFleet["fences"], cycles: number, maxTurns?: number) {
  const history: { kind: "merge_wal" | "compact" | "index_id" | "repair"; at_ms: number }[] = [];
  const served: string[] = [];
  for (let i = 0; i < cycles; i++) {
    const turns = new Map<string, TurnHistory>([["t", { turns: history }]]);
    const f = fleet(
      {
        tables: { t: tableDemand },
        policies: maxTurns ? { t: { max_consecutive_turns: { merge_wal: maxTurns } } } : {},
      },
      { turns, fences },
    );
    const p = planFleet(f, NOW + i * 60_000).placements[0];
    served.push(p ? p.kind : "none");
    if (p) history.push({ kind: p.kind as "merge_wal", at_ms: NOW + i * 60_000 });
  }
  return served;
}

describe("fairness (§4.2 invariant 5)", () => {
  it("a commit-ready compaction is served within max_consecutive_turns under a continuously hot merger", () => {
    const hotMerger = demand(500, NOW - 10_000); // critical, stays critical
    const served = serveTurns(hotMerger, new Map([["t", { preparation: "p1", commitReady: "p1" }]]), 3);
    expect(served.indexOf("compact")).toBeGreaterThanOrEqual(0);
    expect(served.indexOf("compact")).toBeLessThan(2);
  });

  it("a class-4 compaction gets the turn after max_consecutive_turns critical merges, for limits 1..4", () => {
    const hotMerger = demand(500, NOW - 10_000, { fragment_count: 40 });
    for (const limit of [1, 2, 3, 4]) {
      const served = serveTurns(hotMerger, new Map(), limit + 3, limit);
      expect(served.slice(0, limit + 1)).toEqual([...Array(limit).fill("merge_wal"), "compact"]);
      expect(served[limit + 1]).toBe("merge_wal");
    }
  });

  it("a low-count tail is promoted to class 1 after max_turn_wait_secs and placed", () => {
    const at = (waitSecs: number, policies = {}) =>
      planFleet(fleet({ tables: { t: demand(3, NOW - waitSecs * 1000) }, policies }), NOW).byTarget.get("t")!;
    expect(at(3599)).toMatchObject({ class: "tail", verdict: { code: "tail_below_threshold" } });
    expect(at(3600)).toMatchObject({
      class: "critical",
      reason: "promoted_for_age",
      verdict: { state: "would_place" },
    });
    const shortWait = { t: { max_turn_wait_secs: { merge_wal: 600 } } };
    expect(at(599, shortWait).class).toBe("tail");
    expect(at(600, shortWait)).toMatchObject({ class: "critical", reason: "promoted_for_age" });
  });

  it("an alphabet-late table is not starved by equal-score tables that keep refilling", () => {
    const names = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "zz"];
    const oldest = new Map(names.map((n) => [n, NOW]));
    let servedZz = -1;
    for (let cycle = 0; cycle < names.length && servedZz < 0; cycle++) {
      const now = NOW + (cycle + 1) * 60_000;
      const tables = Object.fromEntries(names.map((n) => [n, demand(10, oldest.get(n)!)]));
      const plan = planFleet(fleet({ tables, heartbeats: { e1: heartbeat({ slots_total: { merge_wal: 1 } }) } }), now);
      const placed = plan.placements[0].target;
      if (placed === "zz") servedZz = cycle;
      oldest.set(placed, now); // merged; 10 fresh generations arrive at once
    }
    expect(servedZz).toBe(names.length - 1);
  });
});

describe("policies feed the planner (§7.3)", () => {
  it("an edited min_generations turns a tail into a placement", () => {
    const tables = { t: demand(6, NOW - 1000) };
    expect(planFleet(fleet({ tables }), NOW).byTarget.get("t")!.verdict).toMatchObject({
      code: "tail_below_threshold",
    });
    const edited = planFleet(fleet({ tables, policies: { t: { merge: { min_generations: 4 } } } }), NOW).byTarget.get(
      "t",
    )!;
    expect(edited).toMatchObject({ class: "normal", verdict: { state: "would_place" } });
    expect(edited.score_breakdown).toMatchObject({ min_generations: 4, by_generations: 1.5 });
    expect(edited.policy.sources.fields["merge.min_generations"]).toBe("table");
  });

  it("a fleet default critical threshold and backlog thresholds change class and backlog", () => {
    const t = planFleet(
      fleet({
        tables: { t: demand(100, NOW - 1000) },
        defaultPolicy: {
          merge: { critical_generations: 64 },
          backlog: { warn_generations: 50, critical_generations: 100 },
        },
      }),
      NOW,
    ).byTarget.get("t")!;
    expect(t).toMatchObject({ class: "critical", reason: "pending_at_or_above_critical", backlog_class: "critical" });
  });
});

describe("units per kind (§4.2)", () => {
  it("compaction halved under a hot WAL, index only when stale, repair infinite, retire when idle", () => {
    const t = planFleet(
      fleet({
        tables: {
          t: demand(16, NOW - 1000, {
            fragment_count: 32,
            index_stale: true,
            uncovered_fragments: 48,
            missing_fragments: true,
          }),
        },
      }),
      NOW,
    ).byTarget.get("t")!;
    expect(t.units).toEqual(
      [
        {
          kind: "repair",
          class: "recovery",
          class_rank: 0,
          score: "infinity",
          reason: "missing_fragments",
          wait_ms: null,
        },
        { kind: "index_id", class: "maintenance", class_rank: 4, score: 3, reason: "index_score_due", wait_ms: null },
        { kind: "compact", class: "maintenance", class_rank: 4, score: 1, reason: "compact_score_due", wait_ms: null },
        {
          kind: "merge_wal",
          class: "normal",
          class_rank: 3,
          score: expect.any(Number),
          reason: "merge_score_due",
          wait_ms: 1000,
        },
      ].sort((a, b) => a.class_rank - b.class_rank),
    );
    expect(t).toMatchObject({
      class: "recovery",
      score: "infinity",
      verdict: { state: "would_place", kind: "repair" },
    });
    expect(JSON.parse(JSON.stringify(t)).score).toBe("infinity");

    const notStale = planFleet(fleet({ tables: { t: demand(0, 0, { uncovered_fragments: 48 }) } }), NOW).byTarget.get(
      "t",
    )!;
    expect(notStale.class).toBe("idle");

    const idleDemand = demand(0, 0);
    idleDemand.shards = {
      s: {
        sealed: { epoch: 1, value: 5 },
        merged: { epoch: 1, value: 5 },
        sealed_bytes: 0,
        sealed_times: SealedTimes.fromRecord({ "5": NOW - 604_801_000 }),
      },
    };
    const retire = planFleet(fleet({ tables: { t: idleDemand } }), NOW).byTarget.get("t")!;
    expect(retire).toMatchObject({
      class: "tail",
      reason: "idle_past_retire",
      verdict: { code: "tail_below_threshold" },
    });
    idleDemand.shards.s.sealed_times = SealedTimes.fromRecord({ "5": NOW - 604_800_000 });
    expect(planFleet(fleet({ tables: { t: idleDemand } }), NOW).byTarget.get("t")!.class).toBe("idle");
  });

  it("an unresolved maintenance execution is class 0 recovery", () => {
    const execution = {
      maintenance: "index_id" as const,
      id: "x1",
      target: "t",
      endpoint: "master:index_id",
      instance: "m",
      timeout_secs: 0,
      queue_timeout_secs: 600,
      idle_timeout_secs: 600,
      phase: "uncertain" as const,
      reclaimed: false,
      error: null,
      protocol: 2,
    };
    const t = planFleet(
      fleet({ tables: { t: demand(0, 0) }, fences: { t: { execution, targetLock: "merge-execution:x1" } } }),
      NOW,
    ).byTarget.get("t")!;
    expect(t).toMatchObject({
      class: "recovery",
      reason: "recover_maintenance_execution",
      verdict: { state: "would_place", kind: "index_id" },
    });
  });
});
