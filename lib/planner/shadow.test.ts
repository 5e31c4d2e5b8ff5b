import { describe, expect, it } from "vitest";
import type { Assignment, Heartbeat, TaskRecord } from "@/lib/schema";
import { chunkOps } from "@/lib/schema/txn-chunks";
import { compareShadow, mergeTaskTargets, shadowPass, type Scored } from "./index";

const unit = (target: string, class_rank: 1 | 3 | 5): Scored => ({
  target,
  class: class_rank === 1 ? "critical" : class_rank === 3 ? "normal" : "tail",
  class_rank,
  reason: "merge_score_due",
  score: 6 - class_rank,
  pending_generations: 10,
  pending_bytes: 0,
  oldest_pending_ms: null,
  wait_ms: 0,
  wait_exact_ms: null,
  wait_floor_ms: null,
  by_gens: 1,
  by_bytes: 0,
  age_boost: 1,
  shards: 1,
});
const task = (target: string, kind: TaskRecord["kind"]): TaskRecord => ({
  id: target,
  kind,
  target,
  state: "queued",
  enqueued_at: 0,
  depends_on: [],
});

describe("shadow comparison (§6.2)", () => {
  it("five outcomes, phantom tasks and disagreements", () => {
    const scored = [unit("queued", 1), unit("run", 3), unit("miss", 3), unit("tail-queued", 5), unit("tail-free", 5)];
    const queued = mergeTaskTargets([
      task("queued", "merge_wal"),
      task("tail-queued", "merge_wal"),
      task("ghost-q", "merge_wal"),
      task("miss", "compact"),
    ]);
    const running = mergeTaskTargets([task("run", "merge_wal"), task("ghost-r", "merge_wal")]);
    const c = compareShadow(scored, new Set(["run", "miss"]), { queued, running })!;
    expect(c.counts).toEqual({ running: 1, queued_only: 1, discovery_miss: 1, placement_gap: 1, phantom_task: 2 });
    expect(c.targets).toEqual({
      running: ["run"],
      queued_only: ["queued"],
      discovery_miss: ["miss"],
      placement_gap: ["queued"],
      phantom_task: ["ghost-q", "ghost-r"],
    });
    expect(c.disagreements).toBe(3);
  });
  it("a failed task read records nothing", () => {
    expect(compareShadow([unit("a", 3)], new Set(), null)).toBeNull();
  });
});

describe("shadow pass (§6.2 steps 1–4)", () => {
  const hb: Heartbeat = {
    v: 1,
    kind: "resident_master",
    instance: "m1",
    version: "1",
    kinds: ["merge_wal"],
    slots_total: { merge_wal: 2 },
    bytes_total: 0,
    bytes_free_sample: 0,
    draining: false,
    heartbeat_ms: 1,
  };
  const a = (key: string, state: Assignment["state"]) => ({
    key,
    assignment: {
      v: 1,
      unit_id: key,
      kind: "merge_wal",
      target: "x",
      needs_write_turn: true,
      executor: "m1",
      planner_token: "old",
      reserved_slots: { merge_wal: 1 },
      reserved_bytes: 5,
      state,
      created_ms: 0,
      bind_deadline_ms: 30_000,
    } satisfies Assignment,
  });
  it("replaces shadow rows wholesale and counts only non-shadow reservations", () => {
    const pass = shadowPass({
      scored: [unit("b", 3), unit("a", 1), unit("t", 5)],
      heartbeats: [{ id: "m1", heartbeat: hb }],
      assignments: [
        a("/p/assignments/78/s1", "shadow"),
        a("/p/assignments/78/s2", "shadow"),
        a("/p/assignments/78/b1", "bound"),
      ],
      now: 50,
      plannerToken: "tok",
    });
    expect(pass.ordered.map((s) => s.target)).toEqual(["a", "b", "t"]);
    expect(pass.units).toEqual({ critical: 1, normal: 1, tail: 1 });
    expect(pass.deletes).toEqual(["/p/assignments/78/s1", "/p/assignments/78/s2"]);
    // one merge slot left after the bound assignment: "a" placed, "b" unplaceable
    expect(pass.placements.map((p) => p.unit.target)).toEqual(["a"]);
    expect(pass.unplaceable.map((u) => u.target)).toEqual(["b"]);
    expect(pass.rows[0]).toMatchObject({ assignments: 2, slots_reserved: { merge_wal: 2 } });
  });
});

describe("T20 chunk_ops_respects_both_count_and_bytes", () => {
  const op = (bytes: number, i: number) => ({
    type: "put" as const,
    key: `k${String(i).padStart(3, "0")}`,
    value: "x".repeat(bytes - 4 - 32),
  });
  it("300 ops × 100 B → [100,100,100]", () => {
    const ops = Array.from({ length: 300 }, (_, i) => op(100, i));
    expect(chunkOps(ops).map((c) => c.length)).toEqual([100, 100, 100]);
  });
  it("20 ops × 102,400 B → [7,7,6]", () => {
    const ops = Array.from({ length: 20 }, (_, i) => ({
      type: "put" as const,
      key: `k${i}`,
      value: "x".repeat(102_400),
    }));
    const chunks = chunkOps(ops);
    expect(chunks.map((c) => c.length)).toEqual([7, 7, 6]);
    expect(chunks.flat()).toHaveLength(20);
  });
  it("[2 × 786,432 B, 10 B] → [[0],[1]]; deletes cost key + 32", () => {
    const ops = [
      { type: "put" as const, key: "a", value: "x".repeat(2 * 786_432) },
      { type: "put" as const, key: "b", value: "x".repeat(10) },
    ];
    expect(chunkOps(ops).map((c) => c.map((o) => ops.indexOf(o)))).toEqual([[0], [1]]);
    const deletes = Array.from({ length: 101 }, (_, i) => ({ type: "delete" as const, key: `d${i}` }));
    expect(chunkOps(deletes).map((c) => c.length)).toEqual([100, 1]);
  });
});
