// The planner's input from a snapshot: each execution's write-turn progress as the view
// carries it (from etcd's history, lib/live/progress-history.ts), and the task history.
import { describe, expect, it } from "vitest";
import { buildSnapshot } from "@/lib/snapshot/build";
import type { FamilyName, SnapshotKv } from "@/lib/snapshot/types";
import { hex } from "@/lib/schema/keys";
import { plannerFleet, taskHistory } from "./planner-input";

const P = "/p";
const kv = (key: string, value: unknown, modRevision: number): SnapshotKv => ({
  key,
  value: Buffer.from(JSON.stringify(value)),
  modRevision,
  lease: "0",
});
describe("plannerFleet", () => {
  it("fills each execution's fence progress and the task history (tasks/ records, plus older still-active copies)", () => {
    const target = "t";
    const task = (tid: string, state: string, extra = {}) => ({
      id: tid,
      kind: "merge_wal",
      target,
      state,
      enqueued_at: 1,
      ...extra,
    });
    const families = new Map<FamilyName, SnapshotKv[]>([
      [
        "merge-executions",
        [kv(`${P}/merge-executions/${hex(target)}`, { id: "ex", target, endpoint: "http://w", phase: "running" }, 4)],
      ],
      ["merge-progress", [kv(`${P}/merge-progress/ex`, { sequence: 3 }, 6)]],
      [
        "tasks",
        [
          kv(`${P}/tasks/a`, task("a", "done", { started_at: 10, finished_at: 20 }), 7),
          kv(`${P}/tasks/b`, task("b", "running", { started_at: 30 }), 8),
        ],
      ],
      [
        "running",
        [
          kv(`${P}/running/b`, task("b", "running", { started_at: 30 }), 8),
          kv(`${P}/running/old`, task("old", "running", { started_at: 5 }), 2),
        ],
      ],
    ]);
    const snapshot = buildSnapshot(P, 9, families, { readAtMs: 5000 });
    const progress = {
      sequence: 3,
      last_progress_revision: 6,
      last_progress_ms: 3500,
      last_progress_bound: "exact" as const,
    };
    const fleet = plannerFleet({ snapshot, tables: new Map(), progress: new Map([["ex", progress]]) });
    expect(fleet.fences.get(target)!.progress).toBe(progress);
    // a view without it (a bench's bare read): the sequence, with no known date
    expect(plannerFleet({ snapshot, tables: new Map() }).fences.get(target)!.progress).toEqual({
      sequence: 3,
      last_progress_revision: null,
      last_progress_ms: null,
      last_progress_bound: "exact",
    });
    expect(taskHistory(snapshot).map((t) => [t.id, t.state])).toEqual([
      ["a", "done"],
      ["b", "running"],
      ["old", "running"],
    ]);
    expect(fleet.history).toHaveLength(3);
  });

  it("hands out the same objects for unchanged families and cache-only tables (a re-plan compares them by identity)", () => {
    const target = "cache-only";
    const families = new Map<FamilyName, SnapshotKv[]>([
      [
        "executors",
        [
          kv(
            `${P}/executors/e1`,
            {
              v: 1,
              kind: "worker",
              instance: "i",
              version: "1",
              kinds: ["merge_wal"],
              slots_total: { merge_wal: 1 },
              bytes_total: 0,
              bytes_free_sample: 0,
              draining: false,
              heartbeat_ms: 1,
            },
            2,
          ),
        ],
      ],
      ["demand", [kv(`${P}/demand/${hex(target)}`, { v: 1, shards: {}, observed_revision: 1, updated_ms: 1 }, 3)]],
    ]);
    const snapshot = buildSnapshot(P, 9, families, { readAtMs: 5000 });
    const a = plannerFleet({ snapshot, tables: new Map() });
    const b = plannerFleet({ snapshot: { ...snapshot, revision: 10, assignments: [] }, tables: new Map() });
    expect(a.tables.get(target)).toBeDefined();
    expect(b.tables.get(target)).toBe(a.tables.get(target));
    expect(b.heartbeats).toBe(a.heartbeats);
    expect(b.policies).toBe(a.policies);
    expect(b.tasks.queued).toBe(a.tasks.queued);
    expect(b.history).toBe(a.history);
    expect(b.assignments).not.toBe(a.assignments); // a changed family is derived again
  });
});
