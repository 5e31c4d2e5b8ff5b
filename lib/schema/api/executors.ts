// GET /api/v1/scheduler/executors (console-api.md; headroom per scheduler-model.md §5.2).
import { z } from "zod";
import { readQuery, snapshotMeta } from "./common";

export const executorsQuery = readQuery;

const slots = z.record(z.string(), z.number());
export const executorRow = z.object({
  id: z.string(),
  kind: z.string(),
  instance: z.string().nullable(),
  version: z.string().nullable(),
  kinds: z.array(z.string()),
  draining: z.boolean(),
  /** assignments point at it but it has no live heartbeat (never also "draining") */
  orphan: z.boolean(),
  heartbeat_ms: z.number().nullable(),
  slots_total: slots,
  slots_reserved: slots,
  slots_free: slots,
  bytes_total: z.number(),
  bytes_reserved: z.number(),
  bytes_free: z.number(),
  bytes_free_sample: z.number().nullable(),
  assignments: z.number().int(),
  /** the design planner's headroom: the master's shadow rows left out (§6.2 step 3) */
  slots_reserved_excluding_shadow: slots,
  slots_free_excluding_shadow: slots,
  bytes_reserved_excluding_shadow: z.number(),
  bytes_free_excluding_shadow: z.number(),
  shadow_assignments: z.number().int(),
  /** max(0, bytes_reserved − bytes_total) when bytes_total > 0, else 0 */
  overcommitted_bytes: z.number(),
});
export type ExecutorRow = z.infer<typeof executorRow>;

export const executorsResponse = snapshotMeta.extend({
  executors: z.array(executorRow),
  totals: z.object({
    executors: z.number().int(),
    draining: z.number().int(),
    orphans: z.number().int(),
    /** executors with bytes_total = 0 (no byte check): left out of the byte totals */
    unbudgeted: z.number().int(),
    slots_free: slots,
    /** over budgeted, live, non-draining executors */
    bytes_free: z.number(),
    bytes_free_excluding_shadow: z.number(),
    bytes_total: z.number(),
    overcommitted: z.number().int(),
  }),
});
export type ExecutorsResponse = z.infer<typeof executorsResponse>;
