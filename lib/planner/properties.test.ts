// Property tests (§3.7): fold order independence + idempotency, rebuild = direct fold,
// headroom order independence, planner order total and stable.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Assignment, DemandEvent, Heartbeat } from "@/lib/schema";
import { comparePlannerOrder, deriveTable, foldHeadroom, sortPlannerOrder, type Scored } from "./index";
import { content, eventArb, foldAll, rebuild } from "./__fixtures__/demand";

const streamArb = fc.array(eventArb, { minLength: 1, maxLength: 25 });

describe("demand fold properties", () => {
  it("order-independent and idempotent over any permutation with duplication", () => {
    fc.assert(
      fc.property(
        streamArb.chain((events) =>
          fc.tuple(
            fc.constant(events),
            fc.shuffledSubarray([...events, ...events], { minLength: 2 * events.length, maxLength: 2 * events.length }),
          ),
        ),
        ([events, shuffledDoubled]) => {
          expect(content(foldAll(shuffledDoubled))).toEqual(content(foldAll(events)));
        },
      ),
      { numRuns: 300 },
    );
  });
  it("rebuild (join per shard, then fold the stored records) equals the direct fold, incl. the age clock", () => {
    fc.assert(
      fc.property(streamArb, (events) => {
        const direct = foldAll(events);
        const rebuilt = rebuild(events);
        expect(content(rebuilt)).toEqual(content(direct));
        expect(deriveTable(rebuilt)).toEqual(deriveTable(direct));
      }),
      { numRuns: 300 },
    );
  });
});

describe("join note: bytes of a lower-mark event", () => {
  it("§3.5 keeps neither mark nor time, so its larger bytes are dropped (the fold keeps them)", () => {
    // a scan saw sealed 10 under epoch 2 (bytes 0); a writer event for 10 under epoch 1,
    // flushed later than the scan's time, arrives with bytes
    const scan: DemandEvent = {
      v: 1,
      shard: "s",
      sealed_through: 10,
      sealed_bytes_through: 0,
      merged_through: null,
      flushed_at_ms: 5,
      writer_epoch: 2,
      source: "scan",
    };
    const writer: DemandEvent = {
      ...scan,
      sealed_bytes_through: 10_000,
      flushed_at_ms: 9,
      writer_epoch: 1,
      source: "writer",
    };
    expect(foldAll([scan, writer]).shards.s.sealed_bytes).toBe(10_000);
    expect(rebuild([scan, writer]).shards.s.sealed_bytes).toBe(0);
  });
});

const slotsArb = fc.record({ merge_wal: fc.nat({ max: 4 }), compact: fc.nat({ max: 2 }) }, { requiredKeys: [] });
const heartbeatArb = (id: string): fc.Arbitrary<{ id: string; heartbeat: Heartbeat }> =>
  fc.record({ draining: fc.boolean(), slots: slotsArb, bytes: fc.constantFrom(0, 2 ** 31, 2 ** 33) }).map((r) => ({
    id,
    heartbeat: {
      v: 1,
      kind: "resident_master",
      instance: id,
      version: "1",
      kinds: ["merge_wal"],
      slots_total: r.slots,
      bytes_total: r.bytes,
      bytes_free_sample: 123,
      draining: r.draining,
      heartbeat_ms: 1,
    },
  }));
const assignmentArb: fc.Arbitrary<Assignment> = fc
  .record({
    executor: fc.constantFrom("e1", "e2", "e3", "ghost"),
    state: fc.constantFrom("shadow", "assigned", "bound", "released") as fc.Arbitrary<Assignment["state"]>,
    bytes: fc.nat({ max: 2 ** 32 }),
    slots: slotsArb,
  })
  .map((r) => ({
    v: 1,
    unit_id: "u",
    kind: "merge_wal",
    target: "t",
    needs_write_turn: true,
    executor: r.executor,
    planner_token: "x",
    reserved_slots: r.slots,
    reserved_bytes: r.bytes,
    state: r.state,
    created_ms: 0,
    bind_deadline_ms: 30_000,
  }));

describe("headroom fold", () => {
  it("is order-independent", () => {
    fc.assert(
      fc.property(
        fc.tuple(heartbeatArb("e1"), heartbeatArb("e2")),
        fc.array(assignmentArb, { maxLength: 12 }),
        fc.boolean(),
        (hbs, assignments, countShadow) => {
          const a = foldHeadroom(hbs, assignments, { countShadow });
          const b = foldHeadroom([...hbs].reverse(), [...assignments].reverse(), { countShadow });
          expect(b).toEqual(a);
        },
      ),
    );
  });
});

const scoredArb: fc.Arbitrary<Scored[]> = fc
  .uniqueArray(fc.string({ unit: "grapheme", maxLength: 4 }), { minLength: 1, maxLength: 30 })
  .chain((targets) =>
    fc.tuple(
      ...targets.map((target) =>
        fc
          .record({
            rank: fc.constantFrom(1, 3, 5),
            wait: fc.option(fc.nat({ max: 5 }), { nil: null }),
            score: fc.oneof(fc.double({ min: 0, max: 4, noNaN: true }), fc.constantFrom(0.5, 1, 2)),
          })
          .map((r): Scored => ({
            target,
            class: r.rank === 1 ? "critical" : r.rank === 3 ? "normal" : "tail",
            class_rank: r.rank,
            reason: "merge_score_due",
            score: r.score,
            pending_generations: 1,
            pending_bytes: 0,
            oldest_pending_ms: null,
            wait_ms: r.wait,
            wait_exact_ms: null,
            wait_floor_ms: null,
            by_gens: 1,
            by_bytes: 0,
            age_boost: 1,
            shards: 1,
          })),
      ),
    ),
  );

describe("planner order", () => {
  it("is a total order (antisymmetric, transitive) and stable under input order", () => {
    fc.assert(
      fc.property(scoredArb, fc.integer(), (items, seed) => {
        const sorted = sortPlannerOrder(items);
        // a different input order sorts to the same sequence
        const shuffled = [...items].sort(
          (x, y) => ((x.target.length * 31 + seed) % 7) - ((y.target.length * 31 + seed) % 7),
        );
        expect(sortPlannerOrder(shuffled).map((s) => s.target)).toEqual(sorted.map((s) => s.target));
        for (const a of items) {
          expect(comparePlannerOrder(a, a)).toBe(0);
          for (const b of items) {
            expect(Math.sign(comparePlannerOrder(a, b)) + Math.sign(comparePlannerOrder(b, a))).toBe(0);
            if (a !== b) expect(comparePlannerOrder(a, b)).not.toBe(0);
          }
        }
        for (let i = 0; i + 1 < sorted.length; i++)
          expect(comparePlannerOrder(sorted[i], sorted[i + 1])).toBeLessThan(0);
      }),
      { numRuns: 200 },
    );
  });
});
