// GET /api/v1/scheduler/executors (console-api.md; headroom per scheduler-model.md §5.2).
import { z } from "zod";
import { readQuerySchema, snapshotMetaSchema } from "./common";

export const executorsQuerySchema = readQuerySchema;

const slotsSchema = z.record(z.string(), z.number());

/**
 * One headroom of one kind, with its named parts (console-api.md fourth version, "One
 * capacity, one write turn"): `free = max(0, total − reserved)` is what every verdict uses.
 */
const slotHeadroomSchema = z.object({
  total: z.number().int(),
  /** live, non-released, non-shadow assignments (what the master counts, §5.2) */
  reserved: z.number().int(),
  /** the master's last shadow rows: its next pass replaces them, so they are not counted (§6.2 step 3) */
  shadow: z.number().int(),
  /** max(0, total − reserved): what every verdict uses */
  free: z.number().int(),
  /** unfinished executions running here outside any assignment: P1's planner does not count them */
  legacy_running: z.number().int(),
});
export type SlotHeadroom = z.infer<typeof slotHeadroomSchema>;

/** The byte headroom in the same parts (`total` 0: no byte budget, never byte-checked, §5.2). */
const byteHeadroomSchema = z.object({
  total: z.number(),
  reserved: z.number(),
  shadow: z.number(),
  free: z.number(),
});
export type ByteHeadroom = z.infer<typeof byteHeadroomSchema>;

/** An unfinished `merge-executions/` record running on the executor (console-api.md "One answer, as of its moment"). */
const executorExecutionSchema = z.object({
  execution_id: z.string(),
  target: z.string(),
  /** the execution's kind: its `maintenance` kind, else merge_wal */
  kind: z.string(),
  phase: z.string(),
  /** the write turn's progress as the verdict judges it (§7.1): advancing, stalled or unknown */
  progress: z.enum(["advancing", "stalled", "unknown"]),
  /** the `merge-progress/` sequence, null when none is reported */
  sequence: z.number().nullable(),
});
export type ExecutorExecution = z.infer<typeof executorExecutionSchema>;
const executorRowSchema = z.object({
  id: z.string(),
  kind: z.string(),
  instance: z.string().nullable(),
  version: z.string().nullable(),
  kinds: z.array(z.string()),
  /** the master's fold (§5.2): an orphan row is draining too */
  draining: z.boolean(),
  /** assignments point at it but it has no live heartbeat; pages say "orphan" */
  orphan: z.boolean(),
  heartbeat_ms: z.number().nullable(),
  /** now_ms − heartbeat_ms (never negative), null without a heartbeat */
  heartbeat_age_ms: z.number().nullable(),
  executions: z.array(executorExecutionSchema),
  slots_total: slotsSchema,
  slots_reserved: slotsSchema,
  slots_free: slotsSchema,
  bytes_total: z.number(),
  bytes_reserved: z.number(),
  bytes_free: z.number(),
  bytes_free_sample: z.number().nullable(),
  assignments: z.number().int(),
  /** the design planner's headroom: the master's shadow rows left out (§6.2 step 3) */
  slots_reserved_excluding_shadow: slotsSchema,
  slots_free_excluding_shadow: slotsSchema,
  bytes_reserved_excluding_shadow: z.number(),
  bytes_free_excluding_shadow: z.number(),
  shadow_assignments: z.number().int(),
  /** max(0, bytes_reserved − bytes_total) when bytes_total > 0, else 0 */
  overcommitted_bytes: z.number(),
  /** the one headroom per kind: what the verdict uses, with its parts (the flat fields above count shadow rows) */
  slots: z.record(z.string(), slotHeadroomSchema),
  bytes: byteHeadroomSchema,
});
export type ExecutorRow = z.infer<typeof executorRowSchema>;

export const executorsResponseSchema = snapshotMetaSchema.extend({
  /** the moment every relative time of this answer counts from */
  now_ms: z.number().int(),
  executors: z.array(executorRowSchema),
  totals: z.object({
    executors: z.number().int(),
    /** live (heartbeating) executors that drain; orphans are counted apart */
    draining: z.number().int(),
    orphans: z.number().int(),
    /** executors with bytes_total = 0 (no byte check): left out of the byte totals */
    unbudgeted: z.number().int(),
    slots_free: slotsSchema,
    /** over budgeted, live, non-draining executors */
    bytes_free: z.number(),
    bytes_free_excluding_shadow: z.number(),
    bytes_total: z.number(),
    overcommitted: z.number().int(),
    /** `slots` summed over live executors that accept work (not draining, not orphan) */
    slots: z.record(z.string(), slotHeadroomSchema),
    /** `bytes` summed over live, accepting executors with a byte budget */
    bytes: byteHeadroomSchema,
  }),
});
export type ExecutorsResponse = z.infer<typeof executorsResponseSchema>;
