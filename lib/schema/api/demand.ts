// GET /api/v1/scheduler/demand (list and ?target= detail), console-api.md.
import { z } from "zod";
import {
  BACKLOG_CLASSES, CLASS_NAMES, backlogClass, booleanParam, className, leader, limitParam, nowMsParam, nowChoiceParam,
  repeatable, revisionParam, skippedSummary, snapshotMeta, targetParam,
} from "./common";

export const SORTS = ["planner", "pending", "wait", "score", "target"] as const;

export const demandQuery = z.object({
  target: targetParam.optional(),
  limit: limitParam,
  cursor: z.string().min(1).max(512).optional(),
  include_idle: booleanParam,
  class: repeatable(CLASS_NAMES),
  backlog: repeatable(BACKLOG_CLASSES),
  q: z.string().max(512).optional(),
  sort: z.enum(SORTS).optional().transform((v) => v ?? "planner"),
  order: z.enum(["asc", "desc"]).optional(),
  revision: revisionParam,
  now_ms: nowMsParam,
  now: nowChoiceParam,
});
export type DemandQuery = z.output<typeof demandQuery>;

export const ageBound = z.enum(["exact", "upper"]).nullable();

/** A unit score; an infinite one (repair with missing fragments) travels as "infinity". */
export const score = z.union([z.number(), z.literal("infinity")]);

export const verdict = z.discriminatedUnion("state", [
  z.object({ state: z.literal("would_place"), executor: z.string(), reserved_bytes: z.number(), kind: z.string().optional() }),
  z.object({ state: z.literal("would_skip"), code: z.string(), message: z.string() }),
]);

export const tableSummary = z.object({
  target: z.string(),
  class: className,
  class_rank: z.number().int(),
  reason: z.string(),
  score,
  pending_generations: z.number(),
  pending_bytes: z.number(),
  oldest_pending_ms: z.number().nullable(),
  age_bound: ageBound,
  wait_ms: z.number().nullable(),
  shards: z.number().int(),
  backlog_class: backlogClass,
  verdict,
});
export type TableSummary = z.infer<typeof tableSummary>;

const count = z.number().int();
export const demandList = snapshotMeta.extend({
  now_ms: z.number().int(),
  leader,
  total_tables: count,
  tables_with_pending: count,
  matched: count,
  counts: z.object({
    by_class: z.object(Object.fromEntries(CLASS_NAMES.map((c) => [c, count])) as Record<(typeof CLASS_NAMES)[number], typeof count>),
    by_backlog: z.object(Object.fromEntries(BACKLOG_CLASSES.map((c) => [c, count])) as Record<(typeof BACKLOG_CLASSES)[number], typeof count>),
  }),
  skipped: skippedSummary,
  tables: z.array(tableSummary),
  next_cursor: z.string().nullable(),
});
export type DemandList = z.infer<typeof demandList>;

const mark = z.object({ value: z.number(), epoch: z.number() });
export const shardDetail = z.object({
  shard: z.string(),
  sealed: mark,
  merged: mark.nullable(),
  sealed_bytes: z.number(),
  pending: z.number(),
  oldest_pending_ms: z.number().nullable(),
  age_bound: ageBound,
  sealed_times_kept: z.number().int(),
  source: z.string().nullable(),
  flushed_at_ms: z.number().nullable(),
  mod_revision: z.number().int().nullable(),
});

export const scoreBreakdown = z.object({
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

export const whyNot = z.object({ code: z.string(), message: z.string(), retryable: z.boolean(), detail: z.unknown() });
export const unit = z.object({ kind: z.string(), class: z.string(), class_rank: z.number().int(), score, reason: z.string(), wait_ms: z.number().nullable() });

// scheduler-model.md §7.1 merge-progress, read at the response's revision.
export const PROGRESS_STATUSES = ["reported", "progress_details_unavailable", "progress_unknown", "no_active_record"] as const;
export const mergeProgress = z.object({
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

export const legacyView = z.object({
  queued: z.boolean(),
  running: z.boolean(),
  task_ids: z.array(z.string()),
  cooldowns: z.array(z.record(z.string(), z.unknown())),
  failures: z.array(z.record(z.string(), z.unknown())),
  target_lock: z.unknown(),
  execution: z.unknown(),
  eligibility: z.object({ code: z.string(), message: z.string() }).nullable(),
  progress: mergeProgress,
});

export const tableDetail = tableSummary.extend({
  shards: z.array(shardDetail),
  shard_count: z.number().int(),
  score_breakdown: scoreBreakdown.nullable(),
  units: z.array(unit),
  why_not: z.array(whyNot),
  legacy: legacyView,
  cache: z.object({ observed_revision: z.number(), updated_ms: z.number(), agrees_with_fold: z.boolean() }).nullable(),
  policy: z.object({ effective: z.record(z.string(), z.unknown()), sources: z.record(z.string(), z.unknown()) }),
});
export type TableDetail = z.infer<typeof tableDetail>;

export const demandDetail = snapshotMeta.extend({ now_ms: z.number().int(), leader, table: tableDetail });
export type DemandDetail = z.infer<typeof demandDetail>;
