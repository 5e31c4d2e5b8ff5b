// One /tables row (a TableSummary) for unit tests of the list's order and view: a normal table
// waiting for a slot, with `over` changing what a test is about.
import type { TableSummary } from "@/lib/client/api-types";

export function summaryRow(target: string, over: Partial<TableSummary> = {}): TableSummary {
  return {
    target,
    class: "normal",
    class_rank: 3,
    reason: "merge_score_due",
    score: 1,
    pending_generations: 8,
    pending_bytes: 0,
    oldest_pending_ms: 1000,
    age_bound: "exact",
    wait_ms: 5000,
    shards: 1,
    backlog_class: "ok",
    verdict: { state: "would_skip", code: "no_free_slot", message: "m" },
    execution: null,
    write_turn_holder: null,
    position: null,
    clock_skew_ms: null,
    ...over,
  };
}
