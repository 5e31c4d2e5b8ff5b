// GET /api/v1/scheduler/demand/history (console-api.md "Time"): one point per revision at
// which one of the table's own keys changed, each evaluated at that revision's own time.
import { z } from "zod";
import { HISTORY_VERDICT_CODES } from "@/lib/schema/codes";
import { classNameSchema, targetParamSchema, whyNotCodeSchema } from "./common";
import { scoreSchema } from "./demand";
import { atMsParamSchema, historyStartSchema } from "./revisions";

/** one request walks at most a week of versions (one read each); past the clock's 48 h the points are dated from records */
const MAX_HISTORY_WINDOW_MS = 7 * 24 * 3600_000;
export const DEFAULT_HISTORY_WINDOW_MS = 6 * 3600_000;

export const historyQuerySchema = z
  .object({ target: targetParamSchema, from_ms: atMsParamSchema.optional(), to_ms: atMsParamSchema.optional() })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.from_ms < q.to_ms, {
    message: "from_ms must be before to_ms",
    path: ["from_ms"],
  })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.to_ms - q.from_ms <= MAX_HISTORY_WINDOW_MS, {
    message: "the window is at most 7 days",
    path: ["from_ms"],
  });
export type HistoryQuery = z.output<typeof historyQuerySchema>;

/** How a point was reached: from the journal, the whole fleet planned there, or the table's own figures without a verdict. */
const HISTORY_BASES = ["journal", "fleet_plan", "figures_only"] as const;

const historyVerdictSchema = z.object({
  state: z.enum(["would_place", "would_skip"]),
  /** the skip code; `gone` on a journal point where the table left the plan */
  code: z.enum(HISTORY_VERDICT_CODES).nullable(),
});

const historyPointSchema = z.object({
  revision: z.number().int(),
  at_ms: z.number().int().nullable(),
  /** how far off at_ms may be (the revision clock's error, as a page pinned at the revision says; null when it cannot be dated there) */
  error_ms: z.number().int().nullable(),
  /** on a `journal` point derived at its `now_ms` from the entry's demand facts; null where the table left the plan, or in a chunk written before the facts were kept */
  pending_generations: z.number().nullable(),
  wait_ms: z.number().nullable(),
  class: classNameSchema,
  score: scoreSchema.nullable(),
  /** the verdict the table page pinned at this revision and `now_ms` gives; null on a `figures_only` point (not re-planned) */
  verdict: historyVerdictSchema.nullable(),
  /** the executor a `would_place` verdict names (null for `would_skip`, and where the verdict is null) */
  executor: z.string().nullable(),
  /** the clock the point was planned at (console-api.md "The decision journal": the answer at `?revision=R&now_ms=<now_ms>`) */
  now_ms: z.number().int(),
  /** how this point's verdict was reached (see `verdict_basis`) */
  basis: z.enum(HISTORY_BASES),
  /** what the journal holds beyond the verdict (null on a re-planned point); `gone`: the table left the plan here */
  journal: z
    .object({
      write_turn: z.enum(["held", "stalled"]).nullable(),
      shadow_outcome: z.string().nullable(),
      gone: z.boolean(),
    })
    .nullable(),
  /**
   * what moved the table's inputs between the previous point (or the window's start) and
   * this one: its own demand, a policy, capacity on a named executor, a table placed ahead
   * of it, the clock (a promotion, a stall, or time), or the write turn (null: not known,
   * the revisions are compacted)
   */
  moved_by: z
    .array(
      z.object({
        cause: z.enum(["demand", "policy", "capacity", "table_ahead", "clock", "write_turn"]),
        executor: z.string().nullable(),
        target: z.string().nullable(),
        clock: z.enum(["promotion", "stall", "time"]).nullable(),
      }),
    )
    .nullable(),
});
export type HistoryPoint = z.infer<typeof historyPointSchema>;

export const historyResponseSchema = z.object({
  target: z.string(),
  from_ms: z.number().int(),
  to_ms: z.number().int(),
  from_revision: z.number().int(),
  to_revision: z.number().int(),
  points: z.array(historyPointSchema),
  /** the oldest readable revision when compaction cut the window short, else null */
  compacted_before: z.number().int().nullable(),
  /** the window asked for started before etcd's history: it starts there instead (null when it did not) */
  history_starts: historyStartSchema.nullable(),
  /**
   * how the verdicts were reached: `journal`, every point read from the decision journal
   * (console-api.md "The decision journal"); `fleet_plan`, the points the journal does not
   * cover planned with the whole fleet at each point (what a page pinned there shows);
   * `figures_only`, some points carry the table's own figures and no verdict (more points
   * than one request plans whole: see `fleet_plan_points`). No point's verdict differs from
   * the pinned page's (console-api.md fourth version).
   */
  verdict_basis: z.enum(HISTORY_BASES),
  /** how many points one request plans with the whole fleet, for this fleet's size */
  fleet_plan_points: z.number().int(),
  /**
   * how long the table held each verdict over the window, longest first; `state: "unknown"`
   * where neither the journal nor a re-planned point says (before the first point, a gap's start)
   */
  time_in_state: z.array(
    z.object({
      state: z.enum(["would_place", "would_skip", "gone", "unknown"]),
      code: whyNotCodeSchema.nullable(),
      ms: z.number().int(),
    }),
  ),
});
export type TimeInState = HistoryResponse["time_in_state"];
export type HistoryResponse = z.infer<typeof historyResponseSchema>;
