// planFleet: the unified design planner over one revision (scheduler-model.md §4.2,
// §5.5, §7.3). With the built-in policy and no design-only state, its merge scores,
// classes, order and placements are the master's (§4.1, §5.4).
import type { TaskKind } from "@/lib/schema/kinds";
import { BUILTIN_POLICY, type PolicyDocument } from "@/lib/schema/policy";
import { backlogClass, type BacklogClass } from "../backlog";
import { admissionEligibility, type Eligibility } from "../eligibility";
import { foldHeadroom, reserve } from "../headroom";
import { compareOrderFields, mergeSorted, sortByPlannerKey, sortPlannerOrder, type OrderKey } from "../order";
import { expectedMergeBytes, pickExecutor } from "../placement";
import { effectivePolicy, type EffectivePolicyResult } from "../policy/effective";
import { toTargetFence } from "./blockers";
import { indexFleet } from "./context";
import { acceptsFor, noFitEntry, type ExecutorCheck } from "./executors";
import { DEFAULT_PLANNER_LIMITS, type PlannerFleet, type PlannerLimits } from "./input";
import { DEFAULT_MERGE_THRESHOLDS, type MergeThresholds, type Scored } from "../score";
import { COMPLETION_WINDOW_MS, recentCompletions, turnHistoryFromTasks } from "./fairness";
import { clockSkew } from "./clock-skew";
import { draftTable, mergeThresholds, type Outcome, type TableDraft } from "./table";
import type { ExecutionSummary, FleetPlan, PlannedPlacement, TablePlan, UnitView } from "./types";
import { IDLE_RANK, unitScore, type PlanUnit, type TableClassName } from "./units";
import { plural, skipVerdict, whyNot, type WhyNot } from "./why-not";
import type { WriteTurn } from "./write-turn";

function policyResolver(policies: PlannerFleet["policies"]): (target: string) => EffectivePolicyResult {
  const fleetDefault = effectivePolicy(BUILTIN_POLICY, policies.default, null);
  if (policies.tables.size === 0) return () => fleetDefault;
  return (target) => {
    const doc: PolicyDocument | undefined = policies.tables.get(target);
    return doc ? effectivePolicy(BUILTIN_POLICY, policies.default, doc) : fleetDefault;
  };
}

const NO_DEMAND = whyNot("no_demand", "Nothing to do: 0 pending generations and no compaction, index, repair or retire demand.");
const NO_DEMAND_OUTCOME: Outcome = { verdict: skipVerdict(NO_DEMAND), whyNot: [NO_DEMAND] };

/** A unit as shown; finite-score units are already in that shape and are reused. */
function unitView(u: PlanUnit): UnitView {
  if (u.score !== Infinity) return u as UnitView;
  return { kind: u.kind, class: u.class, class_rank: u.class_rank, score: unitScore(u.score), reason: u.reason, wait_ms: u.wait_ms };
}

/** The units as shown: the offer list itself when every score is finite (the common case). */
function unitViews(offer: PlanUnit[]): UnitView[] {
  for (let i = 0; i < offer.length; i++) if (offer[i].score === Infinity) return offer.map(unitView);
  return offer as UnitView[];
}

function unitBytes(kind: TaskKind, limits: PlannerLimits, mergeBytes: number): number {
  return kind === "merge_wal" ? mergeBytes : limits.maintenanceBytes;
}

/** A candidate draft's planner-order key: its candidate unit's (§4.1; then target). */
function candidateKey(d: TableDraft): OrderKey {
  const u = d.candidate!;
  return { target: d.target, class_rank: u.class_rank, wait_ms: u.wait_ms, score: u.score };
}

/** A table's key as listed (idle last; an infinite score sorts as Infinity). */
function planKey(t: TablePlan): OrderKey {
  return { target: t.target, class_rank: t.class_rank, wait_ms: t.wait_ms, score: typeof t.score === "number" ? t.score : Infinity };
}

/** Planner order of two tables as listed (idle last; an infinite score sorts as Infinity). */
function comparePlans(a: TablePlan, b: TablePlan): number {
  return compareOrderFields(
    a.class_rank, a.wait_ms, typeof a.score === "number" ? a.score : Infinity, a.target,
    b.class_rank, b.wait_ms, typeof b.score === "number" ? b.score : Infinity, b.target,
  );
}

function compareScored(a: Scored, b: Scored): number {
  return compareOrderFields(a.class_rank, a.wait_ms, a.score, a.target, b.class_rank, b.wait_ms, b.score, b.target);
}

/**
 * "Does any executor fit a unit of this kind under this policy's executors_allowed?" —
 * the answer (null = yes, else the no-fit entry, and the outcome shared by tables with
 * nothing else blocking) only changes when a placement reserves capacity, so it is
 * remembered per (kind, executors_allowed) until the next placement.
 */
interface NoFitAnswer {
  noFit: WhyNot | null;
  outcome: Outcome | null;
}

/** Place candidates in planner order under §5.2 headroom and the §5.5 limits; sets each
 * candidate draft's `outcome`. `candidates` must be in planner order. */
function placeCandidates(
  candidates: readonly TableDraft[],
  fleet: PlannerFleet,
  limits: PlannerLimits,
  recent: Map<string, number>,
) {
  const mergeBytes = expectedMergeBytes({ localBudgetBytes: limits.localMemoryBytes, appendMaxBytes: limits.appendMaxBytes });
  const heartbeats = [...fleet.heartbeats].map(([id, heartbeat]) => ({ id, heartbeat }));
  // Shadow rows are replaced wholesale every pass (§6.2 step 3): they hold no capacity here.
  const rows = foldHeadroom(heartbeats, fleet.assignments, { countShadow: false });
  const placements: PlannedPlacement[] = [];
  const cycle = limits.maxPlacementsPerCycle ?? Infinity;
  // One shared entry for every unit past the cycle limit (the message is the same).
  const cycleEntry = whyNot(
    "cycle_limit",
    `${cycle} units were already placed this cycle (max_placements_per_cycle ${cycle}); it is considered again next cycle.`,
    { max_placements_per_cycle: cycle },
  );
  const cycleOutcome: Outcome = { verdict: skipVerdict(cycleEntry), whyNot: [cycleEntry] };
  // kind → executors_allowed list (by identity; equal lists give equal answers) → answer
  let answers = new Map<TaskKind, Map<readonly string[], NoFitAnswer>>();
  const decide = (plan: TablePlan, outcome: Outcome) => {
    plan.verdict = outcome.verdict;
    plan.why_not = outcome.whyNot;
  };
  const skip = (d: TableDraft, entry: WhyNot, shared: Outcome) =>
    decide(d.plan!, d.blocked.length === 0 ? shared : { verdict: skipVerdict(entry), whyNot: [...d.blocked, entry] });
  // built only where an executor is actually looked for (not for remembered answers)
  const checkFor = (kind: TaskKind, policy: ExecutorCheck["policy"]): ExecutorCheck => ({
    kind,
    bytes: unitBytes(kind, limits, mergeBytes),
    policy,
    recent,
    ratePerMin: limits.placementsPerExecutorPerMin,
  });
  for (let i = 0; i < candidates.length; i++) {
    const d = candidates[i];
    const kind = d.candidate!.kind as TaskKind; // retire is class 5 and never a candidate
    const policy = d.policy.effective;
    let byPolicy = answers.get(kind);
    if (byPolicy === undefined) answers.set(kind, (byPolicy = new Map()));
    let answer = byPolicy.get(policy.executors_allowed);
    if (answer === undefined) {
      const check = checkFor(kind, policy);
      const fit = pickExecutor(rows, acceptsFor(check)) !== null;
      const noFit = fit ? null : noFitEntry(rows, check);
      answer = { noFit, outcome: noFit && { verdict: skipVerdict(noFit), whyNot: [noFit] } };
      byPolicy.set(policy.executors_allowed, answer);
    }
    if (answer.noFit !== null) {
      skip(d, answer.noFit, answer.outcome!);
      continue;
    }
    if (placements.length >= cycle) {
      skip(d, cycleEntry, cycleOutcome);
      continue;
    }
    const check = checkFor(kind, policy);
    const row = pickExecutor(rows, acceptsFor(check))!;
    reserve(row, { [kind]: 1 }, check.bytes);
    recent.set(row.executor, (recent.get(row.executor) ?? 0) + 1);
    answers = new Map(); // capacity changed: every remembered answer may differ now
    placements.push({ target: d.target, kind, executor: row.executor, reserved_bytes: check.bytes, class: d.candidate!.class, score: unitScore(d.candidate!.score) });
    decide(d.plan!, { verdict: { state: "would_place", executor: row.executor, reserved_bytes: check.bytes, kind }, whyNot: [] });
  }
  return { placements, rows };
}

/**
 * Each candidate's place in line among candidates of its kind (planner order), and an ETA
 * from the units of that kind still waiting ahead of it and the kind's completions in the
 * last hour: each waiting unit, and then this one, needs one completion to free a slot.
 */
function placeInLine(ordered: readonly TableDraft[], completions: ReadonlyMap<string, number>): void {
  const of = new Map<string, number>();
  for (const d of ordered) of.set(d.candidate!.kind, (of.get(d.candidate!.kind) ?? 0) + 1);
  const seen = new Map<string, { rank: number; placed: number }>();
  for (const d of ordered) {
    const kind = d.candidate!.kind;
    let s = seen.get(kind);
    if (!s) seen.set(kind, (s = { rank: 0, placed: 0 }));
    s.rank++;
    const plan = d.plan!;
    plan.position = { kind, rank: s.rank, of: of.get(kind)! };
    if (plan.verdict.state === "would_place") {
      s.placed++;
      plan.eta = { low_ms: 0, high_ms: 0, basis: "It would be placed now." };
      continue;
    }
    const done = completions.get(kind) ?? 0;
    if (done === 0) continue; // no rate to go on: unknown
    const waiting = s.rank - 1 - s.placed;
    const per = COMPLETION_WINDOW_MS / done;
    plan.eta = {
      low_ms: Math.round(waiting * per),
      high_ms: Math.round((waiting + 1) * per),
      basis: `${plural(waiting, `${kind} unit`)} waiting ahead of it; ${plural(done, `${kind} task`)} finished in the last hour.`,
    };
  }
}

function emptyCounts(): FleetPlan["counts"] {
  return {
    by_class: { recovery: 0, critical: 0, commit_ready: 0, normal: 0, maintenance: 0, tail: 0, idle: 0 },
    by_backlog: { ok: 0, warn: 0, critical: 0 },
  };
}

/** Until placement decides: a candidate's verdict and why-not are filled in by `placeCandidates`. */
const UNDECIDED: Outcome = { verdict: { state: "would_skip", code: "cycle_limit", message: "" }, whyNot: [] };

function executionSummary(turn: WriteTurn | null): ExecutionSummary | null {
  return turn && { id: turn.execution_id, phase: turn.phase, endpoint: turn.endpoint, progress: turn.progress, sequence: turn.sequence };
}

function tablePlan(d: TableDraft, eligibility: Eligibility, now: number): TablePlan {
  const head = d.candidate ?? d.offer[0] ?? null;
  const { derived, scored, thresholds } = d;
  const result: Outcome =
    d.candidate !== null ? UNDECIDED : d.blocked.length > 0 ? { verdict: skipVerdict(d.blocked[0]), whyNot: d.blocked } : NO_DEMAND_OUTCOME;
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
    position: null,
    eta: null,
    clock_skew: clockSkew(d.demand, d.derived.oldest_pending_ms, d.index, now),
    eligibility,
    policy,
  };
}

/** Plan every table of one revision as of `now`. Pure and deterministic. */
export function planFleet(fleet: PlannerFleet, now: number): FleetPlan {
  const limits: PlannerLimits = { ...DEFAULT_PLANNER_LIMITS, ...fleet.limits };
  const index = indexFleet(fleet, now);
  const policyFor = policyResolver(fleet.policies);
  const counts = emptyCounts();
  const byTarget = new Map<string, TablePlan>();
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
  for (const [target, demand] of fleet.tables) {
    const policy = policyFor(target);
    if (policy !== lastPolicy) {
      lastPolicy = policy;
      lastThresholds = mergeThresholds(policy.effective);
    }
    const fence = fleet.fences.size === 0 ? undefined : fleet.fences.get(target);
    const d = draftTable({
      target,
      demand,
      policy,
      index: index.byTarget.get(target),
      fence,
      turns: turns?.get(target),
      retireSecs: limits.retireSecs,
      now,
      thresholds: lastThresholds,
    });
    const eligibility = fence
      ? admissionEligibility({ kind: "merge_wal", target }, toTargetFence(fence, fence.activeTaskClaimed ?? false))
      : eligibleNoFence;
    const plan = tablePlan(d, eligibility, now);
    d.plan = plan;
    if (plan.clock_skew !== null) skewed++;
    byTarget.set(target, plan);
    counts.by_class[plan.class as TableClassName]++;
    counts.by_backlog[plan.backlog_class]++;
    if (plan.pending_generations > 0) withPending++;
    if (d.candidate !== null) candidates.push(d);
    else others.push(plan);
    if (d.scored !== null) {
      scored.push(d.scored);
      if (d.candidate === null || d.candidate.kind !== "merge_wal") otherScored.push(d.scored);
    }
  }
  const ordered = sortByPlannerKey(candidates, candidateKey);
  const { placements, rows } = placeCandidates(ordered, fleet, limits, new Map(index.recentPlacements));
  placeInLine(ordered, recentCompletions(fleet.history ?? [], now));

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
  return {
    now_ms: now,
    tables,
    byTarget,
    total_tables: tables.length,
    tables_with_pending: withPending,
    clock_skew_tables: skewed,
    counts,
    placements,
    rows,
    scored,
    merge_order: mergeSorted(mergeOrdered, sortPlannerOrder(otherScored), compareScored),
  };
}
