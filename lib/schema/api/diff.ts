// GET /api/v1/scheduler/diff (console-api.md "Time"): what changed between two moments,
// each side evaluated at its own revision's time.
import { z } from "zod";
import { OUTCOMES } from "@/lib/schema/codes";
import { classNameSchema, leaderSchema, REVISION_TIME_BASES, whyNotCodeSchema } from "./common";
import { atMsParamSchema, historyStartSchema } from "./revisions";

/** Unix ms from here on (2001-09-09): a smaller number of digits is a revision, a larger one a time */
const MS_FROM = 1_000_000_000_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * `from` / `to` (console-api.md "Additions (third version)": a revision, an ISO 8601 time or
 * Unix ms). Digits below MS_FROM are a revision, at or above it Unix ms; an ISO time needs
 * its zone (`Z` or an offset), so it never depends on the server's.
 */
const momentParamSchema = z
  .string()
  .refine(
    (v) => /^\d{1,16}$/.test(v) || (ISO.test(v) && Number.isFinite(Date.parse(v))),
    "a revision, Unix milliseconds or an ISO 8601 time with its zone (2026-12-01T22:00Z)",
  )
  .transform((v): { revision: number } | { at_ms: number } =>
    /^\d+$/.test(v) ? (Number(v) < MS_FROM ? { revision: Number(v) } : { at_ms: Number(v) }) : { at_ms: Date.parse(v) },
  )
  .refine((m) => !("revision" in m) || m.revision > 0, "a revision is positive")
  .optional();

const revisionOfMoment = (m: { revision: number } | { at_ms: number } | undefined) =>
  m && "revision" in m ? m.revision : undefined;
const msOfMoment = (m: { revision: number } | { at_ms: number } | undefined, ms: number | undefined) =>
  ms ?? (m && "at_ms" in m ? m.at_ms : undefined);

export const diffQuerySchema = z
  .object({
    from: momentParamSchema,
    to: momentParamSchema,
    from_ms: atMsParamSchema.optional(),
    to_ms: atMsParamSchema.optional(),
  })
  .refine((q) => (q.from === undefined) !== (q.from_ms === undefined), {
    message: "give exactly one of from and from_ms",
    path: ["from"],
  })
  .refine((q) => q.to === undefined || q.to_ms === undefined, {
    message: "give at most one of to and to_ms (default: now)",
    path: ["to"],
  })
  .transform((q) => ({
    from: revisionOfMoment(q.from),
    to: revisionOfMoment(q.to),
    from_ms: msOfMoment(q.from, q.from_ms),
    to_ms: msOfMoment(q.to, q.to_ms),
  }))
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: "from must not be after to",
    path: ["from"],
  })
  .refine((q) => q.from_ms === undefined || q.to_ms === undefined || q.from_ms <= q.to_ms, {
    message: "from_ms must not be after to_ms",
    path: ["from_ms"],
  });
export type DiffQuery = z.output<typeof diffQuerySchema>;

const sideSchema = z.object({
  revision: z.number().int(),
  at_ms: z.number().int().nullable(),
  error_ms: z.number().int().nullable(),
  basis: z.enum(REVISION_TIME_BASES),
  now_ms: z.number().int(),
  /** how this side's verdicts were reached: read from the decision journal, or the fleet re-planned at `revision` and `now_ms` */
  verdict_basis: z.enum(["journal", "fleet_plan"]),
});
const verdictKeySchema = z.object({ state: z.enum(["would_place", "would_skip"]), code: whyNotCodeSchema.nullable() });
const executorStateSchema = z.object({
  kind: z.string(),
  version: z.string().nullable(),
  draining: z.boolean(),
  kinds: z.array(z.string()),
  slots_total: z.record(z.string(), z.number()),
  bytes_total: z.number(),
});
const outcomeCountsSchema = z.object(
  Object.fromEntries(OUTCOMES.map((o) => [o, z.number().int()])) as Record<(typeof OUTCOMES)[number], z.ZodNumber>,
);

export const diffResponseSchema = z.object({
  from: sideSchema,
  to: sideSchema,
  /** `journal` when both sides were read from the decision journal (console-api.md "The decision journal") */
  verdict_basis: z.enum(["journal", "fleet_plan"]),
  /** a side asked for by a time before etcd's history starts there instead (null when none did) */
  history_starts: historyStartSchema.nullable(),
  tables: z.object({
    class_changed: z.array(z.object({ target: z.string(), before: classNameSchema, after: classNameSchema })),
    verdict_changed: z.array(z.object({ target: z.string(), before: verdictKeySchema, after: verdictKeySchema })),
    /** nothing pending before, something pending after */
    appeared: z.array(z.string()),
    /** something pending before, nothing pending after */
    cleared: z.array(z.string()),
  }),
  executors: z.object({
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.object({ id: z.string(), before: executorStateSchema, after: executorStateSchema })),
  }),
  policies: z.object({ changed: z.array(z.string()) }),
  leader: z.object({ before: leaderSchema, after: leaderSchema, changed: z.boolean() }),
  shadow: z.object({ before: outcomeCountsSchema, after: outcomeCountsSchema }),
  counts: z.object({
    class_changed: z.number().int(),
    verdict_changed: z.number().int(),
    appeared: z.number().int(),
    cleared: z.number().int(),
    executors_added: z.number().int(),
    executors_removed: z.number().int(),
    executors_changed: z.number().int(),
    policies_changed: z.number().int(),
  }),
});
export type DiffResponse = z.infer<typeof diffResponseSchema>;
export type ExecutorState = z.infer<typeof executorStateSchema>;
