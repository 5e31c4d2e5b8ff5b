// Merge progress, scheduler-model.md §7.1 (`GET /merge-progress`): status from one
// revision's execution, progress sequence and work report; stall from how long the
// sequence has not increased (its last increase found in etcd's history by the caller).
// Only an increased `merge-progress.sequence` is progress — never a live lease, a Running
// state or a heartbeat (§12).

type MergeProgressStatus = "reported" | "progress_details_unavailable" | "progress_unknown" | "no_active_record";

/** MAINTENANCE_IDLE_TIMEOUT_SECS default. */
export const IDLE_TIMEOUT_SECS = 600;

export interface MergeProgressInput {
  /** The active MergeWal task id (via the dedupe key), null when none. */
  activeTaskId: string | null;
  /** `P/merge-executions/<hex>` id, null when absent. */
  executionId: string | null;
  /** `P/merge-progress/<execution-id>` sequence, null when absent. */
  sequence: number | null;
  /** `P/merge-work/<execution-id>`, any JSON, null when absent. */
  workReport: unknown;
  /** When the sequence last increased (no record: since the execution started), null when not known. */
  lastProgressMs: number | null;
  now: number;
  idleTimeoutSecs?: number;
}

export interface MergeProgressView {
  status: MergeProgressStatus;
  task_id: string | null;
  sequence: number | null;
  work_report: unknown;
  unchanged_for_ms: number | null;
  stalled: boolean;
}

function reportSequence(report: unknown): unknown {
  return report !== null && typeof report === "object" ? (report as { sequence?: unknown }).sequence : undefined;
}

export function mergeProgress(input: MergeProgressInput): MergeProgressView {
  const sequence = input.executionId !== null ? input.sequence : null;
  const report =
    input.executionId !== null && sequence !== null && reportSequence(input.workReport) === sequence
      ? input.workReport
      : null;
  let status: MergeProgressStatus;
  if (input.executionId !== null) status = report !== null ? "reported" : "progress_details_unavailable";
  else if (input.activeTaskId !== null)
    status = "progress_unknown"; // a legacy worker RPC: not evidence of health
  else status = "no_active_record";
  const unchanged =
    input.executionId !== null && input.lastProgressMs !== null ? Math.max(0, input.now - input.lastProgressMs) : null;
  return {
    status,
    task_id: input.activeTaskId,
    sequence,
    work_report: report,
    unchanged_for_ms: unchanged,
    stalled: unchanged !== null && unchanged >= (input.idleTimeoutSecs ?? IDLE_TIMEOUT_SECS) * 1000,
  };
}
