// A table's demand facts in its journal entry (console-api.md "The decision journal": a
// journal point at revision R equals the one-table answer at `?revision=R&now_ms=…`, its
// pending generations, wait and score included). The wait and the score grow with the
// clock; what they grow from changes only with etcd. So an entry keeps the facts and a
// reader derives wait and score at the point's own `now_ms`:
// * the merge unit at the head: the §4.1 inputs (pending generations and bytes, the wait
//   floor, the exact oldest flush, the thresholds), and `scoreDerived` — the planner's own
//   rule — scores them again at `now` (scheduler-model.md §4.1);
// * any other head (§4.2 units): its score does not move with the clock, and its wait is
//   `now − since`.
// Exact by construction: `factsOf(t, now)` derives back to t's own figures at `now`, and
// the log re-enters a table whenever its facts differ from the last entered ones (a wait
// clamped at 0 by a record dated in the future yields new facts at each evaluation, so it
// is entered each time rather than guessed). Pure.
import type { TablePlan } from "@/lib/planner/plan/types";
import { scoreDerived, type MergeThresholds } from "@/lib/planner/score";
import { unitScore, type UnitScore } from "@/lib/planner/plan/units";

export type DemandFacts =
  | {
      head: "merge";
      pending_generations: number;
      pending_bytes: number;
      /** the wait floor (drives promotion and the wait) */
      wait_floor_ms: number | null;
      /** the exact oldest flush (drives the age boost) */
      exact_ms: number | null;
      thresholds: MergeThresholds;
    }
  | {
      head: "other";
      pending_generations: number;
      score: UnitScore;
      /** the head's wait is `now − since` (null: unknown) */
      since_ms: number | null;
    };

/** The chart's figures of a table at one moment. */
export interface DemandFigures {
  pending_generations: number;
  wait_ms: number | null;
  score: UnitScore;
}

/**
 * Is the table's head its merge unit (§4.1)? The head is the first unit with the table's
 * class, reason, score and wait; a unit alike in all four derives to the same figures now,
 * and a later evaluation where they part yields other facts (so it is entered again).
 */
function mergeHead(t: TablePlan): boolean {
  const head = t.units.find(
    (u) => u.class === t.class && u.reason === t.reason && u.score === t.score && u.wait_ms === t.wait_ms,
  );
  return head?.kind === "merge_wal";
}

/** What the table's wait and score at `now` grow from (see the top). */
export function factsOf(t: TablePlan, now: number): DemandFacts {
  const b = t.score_breakdown;
  if (b !== null && mergeHead(t)) {
    return {
      head: "merge",
      pending_generations: t.pending_generations,
      pending_bytes: t.pending_bytes,
      wait_floor_ms: b.wait_floor_ms,
      exact_ms: b.wait_exact_ms === null ? null : now - b.wait_exact_ms,
      thresholds: {
        min_generations: b.min_generations,
        min_bytes: b.min_bytes,
        max_age_secs: b.max_age_secs,
        critical_generations: b.critical_generations,
        max_turn_wait_secs: b.max_turn_wait_secs,
      },
    };
  }
  return {
    head: "other",
    pending_generations: t.pending_generations,
    score: t.score,
    since_ms: t.wait_ms === null ? null : now - t.wait_ms,
  };
}

/** The figures at `now` (the facts' own evaluation or any later one with the same facts). */
export function figuresAt(f: DemandFacts, now: number): DemandFigures {
  if (f.head === "other")
    return {
      pending_generations: f.pending_generations,
      wait_ms: f.since_ms === null ? null : now - f.since_ms,
      score: f.score,
    };
  const scored = scoreDerived(
    "",
    {
      pending_generations: f.pending_generations,
      pending_bytes: f.pending_bytes,
      oldest_pending_ms: f.wait_floor_ms,
      oldest_pending_exact_ms: f.exact_ms,
      oldest_pending_wait_floor_ms: f.wait_floor_ms,
      shards: 0,
      shards_pending: 0,
    },
    now,
    f.thresholds,
  );
  return {
    pending_generations: f.pending_generations,
    wait_ms: scored?.wait_ms ?? null,
    score: scored === null ? 0 : unitScore(scored.score),
  };
}

export function sameFacts(a: DemandFacts | null | undefined, b: DemandFacts | null | undefined): boolean {
  if (a == null || b == null) return (a ?? null) === (b ?? null);
  if (a.head !== b.head || a.pending_generations !== b.pending_generations) return false;
  if (a.head === "other" && b.head === "other") return a.score === b.score && a.since_ms === b.since_ms;
  if (a.head !== "merge" || b.head !== "merge") return false;
  const x = a.thresholds;
  const y = b.thresholds;
  return (
    a.pending_bytes === b.pending_bytes &&
    a.wait_floor_ms === b.wait_floor_ms &&
    a.exact_ms === b.exact_ms &&
    x.min_generations === y.min_generations &&
    x.min_bytes === y.min_bytes &&
    x.max_age_secs === y.max_age_secs &&
    x.critical_generations === y.critical_generations &&
    x.max_turn_wait_secs === y.max_turn_wait_secs
  );
}
