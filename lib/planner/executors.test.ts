import { describe, expect, it } from "vitest";
import type { Assignment, Heartbeat } from "@/lib/schema";
import {
  bytesFree,
  expectedMergeBytes,
  fits,
  foldHeadroom,
  pickExecutor,
  place,
  reservationBasis,
  slotsFree,
  sortPlannerOrder,
  type Scored,
} from "./index";

const GiB = 1_073_741_824;
const hb = (over: Partial<Heartbeat> = {}): Heartbeat => ({
  v: 1,
  kind: "resident_master",
  instance: "x",
  version: "1",
  kinds: ["merge_wal", "compact"],
  slots_total: { merge_wal: 2, compact: 1 },
  bytes_total: 2 * GiB,
  bytes_free_sample: 2 * GiB,
  draining: false,
  heartbeat_ms: 1,
  ...over,
});
const asg = (executor: string, state: Assignment["state"], kind: Assignment["kind"], bytes: number): Assignment => ({
  v: 1,
  unit_id: `${executor}-${state}-${kind}`,
  kind,
  target: "t",
  needs_write_turn: kind === "merge_wal",
  executor,
  planner_token: "tok",
  reserved_slots: { [kind]: 1 },
  reserved_bytes: bytes,
  state,
  created_ms: 0,
  bind_deadline_ms: 30_000,
});

describe("T30 headroom_ignores_the_sample_and_counts_unbound_assignments", () => {
  const [e1] = foldHeadroom(
    [{ id: "e1", heartbeat: hb() }],
    [
      asg("e1", "assigned", "merge_wal", GiB),
      asg("e1", "shadow", "merge_wal", GiB),
      asg("e1", "released", "compact", 0),
    ],
  );
  it("reserved 2 GiB, free 0, merge free 0, compact free 1, 2 assignments", () => {
    expect(e1.bytes_reserved).toBe(2 * GiB);
    expect(bytesFree(e1)).toBe(0);
    expect(slotsFree(e1, "merge_wal")).toBe(0);
    expect(slotsFree(e1, "compact")).toBe(1);
    expect(e1.assignments).toBe(2);
  });
  it("fits(merge,1) false; fits(compact,0) true; fits(compact,1) false", () => {
    expect(fits(e1, "merge_wal", 1)).toBe(false);
    expect(fits(e1, "compact", 0)).toBe(true);
    expect(fits(e1, "compact", 1)).toBe(false);
  });
});

describe("T31 draining_and_unknown_budget_rules", () => {
  it("draining → fits(merge,0) false; bytes_total 0 → fits(merge, 2^64−1) true", () => {
    const [d] = foldHeadroom([{ id: "d", heartbeat: hb({ draining: true }) }], []);
    expect(fits(d, "merge_wal", 0)).toBe(false);
    const [u] = foldHeadroom([{ id: "u", heartbeat: hb({ bytes_total: 0 }) }], []);
    expect(fits(u, "merge_wal", 18_446_744_073_709_551_615)).toBe(true);
  });
});

describe("orphan rows (§5.2)", () => {
  it("an assignment without a heartbeat keeps its reservation on a draining orphan row", () => {
    const rows = foldHeadroom(
      [{ id: "e1", heartbeat: hb() }],
      [asg("gone", "bound", "merge_wal", GiB), asg("gone2", "released", "merge_wal", GiB)],
    );
    expect(rows.map((r) => r.executor)).toEqual(["e1", "gone"]);
    expect(rows[1]).toMatchObject({
      orphan: true,
      draining: true,
      kind: "resident_master",
      bytes_total: 0,
      bytes_reserved: GiB,
      assignments: 1,
    });
    expect(fits(rows[1], "merge_wal", 0)).toBe(false);
  });
  it("without shadow counting, shadow-only orphans still exist with zero reservations", () => {
    const rows = foldHeadroom([], [asg("gone", "shadow", "merge_wal", GiB)], { countShadow: false });
    expect(rows).toEqual([
      expect.objectContaining({ executor: "gone", orphan: true, bytes_reserved: 0, assignments: 0 }),
    ]);
  });
});

const unit = (target: string, class_rank: number, score: number, pending_bytes = 0): Scored => ({
  target,
  class: class_rank === 1 ? "critical" : class_rank === 3 ? "normal" : "tail",
  class_rank,
  reason: class_rank === 5 ? "below_threshold" : "merge_score_due",
  score,
  pending_generations: 10,
  pending_bytes,
  oldest_pending_ms: null,
  wait_ms: null,
  wait_exact_ms: null,
  wait_floor_ms: null,
  by_gens: 1,
  by_bytes: 0,
  age_boost: 1,
  shards: 1,
});

describe("placement (§5.3, §5.4)", () => {
  it("expected bytes is the whole local budget: 2,147,483,648 by default", () => {
    expect(expectedMergeBytes()).toBe(2_147_483_648);
    expect(expectedMergeBytes({ localBudgetBytes: 0, appendMaxBytes: 0 })).toBe(1);
    expect(expectedMergeBytes({ localBudgetBytes: 100, appendMaxBytes: 67_108_864 })).toBe(134_217_728);
    expect(reservationBasis({ pending_bytes: 0 })).toBe("no_size_data");
    expect(reservationBasis({ pending_bytes: 5 })).toBe("average_only");
  });
  it("picks the most free bytes; ties go to the greatest executor id", () => {
    const rows = foldHeadroom(
      [
        { id: "a", heartbeat: hb({ bytes_total: 0 }) },
        { id: "c", heartbeat: hb({ bytes_total: 0 }) },
        { id: "b", heartbeat: hb({ bytes_total: 0 }) },
      ],
      [],
    );
    expect(pickExecutor(rows, (r) => fits(r, "merge_wal", 2 * GiB))?.executor).toBe("c");
    const sized = foldHeadroom(
      [
        { id: "a", heartbeat: hb({ bytes_total: 8 * GiB }) },
        { id: "z", heartbeat: hb({ bytes_total: 4 * GiB }) },
      ],
      [],
    );
    expect(pickExecutor(sized, (r) => fits(r, "merge_wal", 2 * GiB))?.executor).toBe("a");
  });
  it("places in planner order, skips tails, reserves, and reports unplaceable units", () => {
    const rows = foldHeadroom(
      [
        { id: "m1", heartbeat: hb({ bytes_total: 0, slots_total: { merge_wal: 1 } }) },
        { id: "m2", heartbeat: hb({ bytes_total: 4 * GiB, slots_total: { merge_wal: 4 } }) },
        { id: "m3", heartbeat: hb({ draining: true }) },
      ],
      [],
    );
    const ordered = sortPlannerOrder([
      unit("tail", 5, 0.5),
      unit("n1", 3, 3),
      unit("c1", 1, 1),
      unit("n2", 3, 2),
      unit("n3", 3, 1),
    ]);
    const r = place(ordered, rows, { now: 1000, plannerToken: "tok" });
    // m2 has 4 GiB free first (2 placements of 2 GiB), then only m1 (bytes unknown) fits
    expect(r.placements.map((p) => [p.unit.target, p.executor])).toEqual([
      ["c1", "m2"],
      ["n1", "m2"],
      ["n2", "m1"],
    ]);
    expect(r.unplaceable.map((u) => u.target)).toEqual(["n3"]);
    expect(r.placements[0].assignment).toEqual({
      v: 1,
      unit_id: "shadow-1000-0",
      kind: "merge_wal",
      target: "c1",
      needs_write_turn: true,
      executor: "m2",
      planner_token: "tok",
      reserved_slots: { merge_wal: 1 },
      reserved_bytes: 2_147_483_648,
      state: "shadow",
      created_ms: 1000,
      bind_deadline_ms: 31_000,
    });
    expect(r.rows.find((x) => x.executor === "m2")).toMatchObject({
      bytes_reserved: 4 * GiB,
      slots_reserved: { merge_wal: 2 },
      assignments: 2,
    });
    expect(rows[1].bytes_reserved).toBe(0); // input rows untouched
  });
  it("every unit after the first unplaceable one is unplaceable too (one question for all)", () => {
    const rows = foldHeadroom([{ id: "m1", heartbeat: hb({ bytes_total: 0, slots_total: { merge_wal: 1 } }) }], []);
    const ordered = [unit("a", 3, 3), unit("b", 3, 2), unit("c", 1, 1)];
    const r = place(sortPlannerOrder(ordered), rows, { now: 0, plannerToken: "t" });
    expect(r.placements.map((p) => p.unit.target)).toEqual(["c"]);
    expect(r.unplaceable.map((u) => u.target)).toEqual(["a", "b"]);
  });
});
