// console-api.md "Time: every revision has a wall time": GET /api/v1/revisions/time and
// the console's durable clock samples.
import { z } from "zod";
import { NOW_BASES, revisionParamSchema, revisionTimeSchema } from "./common";

export { revisionTimeSchema };
export type RevisionTime = z.infer<typeof revisionTimeSchema>;
export type NowBasis = (typeof NOW_BASES)[number];

/** console-api.md third version: a time up to 5 minutes ahead of the server clock is read as now. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * `?at_ms=T` / `?to_ms=T` (Unix milliseconds). A browser clock a little fast must not break a
 * page: up to FUTURE_TOLERANCE_MS ahead reads as now; further ahead is `400 invalid_query`
 * (issue code `future_time`).
 */
export const atMsParamSchema = z
  .string()
  .regex(/^\d{1,16}$/, "must be Unix milliseconds (digits only)")
  .transform(Number)
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
  .check((ctx) => {
    const now = Date.now();
    if (ctx.value > now + FUTURE_TOLERANCE_MS)
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        params: { code: "future_time" },
        message: `${ctx.value} is more than 5 minutes in the future (server clock ${now})`,
      });
  })
  .transform((v) => Math.min(v, Date.now()));

/**
 * A history window or a diff side asked for before etcd's history (a time before its first
 * revision that can be dated): the answer starts at `revision` instead, and says so.
 */
export const historyStartSchema = z.object({
  revision: z.number().int(),
  /** when that revision was written (null when nothing tells) */
  at_ms: z.number().int().nullable(),
  error_ms: z.number().int().nullable(),
  /** the time that was asked for */
  requested_ms: z.number().int(),
});
export type HistoryStart = z.infer<typeof historyStartSchema>;

/** Exactly one of `revision` and `at_ms`. */
export const revisionTimeQuerySchema = z
  .object({ revision: revisionParamSchema, at_ms: atMsParamSchema.optional() })
  .refine((q) => (q.revision === undefined) !== (q.at_ms === undefined), {
    message: "give exactly one of revision and at_ms",
    path: ["revision"],
  });
export type RevisionTimeQuery = z.output<typeof revisionTimeQuerySchema>;

/** One durable sample `P/console/revision-clock/<15-digit at_ms>`: at `at_ms` the store was at `revision`. */
export const clockSampleSchema = z.object({
  at_ms: z.number().int().nonnegative(),
  revision: z.number().int().positive(),
});
export type ClockSample = z.infer<typeof clockSampleSchema>;

/** What a page shows, for "step back / forward one change" (GET /api/v1/revisions/change). */
const CHANGE_SCOPES = [
  "overview",
  "tables",
  "table",
  "executors",
  "shadow",
  "failures",
  "policies",
  "audit",
  "skipped",
] as const;

export const changeQuerySchema = z
  .object({
    scope: z.enum(CHANGE_SCOPES),
    target: z.string().min(1).max(512).optional(),
    revision: z
      .string()
      .regex(/^\d{1,16}$/, "revision must be a positive integer")
      .transform(Number)
      .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)),
    direction: z.enum(["back", "forward"]),
  })
  .refine((q) => q.scope !== "table" || q.target !== undefined, {
    message: "the table scope needs a target",
    path: ["target"],
  });
export type ChangeQuery = z.output<typeof changeQuerySchema>;
