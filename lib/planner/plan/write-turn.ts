// The write turn as part of the verdict (console-api.md "One answer on every page"): a
// table whose `target-locks/` key names `merge-execution:<id>` and whose
// `merge-executions/` record with that id is unfinished is not offered a new write-turn
// unit. Progress is judged only by increases of `merge-progress/<id>`.sequence, as the
// master's watchdog does (scheduler-model.md §7.1, §12), dated from etcd's history (console-api.md
// fourth version: the same answer from any replica, at any uptime); "unknown" never counts as progress.
// The master's own shadow rule (§6.2) ignores locks; only the design verdict changes.
import { IDLE_TIMEOUT_SECS } from "../progress";
import type { ExecutionProgress, PlannerFence } from "./input";
import type { PlanUnit } from "./units";
import { formatDurationFromZero, whyNot, type WhyNot } from "./why-not";

/** Execution phases that still hold the write turn (§2.8). */
export const UNFINISHED_PHASES: ReadonlySet<string> = new Set(["reserved", "running", "uncertain", "recovering"]);

const EXECUTION_LOCK_PREFIX = "merge-execution:";

export type ProgressState = "advancing" | "stalled" | "unknown";

export interface WriteTurn {
  execution_id: string;
  endpoint: string;
  instance: string;
  phase: string;
  maintenance: string | null;
  sequence: number | null;
  progress: ProgressState;
  last_progress_ms: number | null;
  last_progress_bound: "exact" | "at_most";
  idle_timeout_secs: number;
}

/** The execution id a target lock names, null for a claim token. */
export function lockedExecutionId(lock: string | null | undefined): string | null {
  return lock != null && lock.startsWith(EXECUTION_LOCK_PREFIX) ? lock.slice(EXECUTION_LOCK_PREFIX.length) : null;
}

/**
 * Stalled once the sequence has not increased for the idle timeout (counted from the start
 * while no progress is reported); advancing when its last increase is known exactly and
 * within it; otherwise unknown (no progress reported yet, an increase older than etcd's
 * compaction, or a revision nothing dates).
 */
export function progressState(
  progress: ExecutionProgress | null | undefined,
  idleTimeoutSecs: number,
  now: number,
): ProgressState {
  const last = progress?.last_progress_ms ?? null;
  if (last === null) return "unknown";
  if (now - last >= idleTimeoutSecs * 1000) return "stalled";
  return progress!.sequence !== null && progress!.last_progress_bound === "exact" ? "advancing" : "unknown";
}

/** The unfinished execution holding the table's write turn, or null. */
export function writeTurnOf(fence: PlannerFence | undefined, now: number): WriteTurn | null {
  const execution = fence?.execution;
  if (!execution || !UNFINISHED_PHASES.has(execution.phase)) return null;
  if (lockedExecutionId(fence.targetLock) !== execution.id) return null;
  const idle = execution.idle_timeout_secs || IDLE_TIMEOUT_SECS;
  const progress = fence.progress ?? null;
  return {
    execution_id: execution.id,
    endpoint: execution.endpoint,
    instance: execution.instance,
    phase: execution.phase,
    maintenance: execution.maintenance ?? null,
    sequence: progress?.sequence ?? null,
    progress: progressState(progress, idle, now),
    last_progress_ms: progress?.last_progress_ms ?? null,
    last_progress_bound: progress?.last_progress_bound ?? "exact",
    idle_timeout_secs: idle,
  };
}

function holderWords(turn: WriteTurn): string {
  const where = turn.instance ? `on ${turn.instance} (${turn.endpoint})` : `at ${turn.endpoint}`;
  return `The write turn is held by execution ${turn.execution_id} (${turn.phase} ${where})`;
}

function sequenceWords(turn: WriteTurn, now: number): string {
  const seq =
    turn.sequence === null ? "no merge-progress sequence reported yet" : `merge-progress sequence ${turn.sequence}`;
  if (turn.last_progress_ms === null) return `${seq}, at a revision whose time is not known`;
  const quiet = formatDurationFromZero(Math.max(0, now - turn.last_progress_ms));
  if (turn.progress === "advancing") return `${seq}, advanced ${quiet} ago`;
  const timeout = `idle timeout ${formatDurationFromZero(turn.idle_timeout_secs * 1000)}`;
  // at_most: the increase is older than etcd's compaction, so it is at least this long ago
  const atLeast = turn.last_progress_bound === "at_most" ? "at least " : "";
  return turn.sequence === null
    ? `${seq}, ${atLeast}${quiet} since the execution started (${timeout})`
    : `${seq}, not advanced for ${atLeast}${quiet} (${timeout})`;
}

/** `write_turn_held` / `write_turn_stalled` for a unit, or null when the unit is exempt. */
export function writeTurnEntry(u: PlanUnit, turn: WriteTurn | null, now: number): WhyNot | null {
  // recovering that very execution is the way out of the fence, never blocked by it (§5.6a)
  if (turn === null || u.kind === "retire" || u.reason === "recover_maintenance_execution") return null;
  const detail = {
    kind: u.kind,
    execution_id: turn.execution_id,
    endpoint: turn.endpoint,
    instance: turn.instance,
    phase: turn.phase,
    sequence: turn.sequence,
    progress: turn.progress,
    last_progress_ms: turn.last_progress_ms,
    last_progress_bound: turn.last_progress_bound,
    idle_timeout_secs: turn.idle_timeout_secs,
  };
  if (turn.progress === "stalled") {
    return whyNot(
      "write_turn_stalled",
      `${holderWords(turn)} but looks stalled: ${sequenceWords(turn, now)}. Nothing new runs until it is reclaimed or finishes.`,
      detail,
    );
  }
  return whyNot(
    "write_turn_held",
    `${holderWords(turn)}: ${sequenceWords(turn, now)}. A new ${u.kind} waits until it finishes.`,
    detail,
  );
}
