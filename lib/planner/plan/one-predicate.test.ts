// One predicate (rowRejection) for placing and explaining: over random fleets, every table
// skipped because no executor fits counts each executor considered exactly once, under the
// stage that rejects it at that point of the plan, and every placement's executor passes
// the same check at the moment it is placed.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { TaskKind } from "@/lib/schema/kinds";
import { foldHeadroom, reserve } from "../headroom";
import { expectedMergeBytes } from "../placement";
import { indexFleet } from "./context";
import { rowRejection, type ExecutorCheck, type Stage } from "./executors";
import { DEFAULT_PLANNER_LIMITS, type PlannerFleet } from "./input";
import { planFleet } from "./full-plan";
import { NOW, GiB, assignment, demand, fleet, heartbeat } from "./__fixtures__/fleet";

const targets = ["a", "b", "c", "d", "e", "f", "g", "h"];
const executorIds = ["e1", "e2", "w1", "w2"];
const NO_FIT = new Set([
  "no_executors",
  "all_draining",
  "no_free_slot",
  "insufficient_bytes",
  "rate_limited",
  "executor_not_allowed",
]);

const fleetArb = fc
  .record({
    tables: fc.dictionary(
      fc.constantFrom(...targets),
      fc.record({
        pending: fc.integer({ min: 0, max: 400 }),
        ageSecs: fc.integer({ min: 0, max: 8000 }),
        fragments: fc.constantFrom(0, 40),
      }),
    ),
    allowed: fc.dictionary(
      fc.constantFrom(...targets),
      fc.shuffledSubarray(["resident", "worker", "catchup_job"] as const, { minLength: 1 }),
      { maxKeys: 3 },
    ),
    executors: fc.dictionary(
      fc.constantFrom(...executorIds),
      fc.record({
        slots: fc.integer({ min: 0, max: 3 }),
        bytes: fc.constantFrom(0, GiB, 3 * GiB, 5 * GiB),
        draining: fc.boolean(),
        worker: fc.boolean(),
      }),
    ),
    held: fc.array(
      fc.record({
        executor: fc.constantFrom(...executorIds, "ghost"),
        agoMs: fc.integer({ min: 0, max: 120_000 }),
        state: fc.constantFrom("shadow", "assigned", "bound", "released" as const),
        bytes: fc.constantFrom(0, GiB, 2 * GiB),
      }),
      { maxLength: 12 },
    ),
    rate: fc.constantFrom(1, 2, 6, null),
    cycle: fc.constantFrom(2, 8, null),
  })
  .map(({ tables, allowed, executors, held, rate, cycle }): PlannerFleet => {
    const heartbeats = Object.fromEntries(
      Object.entries(executors).map(([id, e]) => [
        id,
        heartbeat({
          kind: e.worker ? "worker" : "resident_master",
          slots_total: { merge_wal: e.slots, compact: e.slots },
          bytes_total: e.bytes,
          draining: e.draining,
        }),
      ]),
    );
    return fleet(
      {
        tables: Object.fromEntries(
          Object.entries(tables).map(([t, s]) => [
            t,
            demand(s.pending, NOW - s.ageSecs * 1000, { fragment_count: s.fragments }),
          ]),
        ),
        heartbeats,
        policies: Object.fromEntries(Object.entries(allowed).map(([t, a]) => [t, { executors_allowed: a }])),
        assignments: held.map((h, i) =>
          assignment(`held-${i}`, h.executor, {
            unit_id: `h${i}`,
            state: h.state,
            created_ms: NOW - h.agoMs,
            reserved_bytes: h.bytes,
          }),
        ),
      },
      { limits: { placementsPerExecutorPerMin: rate, maxPlacementsPerCycle: cycle } },
    );
  });

describe("placing and explaining ask the same question", () => {
  it("no-fit counts add up to the executors considered, and every placement passes rowRejection", () => {
    const seen = { placed: 0, noFit: 0, stages: new Set<string>() };
    fc.assert(
      fc.property(fleetArb, (f) => {
        const plan = planFleet(f, NOW);
        const limits = { ...DEFAULT_PLANNER_LIMITS, ...f.limits };
        // replay the plan's headroom: §6.2 step 3 (no shadow rows), reservations in planner order
        const rows = foldHeadroom(
          [...f.heartbeats].map(([id, hb]) => ({ id, heartbeat: hb })),
          f.assignments,
          { countShadow: false },
        );
        const recent = new Map(indexFleet(f, NOW).recentPlacements);
        const checkOf = (kind: TaskKind, t: (typeof plan.tables)[number]): ExecutorCheck => ({
          kind,
          bytes:
            kind === "merge_wal"
              ? expectedMergeBytes({ localBudgetBytes: limits.localMemoryBytes, appendMaxBytes: limits.appendMaxBytes })
              : limits.maintenanceBytes,
          policy: t.policy.effective,
          recent,
          ratePerMin: limits.placementsPerExecutorPerMin,
        });
        for (const t of plan.tables) {
          if (t.verdict.state === "would_place") {
            const check = checkOf(t.verdict.kind as TaskKind, t);
            const row = rows.find((r) => r.executor === (t.verdict as { executor: string }).executor)!;
            expect(rowRejection(row, check)).toBeNull();
            seen.placed++;
            reserve(row, { [check.kind]: 1 }, check.bytes);
            recent.set(row.executor, (recent.get(row.executor) ?? 0) + 1);
            continue;
          }
          const noFit = t.why_not.find((w) => NO_FIT.has(w.code));
          if (!noFit) continue;
          const detail = noFit.detail as { considered: number; counts: Record<string, number>; kind?: TaskKind };
          expect(detail.considered).toBe(rows.length);
          expect(Object.values(detail.counts).reduce((a, b) => a + b, 0)).toBe(rows.length);
          if (rows.length === 0) continue;
          const check = checkOf(detail.kind!, t);
          const tally: Partial<Record<Stage, number>> = {};
          for (const row of rows) {
            const stage = rowRejection(row, check);
            expect(stage).not.toBeNull(); // "no executor fits" is true of every row
            tally[stage!] = (tally[stage!] ?? 0) + 1;
          }
          expect(detail.counts).toEqual(tally);
          seen.noFit++;
          for (const s of Object.keys(tally)) seen.stages.add(s);
        }
      }),
      { numRuns: 300 },
    );
    // the fleets reach both answers and every stage
    expect(seen.placed).toBeGreaterThan(100);
    expect(seen.noFit).toBeGreaterThan(100);
    expect([...seen.stages].sort()).toEqual([
      "draining",
      "executor_not_allowed",
      "insufficient_bytes",
      "no_free_slot",
      "orphan",
      "rate_limited",
    ]);
  });
});
