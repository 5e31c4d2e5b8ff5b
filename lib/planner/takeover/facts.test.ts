import { describe, expect, it } from "vitest";
import type { TaskRecord } from "@/lib/schema/tasks";
import { implications, loadFacts, nearestRank, taskFacts } from "./facts";

const task = (
  kind: TaskRecord["kind"],
  state: TaskRecord["state"],
  started: number | null,
  finished: number | null,
): TaskRecord => ({
  id: `t-${kind}-${started}-${finished}`,
  kind,
  target: "t",
  state,
  enqueued_at: 0,
  started_at: started,
  finished_at: finished,
  depends_on: [],
});

describe("fleet facts (nearest-rank)", () => {
  it("takes the ⌈p·n⌉-th value", () => {
    const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([nearestRank(ten, 50), nearestRank(ten, 90), nearestRank(ten, 99), nearestRank(ten, 1)]).toEqual([
      5, 9, 10, 1,
    ]);
    expect(nearestRank([], 50)).toBeNull();
    expect(nearestRank([7], 99)).toBe(7);
  });

  it("counts tasks finished in the window only, per kind", () => {
    const tasks = [
      ...[10, 20, 30, 40].map((s) => task("merge_wal", "done", 1000, 1000 + s * 1000)),
      task("merge_wal", "failed", 1000, 3000),
      task("merge_wal", "done", 0, 100), // finished before the window
      task("compact", "done", null, 5000), // no start: counted finished, not timed
      task("compact", "running", 2000, null),
    ];
    const facts = taskFacts(tasks, 500, 100_000);
    expect(facts.task_seconds).toEqual({ merge_wal: { count: 5, p50: 20, p90: 40, p99: 40 } });
    expect(facts.task_failure_share).toEqual({ compact: 0, merge_wal: 0.2 });
  });

  it("answers the load questions and their implications", () => {
    const load = loadFacts([
      { pending_generations: 0, pending_bytes: 0 },
      { pending_generations: 4, pending_bytes: 400 },
      { pending_generations: 10, pending_bytes: 5000 },
      { pending_generations: 300, pending_bytes: 3000 },
    ]);
    expect(load.tables).toBe(4);
    expect(load.hot_share).toBe(0.75);
    expect(load.generation_bytes).toEqual({ p50: 100, p90: 500, p99: 500, count: 3, max: 500 });
    expect(implications(load.pending_generations, 500, 42.5)).toEqual({
      critical_generations: 300,
      max_turn_wait_secs: 425,
      expected_bytes: 134_217_728,
    });
    expect(implications([], null, null)).toEqual({
      critical_generations: null,
      max_turn_wait_secs: null,
      expected_bytes: null,
    });
  });
});
