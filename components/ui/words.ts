// The planner's codes in a few plain words, for places too narrow for its sentence (list
// cells, badges, counts). The code itself stays one hover or one glance away.
const WORDS: Record<string, string> = {
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

export function codeInWords(code: string): string {
  return WORDS[code] ?? code.replaceAll("_", " ");
}

/**
 * Codes whose "retryable" flag tells an operator nothing: there is nothing to do (no
 * demand), or a tail that simply waits for more demand.
 */
const NO_RETRY_MEANING = new Set(["no_demand", "tail_below_threshold"]);

export function retryMeaningful(code: string): boolean {
  return !NO_RETRY_MEANING.has(code);
}

const SKIP_REASON_WORDS: Record<string, string> = {
  bad_key: "undecodable key",
  bad_json: "not JSON",
  schema: "fails its schema",
  unknown_version: "unknown version",
  too_large: "too large",
};

/** console-api.md skip reasons in words. */
export function skipReasonInWords(reason: string): string {
  return SKIP_REASON_WORDS[reason] ?? reason.replaceAll("_", " ");
}
