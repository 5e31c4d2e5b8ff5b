// GET /api/v1/scheduler/demand (list and ?target= detail), console-api.md.
import { z } from "zod";
import { BACKLOG_CLASSES, CLASS_NAMES } from "@/lib/schema/codes";
import {
  backlogClassSchema,
  booleanParamSchema,
  classNameSchema,
  classReasonSchema,
  whyNotCodeSchema,
  leaderSchema,
  limitParamSchema,
  nowMsParamSchema,
  nowChoiceParamSchema,
  repeatable,
  revisionParamSchema,
  skippedSummarySchema,
  snapshotMetaSchema,
  targetParamSchema,
} from "./common";
import { etaSchema, forecastSchema, positionSchema } from "./forecasts";

export const SORTS = ["planner", "pending", "wait", "score", "target", "position"] as const;

export const demandQuerySchema = z.object({
  target: targetParamSchema.optional(),
  limit: limitParamSchema,
  cursor: z.string().min(1).max(512).optional(),
  /** a `listing` from an earlier answer: answer only what changed since (the whole listing, unpaged) */
  since: z.string().min(1).max(512).optional(),
  include_idle: booleanParamSchema,
  class: repeatable(CLASS_NAMES),
  backlog: repeatable(BACKLOG_CLASSES),
  q: z.string().max(512).optional(),
  /** only tables whose verdict is this state: `would_place` lists the placements in planner order (issue 27) */
  verdict: z.enum(["would_place", "would_skip"]).optional(),
  sort: z
    .enum(SORTS)
    .optional()
    .transform((v) => v ?? "planner"),
  order: z.enum(["asc", "desc"]).optional(),
  revision: revisionParamSchema,
  now_ms: nowMsParamSchema,
  now: nowChoiceParamSchema,
});
export type DemandQuery = z.output<typeof demandQuerySchema>;

const ageBoundSchema = z.enum(["exact", "upper"]).nullable();

/** A unit score; an infinite one (repair with missing fragments) travels as "infinity". */
export const scoreSchema = z.union([z.number(), z.literal("infinity")]);

export const verdictSchema = z.discriminatedUnion("state", [
  z.object({
    state: z.literal("would_place"),
    executor: z.string(),
    reserved_bytes: z.number(),
    kind: z.string().optional(),
  }),
  z.object({ state: z.literal("would_skip"), code: whyNotCodeSchema, message: z.string() }),
]);

/** How the write-turn holder's merge-progress sequence moves (console-api.md "One answer"). */
const PROGRESS_STATES = ["advancing", "stalled", "unknown"] as const;

/** The unfinished execution holding the table's write turn, for the list. */
const executionSummarySchema = z.object({
  id: z.string(),
  phase: z.string(),
  endpoint: z.string(),
  progress: z.enum(PROGRESS_STATES),
  sequence: z.number().nullable(),
});

/**
 * The table's one write-turn holder (console-api.md fourth version, "One capacity, one write
 * turn"), named the same by every surface: an execution with its progress, an assignment
 * (assigned or bound, orphaned when its executor has no live heartbeat) with its bind
 * deadline, or the target lock of something else. `null`: nothing holds it.
 */
export const writeTurnHolderSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("execution"),
    execution_id: z.string(),
    executor: z.string(),
    endpoint: z.string(),
    phase: z.string(),
    progress: z.enum(PROGRESS_STATES),
    sequence: z.number().nullable(),
  }),
  z.object({
    type: z.literal("assignment"),
    unit_id: z.string(),
    kind: z.string(),
    executor: z.string(),
    state: z.string(),
    orphaned: z.boolean(),
    bind_deadline_ms: z.number(),
  }),
  z.object({ type: z.literal("lock"), value: z.string(), execution_id: z.string().nullable() }),
]);

/** 1-based rank among the candidates whose head unit has the same kind, in planner order. */

const tableSummarySchema = z.object({
  target: z.string(),
  class: classNameSchema,
  class_rank: z.number().int(),
  reason: classReasonSchema,
  score: scoreSchema,
  pending_generations: z.number(),
  pending_bytes: z.number(),
  oldest_pending_ms: z.number().nullable(),
  age_bound: ageBoundSchema,
  wait_ms: z.number().nullable(),
  shards: z.number().int(),
  backlog_class: backlogClassSchema,
  verdict: verdictSchema,
  execution: executionSummarySchema.nullable(),
  write_turn_holder: writeTurnHolderSchema.nullable(),
  position: positionSchema.nullable(),
  /** how far a record of this table is ahead of `now_ms` (clock skew), null when none is */
  clock_skew_ms: z.number().nullable(),
});
export type TableSummary = z.infer<typeof tableSummarySchema>;

const countSchema = z.number().int();
export const demandListSchema = snapshotMetaSchema.extend({
  now_ms: z.number().int(),
  leader: leaderSchema,
  total_tables: countSchema,
  tables_with_pending: countSchema,
  matched: countSchema,
  /** tables with a record timestamped after `now_ms` (clock skew between writers and the console) */
  clock_skew_tables: countSchema,
  counts: z.object({
    by_class: z.object(
      Object.fromEntries(CLASS_NAMES.map((c) => [c, countSchema])) as Record<
        (typeof CLASS_NAMES)[number],
        typeof countSchema
      >,
    ),
    by_backlog: z.object(
      Object.fromEntries(BACKLOG_CLASSES.map((c) => [c, countSchema])) as Record<
        (typeof BACKLOG_CLASSES)[number],
        typeof countSchema
      >,
    ),
  }),
  skipped: skippedSummarySchema,
  tables: z.array(tableSummarySchema),
  next_cursor: z.string().nullable(),
  /** names this listing (plan and filters) for a later `?since=` */
  listing: z.string(),
});
export type DemandList = z.infer<typeof demandListSchema>;

/** `[at, wait_ms, score, position.rank, position.of]`: a kept row whose moving fields changed. */
const demandPatchSchema = z.tuple([
  z.number().int(),
  z.number().nullable(),
  scoreSchema,
  z.number().int().nullable(),
  z.number().int().nullable(),
]);
export type DemandPatch = z.infer<typeof demandPatchSchema>;

/** `[from, to, by]`: the rank in line of each row at `from`…`to` (inclusive) moves by `by`. */
const demandShiftSchema = z.tuple([z.number().int(), z.number().int(), z.number().int()]);

/**
 * `?since=<listing>`: the whole listing (every page) as changes to the one named. The new
 * listing is the old one without `removed` and without the targets in `rows`, in its order,
 * with each of `rows` put at its index `at` (ascending); then each of `patches` sets the
 * wait, score and place in line (rank, of) of the row at its index, each of `shifts` moves
 * the rank of the rows in its range, and every row in line takes its kind's count in
 * `lines` as its `of`. `changes: null` when the old listing is no longer known here: read
 * the listing again.
 */
export const demandChangesSchema = demandListSchema.omit({ tables: true, next_cursor: true }).extend({
  changes: z
    .object({
      since: z.string(),
      rows: z.array(z.object({ at: z.number().int(), table: tableSummarySchema })),
      patches: z.array(demandPatchSchema),
      shifts: z.array(demandShiftSchema),
      /** candidates per head-unit kind: the `position.of` of every row in line of that kind */
      lines: z.record(z.string(), z.number().int()),
      removed: z.array(z.string()),
    })
    .nullable(),
});
export type DemandChanges = z.infer<typeof demandChangesSchema>;

/**
 * GET /api/v1/scheduler/demand/stream (issue 24): the live listing's changes, pushed as
 * Server-Sent Events, one `changes` event (a `demandChanges` body, `id:` its listing) per
 * plan step, shared by every open stream of the same filters and sort. `since` (or the
 * `Last-Event-ID` of a reconnect) names the listing the page holds; an event whose
 * `changes.since` is not the listing held, or `changes: null`, means read the listing again.
 * Live only: no `revision`, `now_ms`, `cursor` or `target`.
 */
export const demandStreamQuerySchema = demandQuerySchema
  .omit({ target: true, limit: true, cursor: true, revision: true, now_ms: true, now: true })
  .strict();
export type DemandStreamQuery = z.output<typeof demandStreamQuerySchema>;

const markSchema = z.object({ value: z.number(), epoch: z.number() });
const shardDetailSchema = z.object({
  shard: z.string(),
  sealed: markSchema,
  merged: markSchema.nullable(),
  sealed_bytes: z.number(),
  pending: z.number(),
  oldest_pending_ms: z.number().nullable(),
  age_bound: ageBoundSchema,
  sealed_times_kept: z.number().int(),
  source: z.string().nullable(),
  flushed_at_ms: z.number().nullable(),
  mod_revision: z.number().int().nullable(),
});

const scoreBreakdownSchema = z.object({
  by_generations: z.number(),
  by_bytes: z.number(),
  age_boost: z.number(),
  wait_exact_ms: z.number().nullable(),
  wait_floor_ms: z.number().nullable(),
  min_generations: z.number(),
  min_bytes: z.number(),
  max_age_secs: z.number(),
  critical_generations: z.number(),
  max_turn_wait_secs: z.number(),
});

const whyNotSchema = z.object({
  code: whyNotCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
  detail: z.unknown(),
  /** it was to clear by a deadline that has passed: it did not clear by itself (console-api.md "Forecasts …": deadlines) */
  overdue: z.object({ deadline_ms: z.number(), overdue_ms: z.number() }).optional(),
});
const unitSchema = z.object({
  kind: z.string(),
  class: z.string(),
  class_rank: z.number().int(),
  score: scoreSchema,
  reason: classReasonSchema,
  wait_ms: z.number().nullable(),
  /** why this unit was passed over (turn_limit, write turn, cooldown …), also when another unit of the table is placed */
  why_not: z.array(whyNotSchema),
});

// scheduler-model.md §7.1 merge-progress, read at the response's revision.
const PROGRESS_STATUSES = ["reported", "progress_details_unavailable", "progress_unknown", "no_active_record"] as const;
const mergeProgressSchema = z.object({
  status: z.enum(PROGRESS_STATUSES),
  task_id: z.string().nullable(),
  execution_id: z.string().nullable(),
  sequence: z.number().nullable(),
  work_report: z.unknown(),
  sequence_mod_revision: z.number().int().nullable(),
  unchanged_since_ms: z.number().nullable(),
  unchanged_for_ms: z.number().nullable(),
  idle_timeout_ms: z.number(),
  stalled: z.boolean(),
});

/** `P/target-locks/<hex>` in words: who holds the write turn and whether it lapses with a lease. */
const targetLockSchema = z.object({
  value: z.string(),
  holder: z.enum(["execution", "claim"]),
  /** the execution named by `merge-execution:<id>`, null for a claim token */
  execution_id: z.string().nullable(),
  /** true: a claim token on a lease (lapses with it); false: durable until released */
  leased: z.boolean(),
  mod_revision: z.number().int(),
});

/** `P/merge-executions/<hex>` with what the verdict concluded about it. */
const executionViewSchema = z.object({
  id: z.string(),
  target: z.string(),
  endpoint: z.string(),
  instance: z.string(),
  maintenance: z.string().nullable(),
  phase: z.string(),
  /** phase reserved, running, uncertain or recovering */
  unfinished: z.boolean(),
  /** the target lock names this execution */
  holds_lock: z.boolean(),
  timeout_secs: z.number(),
  queue_timeout_secs: z.number(),
  idle_timeout_secs: z.number(),
  reclaimed: z.boolean(),
  error: z.string().nullable(),
  protocol: z.number(),
  sequence: z.number().nullable(),
  progress: z.enum(PROGRESS_STATES),
  /**
   * the revision at which the merge-progress sequence last increased (no progress record: at
   * which the execution started), found in etcd's history; with `at_most`, the compaction's.
   * Null for an execution that no longer holds a write turn (only unfinished ones are walked).
   */
  last_progress_revision: z.number().int().nullable(),
  /** that revision's time on the revision clock, null when unknown */
  last_progress_ms: z.number().nullable(),
  /** `exact`, or `at_most` when the increase is older than etcd's compaction (console-api.md fourth version) */
  last_progress_bound: z.enum(["exact", "at_most"]).nullable(),
  /** max(0, now_ms − last_progress_ms) */
  no_progress_for_ms: z.number().nullable(),
  mod_revision: z.number().int(),
});

const legacyViewSchema = z.object({
  queued: z.boolean(),
  running: z.boolean(),
  task_ids: z.array(z.string()),
  cooldowns: z.array(z.record(z.string(), z.unknown())),
  failures: z.array(z.record(z.string(), z.unknown())),
  target_lock: targetLockSchema.nullable(),
  execution: executionViewSchema.nullable(),
  eligibility: z.object({ code: z.string(), message: z.string() }).nullable(),
  progress: mergeProgressSchema,
});

/** A record timestamped after `now_ms`: the wait is not silently 0 s. */
const clockSkewSchema = z.object({
  ahead_ms: z.number(),
  /** the newest timestamp of the table's records */
  newest_ms: z.number(),
  /** which record carries it: a demand flush, a task or a failure record */
  record: z.enum(["flush", "task", "failure"]),
  /** the oldest pending flush is itself in the future, so the wait shows 0 s */
  wait_clamped: z.boolean(),
  message: z.string(),
});

/** Which headroom the verdict used: the design planner leaves shadow rows out (§6.2 step 3). */
const HEADROOM_BASES = ["excluding_shadow", "including_shadow"] as const;
const headroomBasisSchema = z.object({ basis: z.enum(HEADROOM_BASES), message: z.string() });

/** "Which executor?" from every source that names one, and why they differ. */
const executorAgreementSchema = z.object({
  /** the design verdict's executor (null when it would skip) */
  verdict: z.string().nullable(),
  /** the console's §6.2 shadow pass (the master's rule) */
  console_shadow: z.string().nullable(),
  /** the master's recorded `state: shadow` row */
  master_shadow: z
    .object({ executor: z.string(), created_ms: z.number(), mod_revision: z.number().int().optional() })
    .nullable(),
  agree: z.boolean(),
  reasons: z.array(z.string()),
});

const tableDetailSchema = tableSummarySchema.extend({
  shards: z.array(shardDetailSchema),
  shard_count: z.number().int(),
  score_breakdown: scoreBreakdownSchema.nullable(),
  units: z.array(unitSchema),
  why_not: z.array(whyNotSchema),
  legacy: legacyViewSchema,
  cache: z.object({ observed_revision: z.number(), updated_ms: z.number(), agrees_with_fold: z.boolean() }).nullable(),
  policy: z.object({ effective: z.record(z.string(), z.unknown()), sources: z.record(z.string(), z.unknown()) }),
  /** the acting world's (`forecasts[0]`) */
  eta: etaSchema.nullable(),
  /** both worlds' forecasts, the acting one first (console-api.md "Forecasts, per world …") */
  forecasts: z.array(forecastSchema),
  clock_skew: clockSkewSchema.nullable(),
  headroom: headroomBasisSchema,
  executor_agreement: executorAgreementSchema,
});
export type TableDetail = z.infer<typeof tableDetailSchema>;

export const demandDetailSchema = snapshotMetaSchema.extend({
  now_ms: z.number().int(),
  leader: leaderSchema,
  table: tableDetailSchema,
});
export type DemandDetail = z.infer<typeof demandDetailSchema>;
