// The unified design planner (§4.2, §5.5): units per kind, fairness, per-executor
// limits, verdicts and why-not, over one revision.
export { planFleet } from "./plan-fleet";
export { DEFAULT_PLANNER_LIMITS } from "./input";
export type { PlannerFence, PlannerFleet, PlannerLimits, TurnHistory } from "./input";
export type { FleetPlan, PlannedPlacement, ScoreBreakdown, TablePlan, UnitView } from "./types";
export { IDLE_RANK, unitScore } from "./units";
export type { ClassName, PlanUnit, TableClassName, UnitKind, UnitScore } from "./units";
export { WHY_NOT_CODES, formatBytes, formatDuration } from "./why-not";
export type { Verdict, WhyNot, WhyNotCode } from "./why-not";
export { consecutiveRun, turnHistoryFromTasks } from "./fairness";
export { mergeThresholds } from "./table";
export type { ExecutionProgress } from "./input";
export type { ClockSkew, Eta, ExecutionSummary, QueuePosition } from "./types";
export { UNFINISHED_PHASES, lockedExecutionId, progressState, writeTurnOf } from "./write-turn";
export type { ProgressState, WriteTurn } from "./write-turn";
export { executorAgreement, masterMismatchReason } from "./agreement";
export type { ExecutorAgreement, MasterShadowRow } from "./agreement";
export { recentCompletions, TURN_WINDOW_MS, COMPLETION_WINDOW_MS } from "./fairness";
export { PREVIEW_EFFECTS, isStarving, previewEffect, previewPolicy, withPolicy } from "./preview";
export type { PolicyPreview, PreviewEffect, PreviewRow, PreviewSide } from "./preview";
export { canPatch, planFleetRetained, replanFleet } from "./replan";
