// What a plan keeps so the next revision can be planned by patching it (replan.ts): the
// fleet it was made from, the fleet-wide inputs as the planner indexed them, each table's
// draft and the candidates in planner order. Nothing here is mutated after it is built (the
// answer pool is a cache of immutable objects): an older plan stays valid for the requests
// still using it.
import type { Eligibility } from "../eligibility";
import type { HeadroomRow } from "../headroom";
import type { EffectivePolicyResult } from "../policy/effective";
import type { FleetIndex } from "./context";
import type { PlannerFleet, PlannerLimits, TurnHistory } from "./input";
import type { Drafts } from "./drafts";
import type { CycleLimit, NoFitAnswer } from "./placement-pass";
import type { TableDraft } from "./table";
import type { BoundedMap } from "@/lib/util/bounded-map";

/** no-fit answers by content (see plan-fleet.ts internAnswer) */
export type AnswerPool = BoundedMap<string, NoFitAnswer>;

/** Inputs every table shares; a re-plan keeps them only while the fleet-wide records are unchanged. */
export interface FleetWide {
  limits: PlannerLimits;
  index: FleetIndex;
  policyFor: (target: string) => EffectivePolicyResult;
  turns: ReadonlyMap<string, TurnHistory> | undefined;
  completions: ReadonlyMap<string, number>;
  eligibleNoFence: Eligibility;
  /** headroom before this cycle's placements */
  baseRows: readonly HeadroomRow[];
  cycle: CycleLimit;
  /** no-fit answers handed out, by content, so successive plans share the objects */
  pool: AnswerPool;
}

export interface RetainedPlan {
  fleet: PlannerFleet;
  now: number;
  fleetWide: FleetWide;
  drafts: Drafts;
  /** drafts with a candidate, in planner order */
  ordered: readonly TableDraft[];
  /** where each target's merge score sits in the plan's `scored`, once a patch needed it */
  scoredAt: ReadonlyMap<string, number> | null;
}
