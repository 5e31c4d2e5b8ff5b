// The planner's class reason in words (spec §4.1 "first match wins"), built only from the
// numbers the API returned; nothing is re-decided here.
import { formatCount, formatDuration, formatScore } from "./format";
import type { ScoreBreakdown, TableSummary } from "@/lib/client/api-types";

export function classReasonInWords(
  t: Pick<TableSummary, "class" | "reason" | "pending_generations" | "score" | "wait_ms">,
  b: ScoreBreakdown | null,
): string {
  const critical = b ? formatCount(b.critical_generations) : "the critical threshold";
  const turnWait = b ? formatDuration(b.max_turn_wait_secs * 1000) : "max_turn_wait_secs";
  switch (t.reason) {
    case "pending_at_or_above_critical":
      return `Critical: ${formatCount(t.pending_generations)} pending generations is at or above critical_generations (${critical}), so it goes ahead of every normal table.`;
    case "promoted_for_age":
      return `Critical (promoted for age): it has waited ${formatDuration(t.wait_ms)}, at least max_turn_wait (${turnWait}), so it jumps the queue whatever its score.`;
    case "merge_score_due":
      return `Normal: merge score ${formatScore(t.score)} is at least 1, so a merge is due; normal tables are placed by score, highest first.`;
    case "below_threshold":
      return `Tail: merge score ${formatScore(t.score)} is below 1 (fewer than min_generations${b ? ` = ${b.min_generations}` : ""} pending, not old enough to boost). Tails are never placed; it waits until more generations pile up or it ages into promotion (${turnWait}).`;
    case "prepared_commit_ready":
      return "Commit ready: a prepared compaction or index build is waiting for its write turn, so it goes before ordinary merges (a merge yields one turn to it).";
    case "recover_maintenance_execution":
      return "Recovery: a maintenance execution was left in flight; recovering it comes before any new work on the table.";
    case "missing_fragments":
      return "Recovery: fragments are missing, so a repair comes first (its score is infinite).";
    case "compact_score_due":
      return `Maintenance: compaction is due (score ${formatScore(t.score)} ≥ 1).`;
    case "index_score_due":
      return `Maintenance: the index is stale enough to rebuild (score ${formatScore(t.score)} ≥ 1).`;
    case "idle_past_retire":
      return "Tail: idle long enough to retire its cached state; tails are never placed.";
    case "no_pending":
      return "Idle: nothing is pending, so there is nothing to place.";
    default:
      if (t.class === "idle" || t.pending_generations === 0)
        return "Idle: nothing is pending, so there is nothing to place.";
      return `${t.class}${t.reason ? ` (${t.reason})` : ""}`;
  }
}
