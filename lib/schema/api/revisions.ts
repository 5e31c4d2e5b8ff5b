// console-api.md "Time: every revision has a wall time": GET /api/v1/revisions/time and
// the console's durable clock samples.
import { z } from "zod";
import { NOW_BASES, REVISION_TIME_BASES, revisionParam, revisionTime } from "./common";

export { revisionTime };
export type RevisionTime = z.infer<typeof revisionTime>;
export type RevisionTimeBasis = (typeof REVISION_TIME_BASES)[number];
export type NowBasis = (typeof NOW_BASES)[number];

/** `?at_ms=T` (Unix milliseconds). */
export const atMsParam = z
  .string()
  .regex(/^\d{1,16}$/, "must be Unix milliseconds (digits only)")
  .transform(Number)
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));

/** Exactly one of `revision` and `at_ms`. */
export const revisionTimeQuery = z
  .object({ revision: revisionParam, at_ms: atMsParam.optional() })
  .refine((q) => (q.revision === undefined) !== (q.at_ms === undefined), { message: "give exactly one of revision and at_ms", path: ["revision"] });
export type RevisionTimeQuery = z.output<typeof revisionTimeQuery>;

/** One durable sample `P/console/revision-clock/<15-digit at_ms>`: at `at_ms` the store was at `revision`. */
export const clockSample = z.object({ at_ms: z.number().int().nonnegative(), revision: z.number().int().positive() });
export type ClockSample = z.infer<typeof clockSample>;

/** What a page shows, for "step back / forward one change" (GET /api/v1/revisions/change). */
export const CHANGE_SCOPES = ["overview", "tables", "table", "executors", "shadow", "failures", "policies", "audit", "skipped"] as const;

export const changeQuery = z
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
  .refine((q) => q.scope !== "table" || q.target !== undefined, { message: "the table scope needs a target", path: ["target"] });
export type ChangeQuery = z.output<typeof changeQuery>;
