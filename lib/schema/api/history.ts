// GET /api/v1/scheduler/demand/history (console-api.md "Time"): one point per revision at
// which one of the table's own keys changed, each evaluated at that revision's own time.
import { z } from "zod";
import { className, targetParam } from "./common";
import { score } from "./demand";
import { atMsParam } from "./revisions";

/** one request walks at most a week of versions (one read each); past the clock's 48 h the points are dated from records */
export const MAX_HISTORY_WINDOW_MS = 7 * 24 * 3600_000;
export const DEFAULT_HISTORY_WINDOW_MS = 6 * 3600_000;

export const historyQuery = z
  .object({ target: targetParam, from_ms: atMsParam.optional(), to_ms: atMsParam.optional() })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.from_ms < q.to_ms, { message: "from_ms must be before to_ms", path: ["from_ms"] })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.to_ms - q.from_ms <= MAX_HISTORY_WINDOW_MS, {
    message: "the window is at most 7 days",
    path: ["from_ms"],
  });
export type HistoryQuery = z.output<typeof historyQuery>;

export const historyVerdict = z.object({ state: z.enum(["would_place", "would_skip"]), code: z.string().nullable() });

export const historyPoint = z.object({
  revision: z.number().int(),
  at_ms: z.number().int().nullable(),
  /** how far off at_ms may be (the revision clock's error) */
  error_ms: z.number().int().nullable(),
  pending_generations: z.number(),
  wait_ms: z.number().nullable(),
  class: className,
  score,
  verdict: historyVerdict,
});
export type HistoryPoint = z.infer<typeof historyPoint>;

export const historyResponse = z.object({
  target: z.string(),
  from_ms: z.number().int(),
  to_ms: z.number().int(),
  from_revision: z.number().int(),
  to_revision: z.number().int(),
  points: z.array(historyPoint),
  /** the oldest readable revision when compaction cut the window short, else null */
  compacted_before: z.number().int().nullable(),
  /**
   * how the verdicts were reached: `fleet_plan`, the whole fleet planned at each point (what
   * a page pinned there shows); `table_alone`, the table planned alone against the capacity
   * free then (more points than one request plans whole: see `fleet_plan_points`)
   */
  verdict_basis: z.enum(["fleet_plan", "table_alone"]),
  /** how many points one request plans with the whole fleet, for this fleet's size */
  fleet_plan_points: z.number().int(),
});
export type HistoryResponse = z.infer<typeof historyResponse>;
