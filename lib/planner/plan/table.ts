// One table's part of the design plan: derived demand, the master's merge score with the
// effective policy's thresholds, units per kind, fairness, and table-level blockers.
import type { TableDemand } from "@/lib/schema/demand";
import type { EffectivePolicy } from "@/lib/schema/policy";
import { deriveTable, type TableDerived } from "../derived";
import { comparePlannerOrder } from "../order";
import type { EffectivePolicyResult } from "../policy/effective";
import { scoreDerived, type MergeThresholds, type Scored } from "../score";
import { unitBlockers } from "./blockers";
import type { TargetIndex } from "./context";
import { lastActivity } from "./clock-skew";
import { applyTurnLimit } from "./fairness";
import type { PlannerFence, TurnHistory } from "./input";
import type { TablePlan } from "./types";
import { buildUnits, type MergeUnitScore, type PlanUnit } from "./units";
import { whyNot, type Verdict, type WhyNot } from "./why-not";
import { writeTurnOf, type WriteTurn } from "./write-turn";
import { writeTurnHolder, type WriteTurnHolder } from "./write-turn-holder";

/** §4.1 thresholds from the effective policy (§7.3: an edited policy changes verdicts). */
export function mergeThresholds(policy: EffectivePolicy): MergeThresholds {
  return {
    min_generations: policy.merge.min_generations,
    min_bytes: policy.merge.min_bytes,
    max_age_secs: policy.merge.max_age_secs,
    critical_generations: policy.merge.critical_generations,
    max_turn_wait_secs: policy.max_turn_wait_secs.merge_wal ?? 3600,
  };
}

/** Thresholds per effective policy object (13k tables usually share one policy). */
const thresholdCache = new WeakMap<EffectivePolicyResult, MergeThresholds>();
function thresholdsOf(result: EffectivePolicyResult): MergeThresholds {
  let t = thresholdCache.get(result);
  if (!t) thresholdCache.set(result, (t = mergeThresholds(result.effective)));
  return t;
}

/** A table's verdict and why-not list (may be shared by tables with the same outcome). */
export interface Decision {
  verdict: Verdict;
  whyNot: WhyNot[];
}

export interface TableDraft {
  target: string;
  demand: TableDemand;
  index: TargetIndex | undefined;
  derived: TableDerived;
  scored: Scored | null;
  thresholds: MergeThresholds;
  policy: EffectivePolicyResult;
  /** units in the order the table offers them (planner order, then fairness) */
  offer: PlanUnit[];
  /** the first unit with no table-level blocker, offered to executors */
  candidate: PlanUnit | null;
  /** blockers of the units offered before the candidate (all units when none is free) */
  blocked: WhyNot[];
  /** the unfinished execution holding the write turn, null when none */
  writeTurn: WriteTurn | null;
  /** who holds the table's write turn (an execution, an assignment, a lock), null when none */
  holder: WriteTurnHolder | null;
  /** the table's plan row, once planFleet has built it */
  plan: TablePlan | null;
}

/** Planner order within one table (§4.1/§4.2); equal keys keep the build order. */
function sortUnits(units: PlanUnit[]): PlanUnit[] {
  const keyed = units.map((u) => ({
    u,
    key: { target: "", class_rank: u.class_rank, wait_ms: u.wait_ms, score: u.score },
  }));
  keyed.sort((a, b) => comparePlannerOrder(a.key, b.key));
  return keyed.map((k) => k.u);
}

export interface TableInputs {
  target: string;
  demand: TableDemand;
  policy: EffectivePolicyResult;
  index: TargetIndex | undefined;
  fence: PlannerFence | undefined;
  turns: TurnHistory | undefined;
  retireSecs: number;
  now: number;
  /** `mergeThresholds(policy.effective)` when the caller already has it */
  thresholds?: MergeThresholds;
  /** live heartbeats by executor id: an assignment whose executor has none is orphaned */
  heartbeats?: ReadonlyMap<string, unknown>;
}

const NO_HEARTBEATS: ReadonlyMap<string, unknown> = new Map();

/** Shared "nothing blocks" list (never mutated; a table that gains a blocker gets its own). */
const NO_BLOCKERS: WhyNot[] = [];

export function draftTable(input: TableInputs): TableDraft {
  const { target, demand, now } = input;
  const policy = input.policy.effective;
  const derived = deriveTable(demand);
  const thresholds = input.thresholds ?? thresholdsOf(input.policy);
  const scored = scoreDerived(target, derived, now, thresholds);
  const units = buildUnits({
    demand,
    pendingGenerations: derived.pending_generations,
    lastActivityMs: derived.pending_generations === 0 ? lastActivity(demand) : null,
    merge: scored as MergeUnitScore | null, // a Scored carries the unit fields (class_rank 1, 3 or 5)
    fence: input.fence,
    queuedSince: input.index?.queuedSince,
    policy,
    retireSecs: input.retireSecs,
    now,
  });
  const sorted = units.length > 1 ? sortUnits(units) : units;
  let offer = sorted;
  let yielded: ReturnType<typeof applyTurnLimit>["yielded"] = null;
  if (input.turns) ({ units: offer, yielded } = applyTurnLimit(sorted, input.turns, policy));

  let blocked = NO_BLOCKERS;
  if (yielded) {
    blocked = [
      whyNot(
        "turn_limit",
        `${yielded.kind} took ${yielded.count} consecutive write turns (max_consecutive_turns ${yielded.limit}): ${yielded.to} goes first.`,
        yielded,
      ),
    ];
  }
  let candidate: PlanUnit | null = null;
  const writeTurn = input.fence === undefined ? null : writeTurnOf(input.fence, now);
  const holder = writeTurnHolder(
    writeTurn,
    input.fence,
    input.index?.liveAssignments,
    input.heartbeats ?? NO_HEARTBEATS,
  );
  if (offer.length > 0) {
    const ctx = { target, policy, index: input.index, fence: input.fence, writeTurn, holder, now };
    for (const u of offer) {
      const reasons = unitBlockers(u, ctx);
      if (reasons.length === 0) {
        candidate = u;
        break;
      }
      if (blocked === NO_BLOCKERS) blocked = reasons.slice();
      else blocked.push(...reasons);
    }
  }
  return {
    target,
    demand,
    index: input.index,
    derived,
    scored,
    thresholds,
    policy: input.policy,
    offer,
    candidate,
    blocked,
    writeTurn,
    holder,
    plan: null,
  };
}
