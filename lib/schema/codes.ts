// The console's codes, one list each: the zod schemas build `z.enum` from these lists, and
// the words (lib/words) are `Record<Code, string>` over them, so a code added here without
// its words, or a word left for a dropped code, is a compile error. No zod here: the page
// imports these lists without the schemas.

/** Planner classes in planner order (scheduler-model.md §4.1), `idle` last. */
export const CLASS_NAMES = ["recovery", "critical", "commit_ready", "normal", "maintenance", "tail", "idle"] as const;
export type ClassName = (typeof CLASS_NAMES)[number];

/** Backlog classes (console-api.md `backlog`). */
export const BACKLOG_CLASSES = ["ok", "warn", "critical"] as const;
export type BacklogClass = (typeof BACKLOG_CLASSES)[number];

/** Shadow outcomes (scheduler-model.md §6.2), in the order the API lists them. */
export const OUTCOMES = ["discovery_miss", "queued_only", "running", "placement_gap", "phantom_task"] as const;
export type OutcomeName = (typeof OUTCOMES)[number];
/** Kayenta's floor: below this many canary samples an outcome's trend says little (`enough_data`). */
export const MIN_CANARY_SAMPLES = 50;

/** Why-not and verdict codes (scheduler-model.md §5.6(f)). */
export const WHY_NOT_CODES = [
  "no_demand",
  "tail_below_threshold",
  "no_executors",
  "all_draining",
  "no_free_slot",
  "insufficient_bytes",
  "rate_limited",
  "executor_not_allowed",
  "cooldown",
  "failure_backoff",
  "needs_attention",
  "ownership_blocked",
  "yield_to_prepared_commit",
  "turn_limit",
  "policy_frozen",
  "policy_draining",
  "kind_not_allowed",
  "already_running",
  "cycle_limit",
  "write_turn_held",
  "write_turn_stalled",
] as const;
export type WhyNotCode = (typeof WHY_NOT_CODES)[number];

/** what a due table holds in the reasons view (console-api.md "The decision journal"): its skip code, or `placed` */
export const REASON_CODES = [...WHY_NOT_CODES, "placed"] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** a history point's verdict code: a skip code, or `gone` where the table left the plan (a journal point) */
export const HISTORY_VERDICT_CODES = [...WHY_NOT_CODES, "gone"] as const;

/** Why a table is in its class (scheduler-model.md §4.1, first match wins). */
export const CLASS_REASONS = [
  "pending_at_or_above_critical",
  "promoted_for_age",
  "merge_score_due",
  "below_threshold",
  "prepared_commit_ready",
  "recover_maintenance_execution",
  "missing_fragments",
  "compact_score_due",
  "index_score_due",
  "idle_past_retire",
  "no_pending",
] as const;
export type ClassReason = (typeof CLASS_REASONS)[number];

/** A write turn's progress (§7.1) as its words name it. */
export type WriteTurnProgress = "held" | "stalled" | "advancing";

/** Why a stored record was skipped (console-api.md `skipped`). */
export const SKIP_REASONS = ["bad_key", "bad_json", "schema", "unknown_version", "too_large"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
