// MergeWal scoring and classes, exactly as the master's code (scheduler-model.md §4.1).
// Thresholds are a parameter so a per-table effective policy can be passed in (§7.3).
import type { TableDemand } from "@/lib/schema";
import { deriveTable, type TableDerived } from "./derived";

export interface MergeThresholds {
  min_generations: number;
  /** 0 disables the bytes term */
  min_bytes: number;
  max_age_secs: number;
  critical_generations: number;
  max_turn_wait_secs: number;
}

/** §4.1 MergePolicy defaults (`MERGE_WAL_MIN_GENERATIONS` default 8). */
export const DEFAULT_MERGE_THRESHOLDS: Readonly<MergeThresholds> = Object.freeze({
  min_generations: 8,
  min_bytes: 0,
  max_age_secs: 3600,
  critical_generations: 256,
  max_turn_wait_secs: 3600,
});

export const PLANNER_CLASSES = ["recovery", "critical", "commit_ready", "normal", "maintenance", "tail"] as const;
export type PlannerClass = (typeof PLANNER_CLASSES)[number];
export const CLASS_RANK: Readonly<Record<PlannerClass, number>> = Object.freeze({
  recovery: 0,
  critical: 1,
  commit_ready: 2,
  normal: 3,
  maintenance: 4,
  tail: 5,
});

type ScoreReason = "pending_at_or_above_critical" | "promoted_for_age" | "merge_score_due" | "below_threshold";

export interface Scored {
  target: string;
  class: PlannerClass;
  class_rank: number;
  reason: ScoreReason;
  score: number;
  pending_generations: number;
  pending_bytes: number;
  oldest_pending_ms: number | null;
  /** now − wait floor (any bound), ≥ 0; drives promotion */
  wait_ms: number | null;
  /** now − exact oldest time, ≥ 0; drives the age boost */
  wait_exact_ms: number | null;
  /** the wait-floor timestamp itself (ms) */
  wait_floor_ms: number | null;
  by_gens: number;
  by_bytes: number;
  age_boost: number;
  shards: number;
}

/** Score one table from its derived numbers; null when nothing is pending (not scored). */
export function scoreDerived(
  target: string,
  d: TableDerived,
  now: number,
  t: Readonly<MergeThresholds> = DEFAULT_MERGE_THRESHOLDS,
): Scored | null {
  const pending = d.pending_generations;
  if (pending <= 0) return null;
  const floor = d.oldest_pending_wait_floor_ms;
  const waitMs = floor === null ? null : Math.max(0, now - floor);
  const exact = d.oldest_pending_exact_ms;
  const waitExactMs = exact === null ? null : Math.max(0, now - exact);
  const byGens = pending / Math.max(1, t.min_generations);
  const byBytes = t.min_bytes > 0 ? d.pending_bytes / t.min_bytes : 0;
  // a bound never inflates the score: only the exact wait ages it
  const ageBoost = waitExactMs !== null && t.max_age_secs > 0 ? 1 + waitExactMs / 1000 / t.max_age_secs : 1;
  const score = Math.max(byGens, byBytes) * ageBoost;
  let cls: PlannerClass;
  let reason: ScoreReason;
  if (pending >= t.critical_generations) {
    cls = "critical";
    reason = "pending_at_or_above_critical";
  } else if (waitMs !== null && waitMs >= t.max_turn_wait_secs * 1000) {
    cls = "critical"; // promotion uses the floor from either bound (§11 item 3)
    reason = "promoted_for_age";
  } else if (score >= 1) {
    cls = "normal";
    reason = "merge_score_due";
  } else {
    cls = "tail";
    reason = "below_threshold";
  }
  return {
    target,
    class: cls,
    class_rank: CLASS_RANK[cls],
    reason,
    score,
    pending_generations: pending,
    pending_bytes: d.pending_bytes,
    oldest_pending_ms: d.oldest_pending_ms,
    wait_ms: waitMs,
    wait_exact_ms: waitExactMs,
    wait_floor_ms: floor,
    by_gens: byGens,
    by_bytes: byBytes,
    age_boost: ageBoost,
    shards: d.shards,
  };
}

export function scoreTable(
  target: string,
  table: TableDemand,
  now: number,
  thresholds: Readonly<MergeThresholds> = DEFAULT_MERGE_THRESHOLDS,
): Scored | null {
  return scoreDerived(target, deriveTable(table), now, thresholds);
}

/** Score every table (unordered); `thresholdsFor` supplies a per-table policy if any. */
export function scoreTables(
  tables: ReadonlyMap<string, TableDemand>,
  now: number,
  thresholdsFor: (target: string) => Readonly<MergeThresholds> = () => DEFAULT_MERGE_THRESHOLDS,
): Scored[] {
  const out: Scored[] = [];
  for (const [target, table] of tables) {
    const s = scoreTable(target, table, now, thresholdsFor(target));
    if (s !== null) out.push(s);
  }
  return out;
}
