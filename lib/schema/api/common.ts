// Shared pieces of the console API's zod schemas (console-api.md "Conventions").
// Query params arrive as strings: each schema coerces explicitly, so a bad value is a 400.
import { z } from "zod";
import { BACKLOG_CLASSES, CLASS_NAMES, CLASS_REASONS, REASON_CODES, SKIP_REASONS, WHY_NOT_CODES } from "../codes";

export const classNameSchema = z.enum(CLASS_NAMES);
export const backlogClassSchema = z.enum(BACKLOG_CLASSES);
/** why a table or unit is in its class (scheduler-model.md §4.1) */
export const classReasonSchema = z.enum(CLASS_REASONS);
/** a would-skip verdict's or a why-not entry's code (scheduler-model.md §5.6(f)) */
export const whyNotCodeSchema = z.enum(WHY_NOT_CODES);
/** what a due table holds in the reasons view: its skip code, or `placed` */
export const reasonCodeSchema = z.enum(REASON_CODES, { error: "a verdict code (see the contract's list) or placed" });
/** why a stored record was skipped (console-api.md `skipped`) */
export const skipReasonSchema = z.enum(SKIP_REASONS);

const digits = (what: string) => z.string().regex(/^\d+$/, `${what} must be a non-negative integer`);

/** `?revision=R`: a positive etcd revision (time travel). */
export const revisionParamSchema = digits("revision")
  .transform(Number)
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
  .optional();

/** `?now_ms=T`: the wall time the planner evaluates at (default: the server clock). */
export const nowMsParamSchema = z
  .string()
  .regex(/^-?\d+$/, "now_ms must be an integer (Unix milliseconds)")
  .transform(Number)
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
  .optional();

/** A target travels raw (URL-decoded by the query parser), 1..512 chars. */
export const targetParamSchema = z
  .string()
  .min(1, "target must not be empty")
  .max(512, "target is at most 512 characters");

/** `?flag=true|false|1|0`. */
export const booleanParamSchema = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** A repeatable enum parameter (`?class=a&class=b`) → array (empty when absent). */
export function repeatable<T extends readonly [string, ...string[]]>(values: T) {
  const one = z.enum(values);
  return z
    .union([one, z.array(one)])
    .optional()
    .transform((v): T[number][] => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
}

export const limitParamSchema = digits("limit")
  .transform(Number)
  .pipe(z.number().int().min(1).max(2000))
  .optional()
  .transform((v) => v ?? 100);

/**
 * `?min_revision=R` on any live read (read-your-writes after a save at R): the answer is at
 * R or later, waiting up to 5 s for it (lib/http/min-revision.ts); ignored when pinned.
 */
export const minRevisionQuerySchema = z.object({
  min_revision: digits("min_revision")
    .transform(Number)
    .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
    .optional(),
});

/** What every read endpoint accepts. */
/** `?now=server` on a pinned read: evaluate at the server clock, not the revision's time (console-api.md "Time"). */
export const nowChoiceParamSchema = z.enum(["server"]).optional();

export const readQuerySchema = z.object({
  revision: revisionParamSchema,
  now_ms: nowMsParamSchema,
  now: nowChoiceParamSchema,
});
export type ReadQuery = z.output<typeof readQuerySchema>;

export const leaderSchema = z.object({ token: z.string(), instance: z.string(), since_ms: z.number() }).nullable();
export const skippedSummarySchema = z.object({
  total: z.number().int(),
  by_reason: z.record(z.string(), z.number().int()),
});

/** console-api.md "Time": how a revision's wall time is known, and which clock a read ran at. */
export const REVISION_TIME_BASES = ["console_clock", "record_timestamps", "unknown"] as const;
export const NOW_BASES = ["revision_time", "request", "server_clock"] as const;
export const revisionTimeSchema = z.object({
  revision: z.number().int(),
  /** when the revision was written (null when nothing tells) */
  at_ms: z.number().int().nullable(),
  basis: z.enum(REVISION_TIME_BASES),
  /** how far off `at_ms` may be, either way */
  error_ms: z.number().int().nullable(),
});

/** Where a response's data came from: its revision, the cache that served it, the clock it ran at. */
export const snapshotMetaSchema = z.object({
  revision: z.number().int(),
  read_at_ms: z.number().int(),
  snapshot: z.object({ revision: z.number().int(), age_ms: z.number().int(), live: z.boolean(), pinned: z.boolean() }),
  now_basis: z.enum(NOW_BASES),
  /** a pinned revision's own time; null for live reads */
  revision_time: revisionTimeSchema.nullable(),
});

export const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.array(z.string()), code: z.string(), message: z.string() })).optional(),
    compact_revision: z.number().int().nullable().optional(),
    retry_after_ms: z.number().int().optional(),
    request_id: z.string().optional(),
  }),
});

/** An endpoint without query parameters: an unknown one is a 400, so a typo never passes silently. */
export const noQuerySchema = z.strictObject({});

/** The query of a path no route serves: not read (its answer is a 404, whatever it asks). */
export const unreadQuerySchema = z.object({});
