// The console's one vocabulary (issue 27): the planner's codes in a few plain words, for
// the pages, the command line and /diff alike. The code itself stays one hover or one
// glance away; no surface prints a raw code without its words.
// The maps are typed by the code lists (lib/schema/codes.ts): a code without its words, or
// words for a code that no longer exists, does not compile.
import type { ClassName, ClassReason, SkipReason, WhyNotCode, WriteTurnProgress } from "../schema/codes";
import { formatCount } from "../schema/format";

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
  held: "write turn held",
  stalled: "write turn stalled",
  advancing: "advancing",
};

/**
 * verdict and why-not codes (§5.6(f)): each label says only what its code's messages say
 * (./codes-agree.test.ts walks every code through the planner and checks it).
 */
const VERDICT_WORDS: Readonly<Record<WhyNotCode, string>> = {
  no_demand: "nothing to do",
  tail_below_threshold: "tail: not placed",
  no_executors: "no executor",
  all_draining: "no executor accepting",
  no_free_slot: "no free slot",
  insufficient_bytes: "too few bytes free",
  rate_limited: "rate limited",
  executor_not_allowed: "executor not allowed",
  cooldown: "cooling down",
  failure_backoff: "backing off",
  needs_attention: "needs attention",
  ownership_blocked: "ownership blocked",
  yield_to_prepared_commit: "yields to a commit",
  turn_limit: "max consecutive turns",
  policy_frozen: "policy frozen",
  policy_draining: "policy: drain",
  kind_not_allowed: "kind not allowed",
  already_running: "already running",
  cycle_limit: "next cycle",
  write_turn_held: "write turn held",
  write_turn_stalled: "write turn stalled",
};

/** Classes in words (scheduler-model.md §2.7): "commit ready" on every page, the CLI and the review. */
const CLASS_WORDS: Readonly<Record<ClassName, string>> = {
  recovery: "recovery",
  critical: "critical",
  commit_ready: "commit ready",
  normal: "normal",
  maintenance: "maintenance",
  tail: "tail",
  idle: "idle",
};

export function classLabel(name: string): string {
  return Object.hasOwn(CLASS_WORDS, name) ? CLASS_WORDS[name as ClassName] : name.replaceAll("_", " ");
}

/** A verdict in the one short form of every list, page and the command line: "place → worker-2", "skip: ownership blocked". */
export function verdictLabel(
  v: { state: "would_place"; executor: string } | { state: "would_skip"; code: string },
): string {
  return v.state === "would_place" ? `place → ${v.executor}` : `skip: ${codeInWords(v.code)}`;
}

/** A place in line with its kind, so two "1"s of different kinds never look alike: "1 · merge_wal". */
export function positionLabel(p: { rank: number; kind: string } | null): string {
  return p === null ? "—" : `${formatCount(p.rank)} · ${p.kind}`;
}

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
