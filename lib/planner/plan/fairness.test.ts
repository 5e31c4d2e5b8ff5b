import { describe, expect, it } from "vitest";
import { BUILTIN_POLICY } from "@/lib/schema/policy";
import type { TaskRecord } from "@/lib/schema/tasks";
import { applyTurnLimit, consecutiveRun, turnHistoryFromTasks } from "./fairness";
import { waitPromotes, type PlanUnit } from "./units";

const u = (kind: PlanUnit["kind"], rank: number): PlanUnit => ({
  kind,
  class_rank: rank,
  class: "critical",
  score: 1,
  reason: "merge_score_due",
  wait_ms: null,
});
const task = (id: string, kind: TaskRecord["kind"], target: string, started: number | null): TaskRecord => ({
  id,
  kind,
  target,
  state: "done",
  enqueued_at: 0,
  started_at: started,
  depends_on: [],
});

describe("fairness helpers", () => {
  it("counts the trailing run of one kind", () => {
    expect(consecutiveRun(undefined)).toBeNull();
    expect(
      consecutiveRun({
        turns: [
          { kind: "compact", at_ms: 1 },
          { kind: "merge_wal", at_ms: 2 },
          { kind: "merge_wal", at_ms: 3 },
        ],
      }),
    ).toEqual({ kind: "merge_wal", count: 2 });
  });

  it("yields only to another kind with a pending (non-tail) request", () => {
    const history = {
      turns: [
        { kind: "merge_wal" as const, at_ms: 1 },
        { kind: "merge_wal" as const, at_ms: 2 },
      ],
    };
    expect(applyTurnLimit([u("merge_wal", 1), u("compact", 4)], history, BUILTIN_POLICY).yielded).toEqual({
      kind: "merge_wal",
      count: 2,
      limit: 2,
      to: "compact",
    });
    expect(applyTurnLimit([u("merge_wal", 1), u("retire", 5)], history, BUILTIN_POLICY).yielded).toBeNull();
    expect(
      applyTurnLimit([u("merge_wal", 1), u("compact", 4)], { turns: history.turns.slice(1) }, BUILTIN_POLICY).yielded,
    ).toBeNull();
    // compaction has no consecutive-turn bound by default
    const compacts = {
      turns: [
        { kind: "compact" as const, at_ms: 1 },
        { kind: "compact" as const, at_ms: 2 },
        { kind: "compact" as const, at_ms: 3 },
      ],
    };
    expect(applyTurnLimit([u("compact", 2), u("merge_wal", 3)], compacts, BUILTIN_POLICY).yielded).toBeNull();
  });

  it("promotes by max_turn_wait_secs per kind (compact 900 s, repair never by default)", () => {
    expect(waitPromotes(899_999, "compact", BUILTIN_POLICY)).toBe(false);
    expect(waitPromotes(900_000, "compact", BUILTIN_POLICY)).toBe(true);
    expect(waitPromotes(10 ** 9, "repair", BUILTIN_POLICY)).toBe(false);
    expect(waitPromotes(null, "compact", BUILTIN_POLICY)).toBe(false);
  });

  it("builds write-turn history from started legacy tasks, oldest first", () => {
    const h = turnHistoryFromTasks([
      task("b", "compact", "t", 20),
      task("a", "merge_wal", "t", 10),
      task("c", "merge_wal", "u", null),
      task("d", "merge_wal", "t", 30),
    ]);
    expect(h.get("t")!.turns.map((x) => x.kind)).toEqual(["merge_wal", "compact", "merge_wal"]);
    expect(h.has("u")).toBe(false);
  });
});
