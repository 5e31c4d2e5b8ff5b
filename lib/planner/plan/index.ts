// The unified design planner (§4.2, §5.5): units per kind, fairness, per-executor
// limits, verdicts and why-not, over one revision.
export { planFleet } from "./full-plan";
export type { PlannerFleet } from "./input";
export type { FleetPlan, TablePlan } from "./types";
export type { WhyNot } from "./why-not";
export {
  changesExcept,
  decisionChanges,
  decisionSets,
  noDecisionChange,
  previewEffect,
  previewPolicyInSteps,
} from "./preview";
export type { DecisionSets, PolicyPreview } from "./preview";
export { canPatch, planFleetInSteps, replanFleet, rowsPatchOf } from "./replan";
