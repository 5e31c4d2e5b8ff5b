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
});
export type ExecutorRow = z.infer<typeof executorRow>;

export const executorsResponse = snapshotMeta.extend({
  executors: z.array(executorRow),
  totals: z.object({ executors: z.number().int(), draining: z.number().int(), orphans: z.number().int(), slots_free: slots, bytes_free: z.number() }),
});
export type ExecutorsResponse = z.infer<typeof executorsResponse>;
