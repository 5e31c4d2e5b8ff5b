// Response shapes of the console API as the browser sees them: the types the zod schemas
// infer (lib/schema/api/*, console-api.md). Type-only imports, so no zod in the bundle;
// the code lists are lib/schema/codes.ts (plain arrays, no zod), the ones the schemas use.
import type { BacklogClass, ClassName, OutcomeName } from "@/lib/schema/codes";
import type { DemandChanges, DemandDetail, DemandList, TableDetail, TableSummary } from "@/lib/schema/api/demand";
import type { ExecutorRow, ExecutorsResponse } from "@/lib/schema/api/executors";
import type { AssignmentRow, AssignmentsResponse } from "@/lib/schema/api/assignments";
import type { CooldownRow, FailureRow, FailuresResponse } from "@/lib/schema/api/failures";
import type { HealthResponse } from "@/lib/schema/api/health";
import type { ShadowHistoryResponse, ShadowResponse, ShadowSample } from "@/lib/schema/api/shadow";
import type { SkippedResponse } from "@/lib/schema/api/skipped";

export { BACKLOG_CLASSES, CLASS_NAMES, OUTCOMES } from "@/lib/schema/codes";
export type {
  BacklogClass,
  ClassName,
  OutcomeName,
  DemandChanges,
  DemandList,
  TableDetail,
  TableSummary,
  ExecutorsResponse,
  AssignmentsResponse,
};
export type { FailuresResponse, HealthResponse, ShadowResponse, ShadowSample, SkippedResponse };
export type DemandOne = DemandDetail;
export type Executor = ExecutorRow;
export type Assignment = AssignmentRow;
export type Failure = FailureRow;
export type Cooldown = CooldownRow;
export type ShadowHistory = Pick<ShadowHistoryResponse, "samples">;
export type AgeBound = TableSummary["age_bound"];
export type Verdict = TableSummary["verdict"];
export type WhyNot = TableDetail["why_not"][number];
export type ScoreBreakdown = NonNullable<TableDetail["score_breakdown"]>;
type ShardDetail = TableDetail["shards"][number];
export type Mark = ShardDetail["sealed"];
export type Legacy = TableDetail["legacy"];
export type Placement = ShadowResponse["placements"]["console"][number];

export interface ApiErrorBody {
  error: { code: string; message: string; compact_revision?: number | null; retry_after_ms?: number };
}
