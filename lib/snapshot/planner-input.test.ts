// The planner's input from a snapshot: write-turn progress from the sequence clock and the
// revision clock (bounds, never progress by themselves), and the task history.
import { describe, expect, it } from "vitest";
import { buildSnapshot } from "@/lib/snapshot/build";
import type { FamilyName, SnapshotKv } from "@/lib/snapshot/types";
import { hex } from "@/lib/schema/keys";
import { executionProgress, plannerFleet, taskHistory, withFirstSeen } from "./planner-input";

const P = "/p";
const kv = (key: string, value: unknown, modRevision: number): SnapshotKv => ({
  key,
  value: Buffer.from(JSON.stringify(value)),
  modRevision,
  lease: "0",
});
const clock = (id: string, sequence: number, at: number) =>
  new Map([[id, { execution_id: id, sequence, changed_at_ms: at }]]);
const seen = (id: string, sequence: number | null, at_ms: number) => new Map([[id, { sequence, at_ms }]]);
const e = "exec-1";

describe("executionProgress", () => {
  it("advancing only once the sequence rose above the one first seen; the clock speaks only for its own sequence", () => {
    const first = executionProgress(
      { executionId: e, sequence: 5, progressRevision: 10, executionRevision: 3 },
      { sequenceClocks: clock(e, 5, 1000) },
      2000,
    );
    expect(first).toEqual({ sequence: 5, last_progress_ms: 1000, advanced: false });
    const later = executionProgress(
      { executionId: e, sequence: 6, progressRevision: 11, executionRevision: 3 },
      { sequenceClocks: clock(e, 6, 5000), firstSeen: seen(e, 5, 2000) },
      9000,
    );
    expect(later).toEqual({ sequence: 6, last_progress_ms: 5000, advanced: true });
    // nothing remembered: first seen at this read, with this sequence, so not advanced
    const unseen = executionProgress(
      { executionId: e, sequence: 6, progressRevision: 11, executionRevision: 3 },
      { sequenceClocks: clock(e, 6, 5000) },
      9000,
    );
    expect(unseen).toEqual({ sequence: 6, last_progress_ms: 5000, advanced: false });
    const stale = executionProgress(
      { executionId: e, sequence: 7, progressRevision: 12, executionRevision: 3 },
      { sequenceClocks: clock(e, 6, 5000), firstSeen: seen(e, 5, 2000) },
      9000,
    );
    expect(stale).toEqual({ sequence: 7, last_progress_ms: null, advanced: false });
  });

  it("a revision clock tightens the bound (the earlier time wins) but never makes it progress", () => {
    const time = (r: number) => (r === 10 ? 400 : r === 3 ? 100 : null);
    expect(
      executionProgress(
        { executionId: e, sequence: 5, progressRevision: 10, executionRevision: 3 },
        { sequenceClocks: clock(e, 5, 1000) },
        2000,
        time,
      ),
    ).toEqual({ sequence: 5, last_progress_ms: 400, advanced: false });
    expect(
      executionProgress({ executionId: e, sequence: 5, progressRevision: 10, executionRevision: 3 }, {}, 2000, time),
    ).toEqual({ sequence: 5, last_progress_ms: 400, advanced: false });
  });

  it("no progress record: no progress since this process first saw the execution (or its record was written)", () => {
    const sample = { executionId: e, sequence: null, progressRevision: null, executionRevision: 3 };
    expect(executionProgress(sample, {}, 7000)).toEqual({ sequence: null, last_progress_ms: 7000, advanced: false });
    expect(executionProgress(sample, { firstSeen: seen(e, null, 7000) }, 9000)).toEqual({
      sequence: null,
      last_progress_ms: 7000,
      advanced: false,
    });
    // first seen with a record that is gone now: no bound from the watch
    expect(executionProgress(sample, { firstSeen: seen(e, 4, 7000) }, 9000)).toEqual({
      sequence: null,
      last_progress_ms: null,
      advanced: false,
    });
    expect(executionProgress(sample, { firstSeen: seen(e, null, 7000) }, 9000, () => 50)).toMatchObject({
      last_progress_ms: 50,
    });
  });
});

describe("withFirstSeen", () => {
  it("adds the executions a snapshot shows for the first time, at its read time and sequence; else the same map", () => {
    const families = (sequence: number) =>
      new Map<FamilyName, SnapshotKv[]>([
        [
          "merge-executions",
          [
            kv(
              `${P}/merge-executions/${hex("a")}`,
              { id: "ea", target: "a", endpoint: "http://w", phase: "running" },
              2,
            ),
            kv(
              `${P}/merge-executions/${hex("b")}`,
              { id: "eb", target: "b", endpoint: "http://w", phase: "running" },
              3,
            ),
          ],
        ],
        ["merge-progress", [kv(`${P}/merge-progress/ea`, { sequence }, 4)]],
      ]);
    const first = withFirstSeen(new Map(), buildSnapshot(P, 4, families(2), { readAtMs: 1000 }));
    expect([...first]).toEqual([
      ["ea", { sequence: 2, at_ms: 1000 }],
      ["eb", { sequence: null, at_ms: 1000 }],
    ]);
    const later = buildSnapshot(P, 9, families(5), { readAtMs: 8000 });
    expect(withFirstSeen(first, later)).toBe(first);
  });
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
    const fleet = plannerFleet({ snapshot, tables: new Map(), sequenceClocks: clock("ex", 3, 4000) }, (r) =>
      r === 6 ? 3500 : null,
    );
    expect(fleet.fences.get(target)!.progress).toEqual({ sequence: 3, last_progress_ms: 3500, advanced: false });
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

  it("is a function of the view: whatever was planned before (an older pinned view, a history point), the same view gives the same input", () => {
    const target = "t";
    const families = (sequence: number | null) =>
      new Map<FamilyName, SnapshotKv[]>([
        [
          "merge-executions",
          [kv(`${P}/merge-executions/${hex(target)}`, { id: "ex", target, endpoint: "http://w", phase: "running" }, 4)],
        ],
        ["merge-progress", sequence === null ? [] : [kv(`${P}/merge-progress/ex`, { sequence }, 6)]],
      ]);
    const live = {
      snapshot: buildSnapshot(P, 9, families(7), { readAtMs: 9000 }),
      tables: new Map(),
      sequenceClocks: clock("ex", 7, 8500),
      firstSeen: seen("ex", 3, 2000),
    };
    const progressOf = () => plannerFleet(live).fences.get(target)!.progress;
    const alone = progressOf();
    expect(alone).toEqual({ sequence: 7, last_progress_ms: 8500, advanced: true });
    // an older revision planned first (no record yet, then a lower sequence), as a history request would
    plannerFleet({ snapshot: buildSnapshot(P, 3, families(null), { readAtMs: 100 }), tables: new Map() });
    plannerFleet({ snapshot: buildSnapshot(P, 5, families(1), { readAtMs: 200 }), tables: new Map() });
    expect(progressOf()).toEqual(alone);
    // and the same pinned view without memory plans alike every time, first or last
    const pinned = { snapshot: buildSnapshot(P, 5, families(1), { readAtMs: 200 }), tables: new Map() };
    const once = plannerFleet(pinned).fences.get(target)!.progress;
    plannerFleet(live);
    expect(plannerFleet(pinned).fences.get(target)!.progress).toEqual(once);
    expect(once).toEqual({ sequence: 1, last_progress_ms: null, advanced: false });
  });
});
