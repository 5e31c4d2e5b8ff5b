// Minimal fleets for the design-planner tests.
import type { Assignment } from "@/lib/schema/assignments";
import type { Execution } from "@/lib/schema/executions";
import { emptyTableDemand, type TableDemand } from "@/lib/schema/demand";
import { SealedTimes } from "@/lib/schema/sealed-times";
import type { Heartbeat } from "@/lib/schema/executors";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { TaskRecord } from "@/lib/schema/tasks";
import type { PlannerFence, PlannerFleet } from "../input";

export const NOW = 10_000_000_000;
export const GiB = 1_073_741_824;

/** One shard with `pending` generations; the oldest pending one flushed at `oldestMs` (exact). */
export function demand(pending: number, oldestMs: number, extra: Partial<TableDemand> = {}): TableDemand {
  const times: Record<string, number> = {};
  for (let g = 1; g <= Math.min(pending, 64); g++) times[String(g)] = oldestMs + (g - 1);
  return {
    ...emptyTableDemand(),
    shards:
      pending > 0
        ? {
            s: {
              sealed: { epoch: 1, value: pending },
              merged: null,
              sealed_bytes: pending * 1_000_000,
              sealed_times: SealedTimes.fromRecord(times),
            },
          }
        : {},
    ...extra,
  };
}

export function heartbeat(extra: Partial<Heartbeat> = {}): Heartbeat {
  return {
    v: 1,
    kind: "resident_master",
    instance: "i",
    version: "1",
    kinds: ["index_id", "repair", "compact", "merge_wal"],
    slots_total: { index_id: 4, repair: 4, compact: 1, merge_wal: 4 },
    bytes_total: 0,
    bytes_free_sample: 0,
    draining: false,
    heartbeat_ms: NOW,
    ...extra,
  };
}

export function assignment(target: string, executor: string, extra: Partial<Assignment> = {}): Assignment {
  return {
    v: 1,
    unit_id: `u-${target}-${executor}`,
    kind: "merge_wal",
    target,
    needs_write_turn: true,
    executor,
    planner_token: "tok",
    reserved_slots: { merge_wal: 1 },
    reserved_bytes: 0,
    state: "bound",
    created_ms: NOW - 3_600_000,
    bind_deadline_ms: NOW,
    ...extra,
  };
}

export interface FleetSpec {
  tables?: Record<string, TableDemand>;
  heartbeats?: Record<string, Heartbeat>;
  assignments?: Assignment[];
  defaultPolicy?: PolicyDocument | null;
  policies?: Record<string, PolicyDocument>;
  fences?: Record<string, PlannerFence>;
}

export function fleet(spec: FleetSpec = {}, extra: Partial<PlannerFleet> = {}): PlannerFleet {
  return {
    tables: new Map(Object.entries(spec.tables ?? {})),
    heartbeats: new Map(Object.entries(spec.heartbeats ?? { e1: heartbeat() })),
    assignments: spec.assignments ?? [],
    policies: { default: spec.defaultPolicy ?? null, tables: new Map(Object.entries(spec.policies ?? {})) },
    tasks: { queued: [], running: [] },
    cooldowns: [],
    failures: [],
    fences: new Map(Object.entries(spec.fences ?? {})),
    ...extra,
  };
}

/** `n` merge tasks of another table that finished in the last hour (so a waiting candidate has an ETA). */
export function finishedMerges(n: number): TaskRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `0192-${String(i).padStart(6, "0")}`,
    kind: "merge_wal",
    target: "elsewhere",
    state: "done",
    enqueued_at: NOW - 900_000,
    started_at: NOW - 800_000 + i,
    finished_at: NOW - 700_000 + i,
    depends_on: [],
  }));
}

/** An unfinished worker merge execution (scheduler-model.md §2.8) on worker-1 for table `t`. */
export function execution(extra: Partial<Execution> = {}): Execution {
  return {
    id: "exec-1",
    target: "t",
    endpoint: "http://worker-1:8080",
    instance: "worker-1",
    timeout_secs: 1800,
    queue_timeout_secs: 600,
    idle_timeout_secs: 600,
    phase: "running",
    reclaimed: false,
    error: null,
    protocol: 2,
    ...extra,
  };
}
