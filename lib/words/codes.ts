// The console's one vocabulary (issue 27): the planner's codes in a few plain words, for
// the pages, the command line and /diff alike. The code itself stays one hover or one
// glance away; no surface prints a raw code without its words.
// The maps are typed by the code lists (lib/schema/codes.ts): a code without its words, or
// words for a code that no longer exists, does not compile.
import type { ClassReason, SkipReason, WhyNotCode, WriteTurnProgress } from "../schema/codes";

/** class reasons (scheduler-model.md §4.1) */
const CLASS_REASON_WORDS: Readonly<Record<ClassReason, string>> = {
  pending_at_or_above_critical: "at or above the critical backlog",
  promoted_for_age: "promoted for age",
  merge_score_due: "merge due by score",
  below_threshold: "below the merge threshold",
  prepared_commit_ready: "prepared commit ready",
  recover_maintenance_execution: "recovering a maintenance execution",
  missing_fragments: "fragments missing",
  compact_score_due: "compaction due",
  index_score_due: "index rebuild due",
  idle_past_retire: "idle past retirement",
  no_pending: "nothing pending",
};

/** write-turn progress (§7.1) */
const WRITE_TURN_WORDS: Readonly<Record<WriteTurnProgress, string>> = {
  held: "merge running",
  stalled: "merge stalled",
  advancing: "advancing",
};

/** verdict and why-not codes (§5.6(f)) */
const VERDICT_WORDS: Readonly<Record<WhyNotCode, string>> = {
  no_demand: "nothing to do",
  tail_below_threshold: "tail: below threshold",
  no_executors: "no executor",
  all_draining: "every executor draining",
  no_free_slot: "no free slot",
  insufficient_bytes: "too few bytes free",
  rate_limited: "rate limited",
  executor_not_allowed: "executor not allowed",
  cooldown: "cooling down",
  failure_backoff: "backing off",
  needs_attention: "needs attention",
  ownership_blocked: "owned elsewhere",
  yield_to_prepared_commit: "yields to a commit",
  turn_limit: "turn limit reached",
  policy_frozen: "policy frozen",
  policy_draining: "policy draining",
  kind_not_allowed: "kind not allowed",
  already_running: "already running",
  cycle_limit: "a later cycle",
  write_turn_held: "merge running",
  write_turn_stalled: "merge stalled",
};

const WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({ ...CLASS_REASON_WORDS, ...WRITE_TURN_WORDS, ...VERDICT_WORDS }),
);

export function codeInWords(code: string): string {
  return WORDS.get(code) ?? code.replaceAll("_", " ");
}

/**
 * The two placements (scheduler-model.md §6.2), named apart everywhere they are shown: the
 * master's own shadow rule (what the legacy master would place, shadow rows counted) and the
 * console's full design (the verdict on the table pages and /tables).
 */
export const PLACEMENT_NAMES = { master: "the master's shadow rule", design: "the full design" } as const;

/**
 * Codes whose "retryable" flag tells an operator nothing: there is nothing to do (no
 * demand), or a tail that simply waits for more demand.
 */
const NO_RETRY_MEANING: ReadonlySet<string> = new Set<WhyNotCode>(["no_demand", "tail_below_threshold"]);

export function retryMeaningful(code: string): boolean {
  return !NO_RETRY_MEANING.has(code);
}

const SKIP_REASON_WORDS: Readonly<Record<SkipReason, string>> = {
  bad_key: "undecodable key",
  bad_json: "not JSON",
  schema: "fails its schema",
  unknown_version: "unknown version",
  too_large: "too large",
};

/** console-api.md skip reasons in words. */
export function skipReasonInWords(reason: string): string {
  return Object.hasOwn(SKIP_REASON_WORDS, reason)
    ? SKIP_REASON_WORDS[reason as SkipReason]
    : reason.replaceAll("_", " ");
}
