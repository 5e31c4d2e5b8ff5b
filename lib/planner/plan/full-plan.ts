// The full plan of one revision (scheduler-model.md §4.2, §5.5): every table drafted and
// planned (./plan-fleet.ts planTable), the candidates sorted into planner order and placed
// in it (§5.4, §5.5), the rows listed in planner order. In steps, so that a caller may let
// other work run between them (the clock's plan of 13k tables, lib/live/plan.ts).
import { admissionEligibility } from "../eligibility";
import { cloneRow, foldHeadroom } from "../headroom";
import { mergeSorted, sortByPlannerKey, sortPlannerOrder } from "../order";
import type { EffectivePolicyResult } from "../policy/effective";
import { DEFAULT_MERGE_THRESHOLDS, type MergeThresholds, type Scored } from "../score";
import { BoundedMap } from "@/lib/util/bounded-map";
import { toTargetFence } from "./blockers";
import { indexFleet } from "./context";
import { Drafts } from "./drafts";
import { recentCompletions, turnHistoryFromTasks } from "./fairness";
import { DEFAULT_PLANNER_LIMITS, type PlannerFleet, type PlannerLimits } from "./input";
import { Line } from "./line";
import { PlacementPass } from "./placement-pass";
import {
  addCounts,
  candidateKey,
  comparePlans,
  compareScored,
  emptyCounts,
  hasNaN,
  hasNaNKey,
  internAnswer,
  MAX_POOLED_ANSWERS,
  planKey,
  planTable,
  policyResolver,
} from "./plan-fleet";
import type { AnswerPool, RetainedPlan } from "./retained";
import type { Decision, TableDraft } from "./table";
import { mergeThresholds } from "./table";
import type { FleetPlan, TablePlan } from "./types";

/** Plan every table of one revision as of `now`. Pure and deterministic. */
export function planFleet(fleet: PlannerFleet, now: number): FleetPlan {
  return buildPlan(fleet, now, false).plan;
}

export interface Built {
  plan: FleetPlan;
  retained: RetainedPlan | null;
}

/**
 * `planFleet`, keeping what a re-plan needs (replan.ts `replanFleet`) beside the plan;
 * `retained` is null when the plan cannot be patched (a NaN score or wait: the order is
 * then the comparator sort's, which depends on the input order).
 */
export function buildPlan(fleet: PlannerFleet, now: number, retain: boolean): Built {
  return toEnd(planSteps(fleet, now, retain));
}

/** Runs work made in steps (`planSteps`, ./preview.ts `previewPolicyInSteps`) to its end, without pausing: its result. */
export function toEnd<T>(steps: Iterator<unknown, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Tables planned, or candidates placed, between two pauses of `planSteps`. */
export const STEP_TABLES = 1024;

/**
 * `buildPlan` in steps: it pauses (yields) after every STEP_TABLES tables drafted and
 * candidates placed, and between its sorts, so a caller can plan 13k tables without holding
 * the thread for the whole plan (lib/live/plan.ts, the clock's plan). The same code either
 * way: the result does not depend on when, or whether, the caller pauses.
 */
export function* planSteps(fleet: PlannerFleet, now: number, retain: boolean): Generator<void, Built> {
  const limits: PlannerLimits = { ...DEFAULT_PLANNER_LIMITS, ...fleet.limits };
  const index = indexFleet(fleet, now);
  const policyFor = policyResolver(fleet.policies);
  const counts = emptyCounts();
  const byTarget = new Map<string, TablePlan>();
  const drafts = retain ? new Map<string, TableDraft>() : null;
  const scored: Scored[] = [];
  const candidates: TableDraft[] = [];
  /** tables without a candidate, and merge scores not offered as a candidate (sorted apart) */
  const others: TablePlan[] = [];
  const otherScored: Scored[] = [];
  let withPending = 0;
  const turns = fleet.turns ?? (fleet.history ? turnHistoryFromTasks(fleet.history, now) : undefined);
  let skewed = 0;
  const eligibleNoFence = admissionEligibility({ kind: "merge_wal", target: "" }, toTargetFence(undefined, false));
  // thresholds of the last policy seen (13k tables usually share the fleet default)
  let lastPolicy: EffectivePolicyResult | null = null;
  let lastThresholds: MergeThresholds = DEFAULT_MERGE_THRESHOLDS;
  // One pass: draft, plan row (a candidate's verdict comes from placement below), counts.
  let drafted = 0;
  for (const [target, demand] of fleet.tables) {
    if (++drafted % STEP_TABLES === 0) yield;
    const policy = policyFor(target);
    if (policy !== lastPolicy) {
      lastPolicy = policy;
      lastThresholds = mergeThresholds(policy.effective);
    }
    const d = planTable(
      target,
      demand,
      fleet,
      { limits, index, policy, turns, eligibleNoFence, thresholds: lastThresholds },
      now,
    );
    const plan = d.plan!;
    if (plan.clock_skew !== null) skewed++;
    byTarget.set(target, plan);
    drafts?.set(target, d);
    addCounts(counts, plan, 1);
    if (plan.pending_generations > 0) withPending++;
    if (d.candidate !== null) candidates.push(d);
    else others.push(plan);
    if (d.scored !== null) {
      scored.push(d.scored);
      if (d.candidate === null || d.candidate.kind !== "merge_wal") otherScored.push(d.scored);
    }
  }
  yield;
  const ordered = sortByPlannerKey(candidates, candidateKey);
  yield;
  // Shadow rows are replaced wholesale every pass (§6.2 step 3): they hold no capacity here.
  const heartbeats = [...fleet.heartbeats].map(([id, heartbeat]) => ({ id, heartbeat }));
  const rows = foldHeadroom(heartbeats, fleet.assignments, { countShadow: false });
  const baseRows = retain ? rows.map(cloneRow) : [];
  const pool: AnswerPool = new BoundedMap({ evict: "least-recently-set", maxEntries: MAX_POOLED_ANSWERS });
  const pass = new PlacementPass(
    rows,
    new Map(index.recentPlacements),
    limits,
    retain ? { intern: (a) => internAnswer(pool, a) } : {},
  );
  for (let i = 0; i < ordered.length; i++) {
    if (i > 0 && i % STEP_TABLES === 0) yield;
    decide(ordered[i].plan!, pass.next(ordered[i]));
  }
  yield;
  const completions = recentCompletions(fleet.history ?? [], now);

  // Planner order without re-sorting the candidates: a table with a candidate is listed by
  // that unit's key (and a merge candidate has its Scored's key), so each full order is the
  // sorted candidates merged with the rest, sorted apart.
  const candidatePlans: TablePlan[] = new Array(ordered.length);
  const mergeOrdered: Scored[] = [];
  for (let i = 0; i < ordered.length; i++) {
    const d = ordered[i];
    candidatePlans[i] = d.plan!;
    if (d.candidate!.kind === "merge_wal") mergeOrdered.push(d.scored!);
  }
  const tables = mergeSorted(candidatePlans, sortByPlannerKey(others, planKey), comparePlans);
  const plan: FleetPlan = {
    now_ms: now,
    tables,
    byTarget,
    total_tables: tables.length,
    tables_with_pending: withPending,
    clock_skew_tables: skewed,
    counts,
    placements: pass.placements,
    rows,
    scored,
    merge_order: mergeSorted(mergeOrdered, sortPlannerOrder(otherScored), compareScored),
    line: new Line(ordered, pass.placements, completions),
  };
  if (drafts === null || tables.some(hasNaNKey) || scored.some((s) => hasNaN(s.class_rank, s.wait_ms, s.score)))
    return { plan, retained: null };
  const fleetWide = {
    limits,
    index,
    policyFor,
    turns,
    completions,
    eligibleNoFence,
    baseRows,
    cycle: pass.cycle,
    pool,
  };
  return {
    plan,
    retained: {
      fleet,
      now,
      fleetWide,
      drafts: new Drafts(drafts),
      ordered,
      scoredAt: null,
    },
  };
}

/** Sets a candidate row's verdict (a fresh row: `tablePlan` left it undecided). */
function decide(plan: TablePlan, outcome: Decision): void {
  plan.verdict = outcome.verdict;
  plan.why_not = outcome.whyNot;
}
