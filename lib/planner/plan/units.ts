// Units per kind, scheduler-model.md §4.2 [DESIGN]: one unit per kind with demand, each
// with a class (0 recovery … 5 tail), a score and a reason. The merge unit is the master's
// own §4.1 result, untouched (scored by lib/planner with the effective policy).
import type { ClassName as TableClass, ClassReason } from "@/lib/schema/codes";
import type { TableDemand } from "@/lib/schema/demand";
import type { TaskKind } from "@/lib/schema/kinds";
import type { EffectivePolicy } from "@/lib/schema/policy";
import type { PlannerFence } from "./input";
import { PLANNER_CLASSES, type PlannerClass } from "../score";

const CLASS_NAMES = PLANNER_CLASSES;
type ClassName = PlannerClass;
/** Table classes add `idle` (nothing pending), rank 6 (console-api.md; lib/schema/codes.ts `CLASS_NAMES`). */
export type TableClassName = TableClass;
export const IDLE_RANK = 6;

export type UnitKind = TaskKind | "retire";

/** JSON-safe score: an infinite score (repair with missing fragments) travels as "infinity". */
export type UnitScore = number | "infinity";

export interface PlanUnit {
  kind: UnitKind;
  class_rank: number;
  class: ClassName;
  /** Numeric score for ordering; may be Infinity. */
  score: number;
  reason: ClassReason;
  /** How long the unit has waited (ms), null when unknown. */
  wait_ms: number | null;
}

export function unitScore(score: number): UnitScore {
  return score === Infinity ? "infinity" : score;
}

function unit(kind: UnitKind, rank: number, score: number, reason: ClassReason, wait: number | null): PlanUnit {
  return { kind, class_rank: rank, class: CLASS_NAMES[rank], score, reason, wait_ms: wait };
}

/** `max_turn_wait_secs[kind]` crossed: promote to class 1 (a null wait never promotes). */
export function waitPromotes(waitMs: number | null, kind: string, policy: EffectivePolicy): boolean {
  const limit = policy.max_turn_wait_secs[kind as keyof EffectivePolicy["max_turn_wait_secs"]];
  return limit !== undefined && waitMs !== null && waitMs >= limit * 1000;
}

/** Promote a unit to class 1 after `max_turn_wait_secs[kind]` (§4.2); recovery stays 0. */
function promoted(u: PlanUnit, policy: EffectivePolicy): PlanUnit {
  if (u.class_rank <= 1 || !waitPromotes(u.wait_ms, u.kind, policy)) return u;
  return { ...u, class_rank: 1, class: "critical", reason: "promoted_for_age" };
}

/** The §4.1 merge result as the units builder needs it. */
export interface MergeUnitScore {
  class_rank: 1 | 3 | 5;
  score: number;
  reason: ClassReason;
  wait_ms: number | null;
}

export interface UnitInputs {
  demand: TableDemand;
  pendingGenerations: number;
  /** Newest known flush time of the table (retire idleness), null when unknown. */
  lastActivityMs: number | null;
  merge: MergeUnitScore | null;
  fence: PlannerFence | undefined;
  /** Oldest enqueue time of a queued legacy task per kind (wait for non-merge kinds). */
  queuedSince: ReadonlyMap<TaskKind, number> | undefined;
  policy: EffectivePolicy;
  retireSecs: number;
  now: number;
}

const RECOVERABLE_PHASES = new Set(["reserved", "running", "uncertain", "recovering"]);

function waitSince(since: number | null | undefined, now: number): number | null {
  return since == null ? null : Math.max(0, now - since);
}

/** Every unit of one table, unordered. */
export function buildUnits(input: UnitInputs): PlanUnit[] {
  const { demand, policy, fence, now } = input;
  const units: PlanUnit[] = [];
  const merge = input.merge;
  if (merge) units.push(unit("merge_wal", merge.class_rank, merge.score, merge.reason, merge.wait_ms));

  // Class 0: an unresolved maintenance execution must be recovered by its own kind.
  const execution = fence?.execution;
  if (execution?.maintenance && RECOVERABLE_PHASES.has(execution.phase)) {
    units.push(unit(execution.maintenance, 0, Infinity, "recover_maintenance_execution", null));
  } else if (demand.missing_fragments) {
    units.push(unit("repair", 0, Infinity, "missing_fragments", waitSince(input.queuedSince?.get("repair"), now)));
  }

  // Class 2: a prepared compaction/index whose commit is ready and asks for the write turn
  // (the hint counts only when it equals the preparation, §5.6a).
  const commitKind = fence?.commitReadyKind ?? "compact";
  const commitReady = fence?.commitReady != null && fence.commitReady === (fence.preparation ?? null);
  if (commitReady) {
    units.push(
      unit(
        commitKind,
        2,
        1,
        "prepared_commit_ready",
        waitSince(fence?.commitReadySinceMs ?? input.queuedSince?.get(commitKind), now),
      ),
    );
  }

  // Class 4: compaction (halved under a hot WAL) and index (only when stale).
  const minFragments = Math.max(1, policy.compact.min_fragments);
  if (!(commitReady && commitKind === "compact") && demand.fragment_count > 0) {
    const hot = merge !== null && merge.score >= 1;
    const score = (demand.fragment_count / minFragments) * (hot ? 0.5 : 1);
    const wait = waitSince(input.queuedSince?.get("compact"), now);
    units.push(unit("compact", score >= 1 ? 4 : 5, score, score >= 1 ? "compact_score_due" : "below_threshold", wait));
  }
  if (!(commitReady && commitKind === "index_id") && demand.index_stale && demand.uncovered_fragments > 0) {
    const score = demand.uncovered_fragments / minFragments;
    const wait = waitSince(input.queuedSince?.get("index_id"), now);
    units.push(unit("index_id", score >= 1 ? 4 : 5, score, score >= 1 ? "index_score_due" : "below_threshold", wait));
  }

  // Class 5 housekeeping: retire a table idle past STATS_COLD_RETIRE_SECS.
  if (
    input.pendingGenerations === 0 &&
    input.lastActivityMs !== null &&
    now - input.lastActivityMs > input.retireSecs * 1000
  ) {
    units.push(unit("retire", 5, 1, "idle_past_retire", now - input.lastActivityMs));
  }
  // The merge unit is already §4.1-promoted; the other kinds are promoted here.
  for (let i = 0; i < units.length; i++) if (units[i].kind !== "merge_wal") units[i] = promoted(units[i], policy);
  // one unit (the common case): a one-slot array, not the grown backing store of a push
  return units.length === 1 ? [units[0]] : units;
}
