// The planner's input from a snapshot: write-turn progress from the sequence clock and the
// revision clock (bounds, never progress by themselves), and the task history.
import { describe, expect, it } from "vitest";
import { buildSnapshot } from "@/lib/snapshot/build";
import type { FamilyName, SnapshotKv } from "@/lib/snapshot/types";
import { hex } from "@/lib/schema/keys";
import { executionProgress, plannerFleet, taskHistory } from "./planner-input";

const P = "/p";
const kv = (key: string, value: unknown, modRevision: number): SnapshotKv => ({ key, value: Buffer.from(JSON.stringify(value)), modRevision, lease: "0" });
const clock = (id: string, sequence: number, at: number) => new Map([[id, { execution_id: id, sequence, changed_at_ms: at }]]);
let n = 0;
const id = () => `exec-${++n}`;

describe("executionProgress", () => {
  it("advancing only once the sequence rose above the one first seen; the clock speaks only for its own sequence", () => {
    const e = id();
    const first = executionProgress({ executionId: e, sequence: 5, progressRevision: 10, executionRevision: 3 }, clock(e, 5, 1000), 2000);
    expect(first).toEqual({ sequence: 5, last_progress_ms: 1000, advanced: false });
    const later = executionProgress({ executionId: e, sequence: 6, progressRevision: 11, executionRevision: 3 }, clock(e, 6, 5000), 9000);
    expect(later).toEqual({ sequence: 6, last_progress_ms: 5000, advanced: true });
    const stale = executionProgress({ executionId: e, sequence: 7, progressRevision: 12, executionRevision: 3 }, clock(e, 6, 5000), 9000);
    expect(stale).toEqual({ sequence: 7, last_progress_ms: null, advanced: false });
  });

  it("a revision clock tightens the bound (the earlier time wins) but never makes it progress", () => {
    const e = id();
    const time = (r: number) => (r === 10 ? 400 : r === 3 ? 100 : null);
    expect(executionProgress({ executionId: e, sequence: 5, progressRevision: 10, executionRevision: 3 }, clock(e, 5, 1000), 2000, time)).toEqual({ sequence: 5, last_progress_ms: 400, advanced: false });
    expect(executionProgress({ executionId: e, sequence: 5, progressRevision: 10, executionRevision: 3 }, new Map(), 2000, time)).toEqual({ sequence: 5, last_progress_ms: 400, advanced: false });
  });

  it("no progress record: no progress since this process first saw the execution (or its record was written)", () => {
    const e = id();
    expect(executionProgress({ executionId: e, sequence: null, progressRevision: null, executionRevision: 3 }, new Map(), 7000)).toEqual({ sequence: null, last_progress_ms: 7000, advanced: false });
    expect(executionProgress({ executionId: e, sequence: null, progressRevision: null, executionRevision: 3 }, new Map(), 9000)).toEqual({ sequence: null, last_progress_ms: 7000, advanced: false });
    expect(executionProgress({ executionId: e, sequence: null, progressRevision: null, executionRevision: 3 }, new Map(), 9000, () => 50)).toMatchObject({ last_progress_ms: 50 });
  });
});

describe("plannerFleet", () => {
  it("fills each execution's fence progress and the task history (tasks/ records, plus older still-active copies)", () => {
    const target = "t";
    const task = (tid: string, state: string, extra = {}) => ({ id: tid, kind: "merge_wal", target, state, enqueued_at: 1, ...extra });
    const families = new Map<FamilyName, SnapshotKv[]>([
      ["merge-executions", [kv(`${P}/merge-executions/${hex(target)}`, { id: "ex", target, endpoint: "http://w", phase: "running" }, 4)]],
      ["merge-progress", [kv(`${P}/merge-progress/ex`, { sequence: 3 }, 6)]],
      ["tasks", [kv(`${P}/tasks/a`, task("a", "done", { started_at: 10, finished_at: 20 }), 7), kv(`${P}/tasks/b`, task("b", "running", { started_at: 30 }), 8)]],
      ["running", [kv(`${P}/running/b`, task("b", "running", { started_at: 30 }), 8), kv(`${P}/running/old`, task("old", "running", { started_at: 5 }), 2)]],
    ]);
    const snapshot = buildSnapshot(P, 9, families, { readAtMs: 5000 });
    const fleet = plannerFleet(snapshot, new Map(), clock("ex", 3, 4000), (r) => (r === 6 ? 3500 : null));
    expect(fleet.fences.get(target)!.progress).toEqual({ sequence: 3, last_progress_ms: 3500, advanced: false });
    expect(taskHistory(snapshot).map((t) => [t.id, t.state])).toEqual([["a", "done"], ["b", "running"], ["old", "running"]]);
    expect(fleet.history).toHaveLength(3);
  });

  it("hands out the same objects for unchanged families and cache-only tables (a re-plan compares them by identity)", () => {
    const target = "cache-only";
    const families = new Map<FamilyName, SnapshotKv[]>([
      ["executors", [kv(`${P}/executors/e1`, { v: 1, kind: "worker", instance: "i", version: "1", kinds: ["merge_wal"], slots_total: { merge_wal: 1 }, bytes_total: 0, bytes_free_sample: 0, draining: false, heartbeat_ms: 1 }, 2)]],
      ["demand", [kv(`${P}/demand/${hex(target)}`, { v: 1, shards: {}, observed_revision: 1, updated_ms: 1 }, 3)]],
    ]);
    const snapshot = buildSnapshot(P, 9, families, { readAtMs: 5000 });
    const a = plannerFleet(snapshot, new Map());
    const b = plannerFleet({ ...snapshot, revision: 10, assignments: [] }, new Map());
    expect(a.tables.get(target)).toBeDefined();
    expect(b.tables.get(target)).toBe(a.tables.get(target));
    expect(b.heartbeats).toBe(a.heartbeats);
    expect(b.policies).toBe(a.policies);
    expect(b.tasks.queued).toBe(a.tasks.queued);
    expect(b.history).toBe(a.history);
    expect(b.assignments).not.toBe(a.assignments); // a changed family is derived again
  });
});
