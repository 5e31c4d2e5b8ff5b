// planFleet: the unified design planner over one revision (issue 3 "the design";
// scheduler-model.md §4.2, §5.5, §7.3). With the built-in policy and no design-only state,
// its merge scores, classes, order and placements are the master's (§4.1, §5.4).
import type { TaskKind } from "@/lib/schema/kinds";
import { BUILTIN_POLICY, type PolicyDocument } from "@/lib/schema/policy";
import { backlogClass, type BacklogClass } from "../backlog";
import { admissionEligibility, type Eligibility } from "../eligibility";
import { foldHeadroom, reserve } from "../headroom";
import { comparePlannerOrder, type OrderKey } from "../order";
import { expectedMergeBytes, pickExecutor } from "../placement";
import { effectivePolicy, type EffectivePolicyResult } from "../policy/effective";
import { toTargetFence } from "./blockers";
import { indexFleet } from "./context";
import { designFilter, noFitEntry, type ExecutorCheck } from "./executors";
import { DEFAULT_PLANNER_LIMITS, type PlannerFleet, type PlannerLimits } from "./input";
import { draftTable, type TableDraft } from "./table";
import type { FleetPlan, PlannedPlacement, TablePlan, UnitView } from "./types";
import { IDLE_RANK, unitScore, type PlanUnit, type TableClassName } from "./units";
import { skipVerdict, whyNot, type Verdict, type WhyNot } from "./why-not";

function policyResolver(policies: PlannerFleet["policies"]): (target: string) => EffectivePolicyResult {
  const fleetDefault = effectivePolicy(BUILTIN_POLICY, policies.default, null);
  return (target) => {
    const doc: PolicyDocument | undefined = policies.tables.get(target);
    return doc ? effectivePolicy(BUILTIN_POLICY, policies.default, doc) : fleetDefault;
  };
}

interface Outcome {
  verdict: Verdict;
  whyNot: WhyNot[];
}

const NO_DEMAND = whyNot("no_demand", "Nothing to do: 0 pending generations and no compaction, index, repair or retire demand.");
const NO_DEMAND_OUTCOME: Outcome = { verdict: skipVerdict(NO_DEMAND), whyNot: [NO_DEMAND] };

/** A unit as shown; finite-score units are already in that shape and are reused. */
function unitView(u: PlanUnit): UnitView {
  if (u.score !== Infinity) return u as UnitView;
  return { kind: u.kind, class: u.class, class_rank: u.class_rank, score: unitScore(u.score), reason: u.reason, wait_ms: u.wait_ms };
}

function unitBytes(kind: TaskKind, limits: PlannerLimits, mergeBytes: number): number {
  return kind === "merge_wal" ? mergeBytes : limits.maintenanceBytes;
}

/** Place candidates in planner order under §5.2 headroom and the §5.5 limits. */
function placeCandidates(
  drafts: TableDraft[],
  fleet: PlannerFleet,
  limits: PlannerLimits,
  recent: Map<string, number>,
) {
  const mergeBytes = expectedMergeBytes({ localBudgetBytes: limits.localMemoryBytes, appendMaxBytes: limits.appendMaxBytes });
  const heartbeats = [...fleet.heartbeats].map(([id, heartbeat]) => ({ id, heartbeat }));
  // Shadow rows are replaced wholesale every pass (§6.2 step 3): they hold no capacity here.
  const rows = foldHeadroom(heartbeats, fleet.assignments, { countShadow: false });
  const candidates: Array<{ key: OrderKey; draft: TableDraft; unit: PlanUnit }> = [];
  for (const d of drafts) {
    const u = d.candidate;
    if (u) candidates.push({ key: { target: d.target, class_rank: u.class_rank, wait_ms: u.wait_ms, score: u.score }, draft: d, unit: u });
  }
  candidates.sort((a, b) => comparePlannerOrder(a.key, b.key));
  const outcomes = new Map<string, Outcome>();
  const placements: PlannedPlacement[] = [];
  const cycle = limits.maxPlacementsPerCycle ?? Infinity;
  // One shared entry for every unit past the cycle limit (the message is the same).
  const cycleEntry = whyNot(
    "cycle_limit",
    `${cycle} units were already placed this cycle (max_placements_per_cycle ${cycle}); it is considered again next cycle.`,
    { max_placements_per_cycle: cycle },
  );
  const cycleOutcome: Outcome = { verdict: skipVerdict(cycleEntry), whyNot: [cycleEntry] };
  // Past the cycle limit nothing is reserved any more, so "would an executor fit?" depends
  // only on the kind and the policy's executors_allowed: answer it once per pair.
  const frozen = new Map<string, WhyNot | null>();
  const skip = (d: TableDraft, entry: WhyNot, shared?: Outcome) =>
    outcomes.set(d.target, d.blocked.length === 0 && shared ? shared : { verdict: skipVerdict(entry), whyNot: [...d.blocked, entry] });
  for (const { draft: d, unit: u } of candidates) {
    const kind = u.kind as TaskKind; // retire is class 5 and never a candidate
    const check: ExecutorCheck = {
      kind,
      bytes: unitBytes(kind, limits, mergeBytes),
      policy: d.policy.effective,
      recent,
      ratePerMin: limits.placementsPerExecutorPerMin,
    };
    if (placements.length >= cycle) {
      const key = `${kind}|${check.policy.executors_allowed.join(",")}`;
      let noFit = frozen.get(key);
      if (noFit === undefined) {
        noFit = pickExecutor(rows, kind, check.bytes, designFilter(check)) === null ? noFitEntry(rows, check) : null;
        frozen.set(key, noFit);
      }
      if (noFit) skip(d, noFit);
      else skip(d, cycleEntry, cycleOutcome);
      continue;
    }
    const row = pickExecutor(rows, kind, check.bytes, designFilter(check));
    if (row === null) {
      skip(d, noFitEntry(rows, check));
      continue;
    }
    reserve(row, { [kind]: 1 }, check.bytes);
    recent.set(row.executor, (recent.get(row.executor) ?? 0) + 1);
    placements.push({ target: d.target, kind, executor: row.executor, reserved_bytes: check.bytes, class: u.class, score: unitScore(u.score) });
    outcomes.set(d.target, { verdict: { state: "would_place", executor: row.executor, reserved_bytes: check.bytes, kind }, whyNot: [] });
  }
  return { outcomes, placements, rows };
}

function emptyCounts(): FleetPlan["counts"] {
  return {
    by_class: { recovery: 0, critical: 0, commit_ready: 0, normal: 0, maintenance: 0, tail: 0, idle: 0 },
    by_backlog: { ok: 0, warn: 0, critical: 0 },
  };
}

function tablePlan(d: TableDraft, outcome: Outcome | undefined, eligibility: Eligibility): TablePlan {
  const head = d.candidate ?? d.offer[0] ?? null;
  const { derived, scored, thresholds } = d;
  const result: Outcome = outcome ?? (d.blocked.length > 0 ? { verdict: skipVerdict(d.blocked[0]), whyNot: d.blocked } : NO_DEMAND_OUTCOME);
  const oldest = derived.oldest_pending_ms;
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
    backlog_class: backlogClass(derived.pending_generations, d.policy.effective.backlog) as BacklogClass,
    verdict: result.verdict,
    score_breakdown: scored && {
      by_generations: scored.by_gens,
      by_bytes: scored.by_bytes,
      age_boost: scored.age_boost,
      wait_exact_ms: scored.wait_exact_ms,
      wait_floor_ms: scored.wait_floor_ms,
      ...thresholds,
    },
    units: d.offer.map(unitView),
    why_not: result.whyNot,
    eligibility,
    policy: d.policy,
  };
}

function orderKey(t: TablePlan): OrderKey {
  return { target: t.target, class_rank: t.class_rank, wait_ms: t.wait_ms, score: typeof t.score === "number" ? t.score : Infinity };
}

/** Plan every table of one revision as of `now`. Pure and deterministic. */
export function planFleet(fleet: PlannerFleet, now: number): FleetPlan {
  const T = (globalThis as any).__T as Record<string, number> | undefined; let t0 = performance.now();
  const lap = (k: string) => { if (T) { const t1 = performance.now(); T[k] = (T[k] ?? 0) + t1 - t0; t0 = t1; } };
  const limits: PlannerLimits = { ...DEFAULT_PLANNER_LIMITS, ...fleet.limits };
  const index = indexFleet(fleet, now);
  const policyFor = policyResolver(fleet.policies);
  const drafts: TableDraft[] = [];
  for (const [target, demand] of fleet.tables) {
    drafts.push(
      draftTable({
        target,
        demand,
        policy: policyFor(target),
        index: index.byTarget.get(target),
        fence: fleet.fences.get(target),
        turns: fleet.turns?.get(target),
        retireSecs: limits.retireSecs,
        now,
      }),
    );
  }
  lap("drafts");
  const { outcomes, placements, rows } = placeCandidates(drafts, fleet, limits, new Map(index.recentPlacements));

  lap("place");
  const counts = emptyCounts();
  const keyed: Array<{ key: OrderKey; plan: TablePlan }> = [];
  const byTarget = new Map<string, TablePlan>();
  let withPending = 0;
  const eligibleNoFence = admissionEligibility({ kind: "merge_wal", target: "" }, toTargetFence(undefined, false));
  for (const d of drafts) {
    const fence = fleet.fences.get(d.target);
    const eligibility = fence
      ? admissionEligibility({ kind: "merge_wal", target: d.target }, toTargetFence(fence, fence.activeTaskClaimed ?? false))
      : eligibleNoFence;
    const plan = tablePlan(d, outcomes.get(d.target), eligibility);
    keyed.push({ key: orderKey(plan), plan });
    byTarget.set(d.target, plan);
    counts.by_class[plan.class as TableClassName]++;
    counts.by_backlog[plan.backlog_class]++;
    if (plan.pending_generations > 0) withPending++;
  }
  lap("tablePlans");
  keyed.sort((a, b) => comparePlannerOrder(a.key, b.key));
  const tables = keyed.map((k) => k.plan);
  lap("finalSort");
  return { now_ms: now, tables, byTarget, total_tables: tables.length, tables_with_pending: withPending, counts, placements, rows };
}
