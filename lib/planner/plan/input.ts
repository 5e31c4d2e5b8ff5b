// The design planner's input (§4.2): plain data, adapted from one
// revision's FleetSnapshot by the API layer. Everything is keyed or listed as read; the
// planner indexes it once (no per-table scans of fleet-wide lists).
import type { Assignment } from "@/lib/schema/assignments";
import type { Execution } from "@/lib/schema/executions";
import type { Heartbeat } from "@/lib/schema/executors";
import type { ShardFailure } from "@/lib/schema/failures";
import type { TaskKind } from "@/lib/schema/kinds";
import type { TableDemand } from "@/lib/schema/demand";
import type { PolicyDocument } from "@/lib/schema/policy";
import type { TaskCooldown, TaskRecord } from "@/lib/schema/tasks";

/** Fence records of one target (bare values as stored; absent = null / false). */
export interface PlannerFence {
  /** `P/target-locks/<hex>`: claim token or `merge-execution:<id>`. */
  targetLock?: string | null;
  /** `P/merge-claims/<hex>`. */
  mergeClaim?: string | null;
  /** `P/merge-executions/<hex>`. */
  execution?: Execution | null;
  /** `P/catchup-active/<hex>`: the owning catch-up job. */
  catchupOwner?: { job: string; shared?: boolean } | null;
  /** `P/compact-preparations/<hex>`. */
  preparation?: string | null;
  /** `P/compact-commit-ready/<hex>`. */
  commitReady?: string | null;
  /** Which prepared commit the hint stands for (default `compact`). */
  commitReadyKind?: "compact" | "index_id";
  /** Since when the prepared commit has waited for its write turn, when known. */
  commitReadySinceMs?: number | null;
  /** A live `P/claims/<task-id>` for the target's active MergeWal task. */
  activeTaskClaimed?: boolean;
  /** When `P/merge-progress/<execution.id>` last increased (etcd's history, lib/live/progress-history.ts). */
  progress?: ExecutionProgress | null;
}

/**
 * When the execution's merge-progress sequence last increased, as etcd's history tells it
 * (console-api.md fourth version: the same answer from any replica, at any uptime).
 */
export interface ExecutionProgress {
  /** the stored sequence, null when no progress record exists */
  sequence: number | null;
  /** the revision of the last increase (with no record: of the execution's start); with `at_most`, the compaction's */
  last_progress_revision: number | null;
  /** that revision's time on the revision clock; null when it cannot be dated */
  last_progress_ms: number | null;
  /** `exact`; `at_most` when the increase is older than etcd's compaction (then at most the compaction's time) */
  last_progress_bound: "exact" | "at_most";
}

/** Write turns a table has taken, oldest first (from task history; optional). */
export interface TurnHistory {
  turns: ReadonlyArray<{ kind: TaskKind; at_ms: number }>;
}

/** §5.3 / §5.5 knobs; defaults in `DEFAULT_PLANNER_LIMITS`. `null` disables a limit. */
export interface PlannerLimits {
  /** ROLLOUT_APPEND_LOCAL_MEMORY_BYTES (merge reservation = the whole local budget, §5.3). */
  localMemoryBytes: number;
  /** ROLLOUT_APPEND_MAX_BYTES. */
  appendMaxBytes: number;
  /** [DESIGN] reservation of a compaction / index / repair unit. */
  maintenanceBytes: number;
  placementsPerExecutorPerMin: number | null;
  maxPlacementsPerCycle: number | null;
  /** STATS_COLD_RETIRE_SECS. */
  retireSecs: number;
}

export const DEFAULT_PLANNER_LIMITS: PlannerLimits = {
  localMemoryBytes: 2_147_483_648,
  appendMaxBytes: 67_108_864,
  maintenanceBytes: 1_073_741_824,
  placementsPerExecutorPerMin: 6,
  maxPlacementsPerCycle: 8,
  retireSecs: 604_800,
};

export interface PlannerFleet {
  /** Folded demand per target (§3.6), idle tables included. */
  tables: ReadonlyMap<string, TableDemand>;
  /** Live heartbeats by executor id (the key suffix, §2.4). */
  heartbeats: ReadonlyMap<string, Heartbeat>;
  /** Every parsed assignment (released ones are ignored for capacity, §5.2). */
  assignments: readonly Assignment[];
  policies: {
    /** `P/policies/_default`, parsed, or null. */
    default: PolicyDocument | null;
    /** `P/policies/<hex(target)>`, parsed, by target. */
    tables: ReadonlyMap<string, PolicyDocument>;
  };
  /** Legacy `P/queue/` and `P/running/` records (§1.2). */
  tasks: { queued: readonly TaskRecord[]; running: readonly TaskRecord[] };
  cooldowns: readonly TaskCooldown[];
  /** `P/merge-failures/` records (corrected on read by the planner, §9.1). */
  failures: readonly ShardFailure[];
  /** Fence state by target; a missing target has no fence records. */
  fences: ReadonlyMap<string, PlannerFence>;
  /**
   * Recent `P/tasks/` records (any state): write-turn history for `max_consecutive_turns`
   * (started in the last 24 h) and completion rates for the ETA (done in the last hour).
   */
  history?: readonly TaskRecord[];
  /** Write-turn history by target; overrides what `history` gives (tests, replays). */
  turns?: ReadonlyMap<string, TurnHistory>;
  limits?: Partial<PlannerLimits>;
}
