import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { TableDemand } from "@/lib/schema/demand";
import type { PolicyDocument } from "@/lib/schema/policy";
import { planFleet } from "./full-plan";
import type { PlannerFence, PlannerFleet } from "./input";
import { classReasonSchema, whyNotCodeSchema } from "@/lib/schema/api/common";
import { NOW, GiB, assignment, demand, fleet, heartbeat } from "./__fixtures__/fleet";

const targets = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];

const tableArb = fc.record({
  pending: fc.integer({ min: 0, max: 400 }),
  ageSecs: fc.integer({ min: 0, max: 8000 }),
  fragments: fc.constantFrom(0, 0, 8, 40),
  stale: fc.boolean(),
  missing: fc.constantFrom(false, false, false, true),
});
const policyArb: fc.Arbitrary<PolicyDocument> = fc.record(
  {
    mode: fc.constantFrom("legacy", "planner", "frozen", "drain" as const),
    kinds_allowed: fc.shuffledSubarray(["MergeWal", "Compact", "IndexId", "Repair", "Retire"] as const, {
      minLength: 1,
    }),
    executors_allowed: fc.shuffledSubarray(["resident", "worker", "catchup_job"] as const, { minLength: 1 }),
    merge: fc.record({ min_generations: fc.integer({ min: 1, max: 64 }) }),
  },
  { requiredKeys: [] },
);
const fenceArb: fc.Arbitrary<PlannerFence> = fc.record(
  {
    mergeClaim: fc.constant("claim"),
    preparation: fc.constantFrom("p1", "p2"),
    commitReady: fc.constant("p1"),
    activeTaskClaimed: fc.boolean(),
  },
  { requiredKeys: [] },
);

const fleetArb = fc
  .record({
    tables: fc.dictionary(fc.constantFrom(...targets), tableArb),
    policies: fc.dictionary(fc.constantFrom(...targets), policyArb, { maxKeys: 3 }),
    defaultPolicy: fc.option(policyArb, { nil: null }),
    fences: fc.dictionary(fc.constantFrom(...targets), fenceArb, { maxKeys: 3 }),
    executors: fc.dictionary(
      fc.constantFrom("e1", "e2", "e3", "w1"),
      fc.record({
        slots: fc.integer({ min: 0, max: 3 }),
        bytes: fc.constantFrom(0, GiB, 3 * GiB),
        draining: fc.boolean(),
        worker: fc.boolean(),
      }),
    ),
    recent: fc.array(
      fc.record({
        executor: fc.constantFrom("e1", "e2", "w1", "ghost"),
        agoMs: fc.integer({ min: 0, max: 120_000 }),
        state: fc.constantFrom("assigned", "bound", "released" as const),
      }),
      { maxLength: 10 },
    ),
    cooling: fc.subarray(targets),
    failing: fc.subarray(targets),
  })
  .map(({ tables, policies, defaultPolicy, fences, executors, recent, cooling, failing }): PlannerFleet => {
    const demandMap: Record<string, TableDemand> = {};
    for (const [t, s] of Object.entries(tables)) {
      demandMap[t] = demand(s.pending, NOW - s.ageSecs * 1000, {
        fragment_count: s.fragments,
        index_stale: s.stale,
        uncovered_fragments: s.stale ? 20 : 0,
        missing_fragments: s.missing,
      });
    }
    const heartbeats = Object.fromEntries(
      Object.entries(executors).map(([id, e]) => [
        id,
        heartbeat({
          kind: e.worker ? "worker" : "resident_master",
          slots_total: { merge_wal: e.slots, compact: e.slots, index_id: e.slots, repair: e.slots },
          bytes_total: e.bytes,
          draining: e.draining,
        }),
      ]),
    );
    const assignments = recent.map((r, i) =>
      assignment(targets[i % targets.length], r.executor, {
        unit_id: `r${i}`,
        state: r.state,
        created_ms: NOW - r.agoMs,
      }),
    );
    return fleet(
      { tables: demandMap, heartbeats, assignments, policies, defaultPolicy, fences },
      {
        cooldowns: cooling.map((t) => ({
          kind: "compact" as const,
          target: t,
          failures: 3,
          until_ms: NOW + 1000,
          last_error: "x",
        })),
        failures: failing.map((t) => ({
          target: t,
          endpoint: "http://w",
          consecutive_attempts: 1,
          class: "retryable" as const,
          last_error: "x",
          last_failure_ms: NOW,
          next_retry_ms: NOW + 2000,
          needs_attention: false,
        })),
      },
    );
  });

describe("planFleet invariants over random fleets", () => {
  it("verdicts agree with why_not, codes fit the answer schemas, limits hold, output is JSON-safe and input-order independent", () => {
    fc.assert(
      fc.property(fleetArb, (f) => {
        const plan = planFleet(f, NOW);
        expect(plan.tables).toHaveLength(f.tables.size);
        for (const t of plan.tables) {
          if (t.verdict.state === "would_place") expect(t.why_not).toEqual([]);
          else {
            expect(t.why_not.length).toBeGreaterThan(0);
            expect(t.why_not.map((w) => w.code)).toContain(t.verdict.code);
          }
          // every code the planner emits is in the answer schemas' enums (lib/schema/codes.ts)
          expect(classReasonSchema.safeParse(t.reason).success).toBe(true);
          for (const u of t.units) expect(classReasonSchema.safeParse(u.reason).success).toBe(true);
          if (t.verdict.state === "would_skip") expect(whyNotCodeSchema.safeParse(t.verdict.code).success).toBe(true);
          for (const w of [...t.why_not, ...t.passed_over])
            expect(whyNotCodeSchema.safeParse(w.code).success).toBe(true);
        }
        expect(plan.placements.length).toBeLessThanOrEqual(8);
        const placedOn = new Map<string, number>();
        for (const p of plan.placements) placedOn.set(p.executor, (placedOn.get(p.executor) ?? 0) + 1);
        for (const [executor, n] of placedOn) {
          const recent = f.assignments.filter((a) => a.executor === executor && a.created_ms > NOW - 60_000).length;
          expect(recent + n).toBeLessThanOrEqual(6);
        }
        const placed = plan.tables
          .filter((t) => t.verdict.state === "would_place")
          .map((t) => t.target)
          .sort();
        expect(placed).toEqual(plan.placements.map((p) => p.target).sort());
        expect(JSON.parse(JSON.stringify(plan.tables))).toEqual(plan.tables);
        expect(Object.values(plan.counts.by_class).reduce((a, b) => a + b, 0)).toBe(plan.total_tables);

        const reversed: PlannerFleet = {
          ...f,
          tables: new Map([...f.tables].reverse()),
          heartbeats: new Map([...f.heartbeats].reverse()),
          assignments: [...f.assignments].reverse(),
        };
        const again = planFleet(reversed, NOW);
        expect(again.tables).toEqual(plan.tables);
        expect(again.placements).toEqual(plan.placements);
      }),
      { numRuns: 200 },
    );
  });
});
