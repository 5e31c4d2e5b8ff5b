// planFleet: the unified design planner over one revision (scheduler-model.md §4.2,
// §5.5, §7.3). With the built-in policy and no design-only state, its merge scores,
// classes, order and placements are the master's (§4.1, §5.4).
import type { TableDemand } from "@/lib/schema/demand";
import { BUILTIN_POLICY, type PolicyDocument } from "@/lib/schema/policy";
import { backlogClass, type BacklogClass } from "../backlog";
import { admissionEligibility, type Eligibility } from "../eligibility";
import { compareOrderFields, type OrderKey } from "../order";
import { effectivePolicy, type EffectivePolicyResult } from "../policy/effective";
import { toTargetFence } from "./blockers";
import type { FleetIndex } from "./context";
import type { PlannerFleet, PlannerLimits, TurnHistory } from "./input";
import type { MergeThresholds, Scored } from "../score";
import { clockSkew } from "./clock-skew";
import { draftTable, type Decision, type TableDraft } from "./table";
import type { NoFitAnswer } from "./placement-pass";
import type { AnswerPool } from "./retained";
import type { ExecutionSummary, FleetPlan, TablePlan, UnitView } from "./types";
import { IDLE_RANK, unitScore, type PlanUnit, type TableClassName } from "./units";
import { skipVerdict, whyNot } from "./why-not";
import type { WriteTurn } from "./write-turn";

export function policyResolver(policies: PlannerFleet["policies"]): (target: string) => EffectivePolicyResult {
  const fleetDefault = effectivePolicy(BUILTIN_POLICY, policies.default, null);
  if (policies.tables.size === 0) return () => fleetDefault;
  return (target) => {
    const doc: PolicyDocument | undefined = policies.tables.get(target);
    return doc ? effectivePolicy(BUILTIN_POLICY, policies.default, doc) : fleetDefault;
  };
}

const NO_DEMAND = whyNot(
  "no_demand",
  "Nothing to do: 0 pending generations and no compaction, index, repair or retire demand.",
);
const NO_DEMAND_DECISION: Decision = { verdict: skipVerdict(NO_DEMAND), whyNot: [NO_DEMAND] };

/** A unit as shown; finite-score units are already in that shape and are reused. */
function unitView(u: PlanUnit): UnitView {
  if (u.score !== Infinity) return u as UnitView;
  return {
    kind: u.kind,
    class: u.class,
    class_rank: u.class_rank,
    score: unitScore(u.score),
    reason: u.reason,
    wait_ms: u.wait_ms,
  };
}

/** The units as shown: the offer list itself when every score is finite (the common case). */
function unitViews(offer: PlanUnit[]): UnitView[] {
  for (let i = 0; i < offer.length; i++) if (offer[i].score === Infinity) return offer.map(unitView);
  return offer as UnitView[];
}

/** A candidate draft's planner-order key: its candidate unit's (§4.1; then target). */
export function candidateKey(d: TableDraft): OrderKey {
  const u = d.candidate!;
  return { target: d.target, class_rank: u.class_rank, wait_ms: u.wait_ms, score: u.score };
}

/** A table's key as listed (idle last; an infinite score sorts as Infinity). */
export function planKey(t: TablePlan): OrderKey {
  return {
    target: t.target,
    class_rank: t.class_rank,
    wait_ms: t.wait_ms,
    score: typeof t.score === "number" ? t.score : Infinity,
  };
}

/** Planner order of two tables as listed (idle last; an infinite score sorts as Infinity). */
export function comparePlans(a: TablePlan, b: TablePlan): number {
  return compareOrderFields(
    a.class_rank,
    a.wait_ms,
    typeof a.score === "number" ? a.score : Infinity,
    a.target,
    b.class_rank,
    b.wait_ms,
    typeof b.score === "number" ? b.score : Infinity,
    b.target,
  );
}

export function compareScored(a: Scored, b: Scored): number {
  return compareOrderFields(a.class_rank, a.wait_ms, a.score, a.target, b.class_rank, b.wait_ms, b.score, b.target);
}

/** Planner order of two candidate drafts (their candidate units' keys). */
export function compareDrafts(a: TableDraft, b: TableDraft): number {
  const x = a.candidate!;
  const y = b.candidate!;
  return compareOrderFields(x.class_rank, x.wait_ms, x.score, a.target, y.class_rank, y.wait_ms, y.score, b.target);
}

export function emptyCounts(): FleetPlan["counts"] {
  return {
    by_class: { recovery: 0, critical: 0, commit_ready: 0, normal: 0, maintenance: 0, tail: 0, idle: 0 },
    by_backlog: { ok: 0, warn: 0, critical: 0 },
  };
}

/** Until placement decides: a candidate's verdict and why-not are filled in by the placement pass. */
const UNDECIDED: Decision = { verdict: { state: "would_skip", code: "cycle_limit", message: "" }, whyNot: [] };

function executionSummary(turn: WriteTurn | null): ExecutionSummary | null {
  return (
    turn && {
      id: turn.execution_id,
      phase: turn.phase,
      endpoint: turn.endpoint,
      progress: turn.progress,
      sequence: turn.sequence,
    }
  );
}

function tablePlan(d: TableDraft, eligibility: Eligibility, now: number): TablePlan {
  const head = d.candidate ?? d.offer[0] ?? null;
  const { derived, scored, thresholds } = d;
  const result: Decision =
    d.candidate !== null
      ? UNDECIDED
      : d.blocked.length > 0
        ? { verdict: skipVerdict(d.blocked[0]), whyNot: d.blocked }
        : NO_DEMAND_DECISION;
  const oldest = derived.oldest_pending_ms;
  const policy = d.policy;
  return {
    target: d.target,
    class: head ? head.class : "idle",
    class_rank: head ? head.class_rank : IDLE_RANK,
    reason: head ? head.reason : "no_pending",
    score: head ? unitScore(head.score) : 0,
    pending_generations: derived.pending_generations,
    pending_bytes: derived.pending_bytes,
    oldest_pending_ms: oldest,
    age_bound: oldest === null ? null : derived.oldest_pending_exact_ms === oldest ? "exact" : "upper",
    wait_ms: head ? head.wait_ms : null,
    shards: derived.shards,
    backlog_class: backlogClass(derived.pending_generations, policy.effective.backlog) as BacklogClass,
    verdict: result.verdict,
    score_breakdown: scored && {
      by_generations: scored.by_gens,
      by_bytes: scored.by_bytes,
      age_boost: scored.age_boost,
      wait_exact_ms: scored.wait_exact_ms,
      wait_floor_ms: scored.wait_floor_ms,
      min_generations: thresholds.min_generations,
      min_bytes: thresholds.min_bytes,
      max_age_secs: thresholds.max_age_secs,
      critical_generations: thresholds.critical_generations,
      max_turn_wait_secs: thresholds.max_turn_wait_secs,
    },
    units: unitViews(d.offer),
    why_not: result.whyNot,
    passed_over: d.blocked,
    execution: executionSummary(d.writeTurn),
    write_turn: d.writeTurn,
    write_turn_holder: d.holder,
    line_kind: d.candidate?.kind ?? null,
    clock_skew: clockSkew(d.demand, d.derived.oldest_pending_ms, d.index, now),
    eligibility,
    policy,
  };
}

/**
 * A copy of a row for a re-plan to write (copy-on-write): the fields in `tablePlan`'s order,
 * so the copy serialises as the row does; a literal of one shape copies faster than a spread.
 */
export function copyTablePlan(t: TablePlan): TablePlan {
  return {
    target: t.target,
    class: t.class,
    class_rank: t.class_rank,
    reason: t.reason,
    score: t.score,
    pending_generations: t.pending_generations,
    pending_bytes: t.pending_bytes,
    oldest_pending_ms: t.oldest_pending_ms,
    age_bound: t.age_bound,
    wait_ms: t.wait_ms,
    shards: t.shards,
    backlog_class: t.backlog_class,
    verdict: t.verdict,
    score_breakdown: t.score_breakdown,
    units: t.units,
    why_not: t.why_not,
    passed_over: t.passed_over,
    execution: t.execution,
    write_turn: t.write_turn,
    write_turn_holder: t.write_turn_holder,
    line_kind: t.line_kind,
    clock_skew: t.clock_skew,
    eligibility: t.eligibility,
    policy: t.policy,
  };
}

/** What planning one table reads besides its own records. */
export interface TableContext {
  limits: PlannerLimits;
  index: FleetIndex;
  policy: EffectivePolicyResult;
  turns: ReadonlyMap<string, TurnHistory> | undefined;
  eligibleNoFence: Eligibility;
  thresholds?: MergeThresholds;
}

/** One table's draft with its plan row (`draft.plan`; a candidate's verdict is undecided). */
export function planTable(
  target: string,
  demand: TableDemand,
  fleet: PlannerFleet,
  ctx: TableContext,
  now: number,
): TableDraft {
  const fence = fleet.fences.size === 0 ? undefined : fleet.fences.get(target);
  const d = draftTable({
    target,
    demand,
    policy: ctx.policy,
    index: ctx.index.byTarget.get(target),
    fence,
    turns: ctx.turns?.get(target),
    retireSecs: ctx.limits.retireSecs,
    now,
    thresholds: ctx.thresholds,
    heartbeats: fleet.heartbeats,
  });
  const eligibility = fence
    ? admissionEligibility({ kind: "merge_wal", target }, toTargetFence(fence, fence.activeTaskClaimed ?? false))
    : ctx.eligibleNoFence;
  d.plan = tablePlan(d, eligibility, now);
  return d;
}

/** Adds (`sign` 1) or removes (−1) a row from the fleet counts. */
export function addCounts(counts: FleetPlan["counts"], plan: TablePlan, sign: 1 | -1): void {
  counts.by_class[plan.class as TableClassName] += sign;
  counts.by_backlog[plan.backlog_class] += sign;
}

/** The shared answer equal to `answer`, so rows of successive plans share one object. */
export function internAnswer(pool: AnswerPool, answer: NoFitAnswer): NoFitAnswer {
  const key = JSON.stringify(answer.noFit);
  const known = pool.get(key);
  if (known) return known;
  pool.set(key, answer); // full: the oldest answer goes (a later equal one is a new object, never a wrong one)
  return answer;
}
export const MAX_POOLED_ANSWERS = 256;

export function hasNaN(rank: number, wait: number | null, score: number): boolean {
  return Number.isNaN(rank === 1 ? wait : score);
}

export function hasNaNKey(t: TablePlan): boolean {
  return hasNaN(t.class_rank, t.wait_ms, typeof t.score === "number" ? t.score : Infinity);
}
