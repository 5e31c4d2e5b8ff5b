// Heartbeat — value of `P/executors/<executor-id>` (§2.4). The executor id is the key
// suffix (raw); `instance` is informational. Only `v == 1` records are kept (§2: a `v: 0`
// heartbeat is ignored); an absent `v` is read as 1 (our choice, see parse.ts).
import { z } from "zod";
import { TaskKindSchema } from "./kinds";
import { I64Schema, U32Schema, U64Schema } from "./numbers";
import { parseVersioned, type Parsed } from "./parse";

const EXECUTOR_KINDS = ["resident_master", "worker", "catchup_job", "legacy_rpc"] as const;
const ExecutorKindSchema = z.enum(EXECUTOR_KINDS);
export type ExecutorKind = z.infer<typeof ExecutorKindSchema>;

/** TaskKind → count; missing kinds mean 0 (§2.6). */
export const SlotMapSchema = z.partialRecord(TaskKindSchema, U32Schema);
export type SlotMap = z.infer<typeof SlotMapSchema>;

const HeartbeatSchema = z.object({
  v: U32Schema.default(1),
  kind: ExecutorKindSchema,
  instance: z.string(),
  version: z.string().default(""),
  kinds: z.array(TaskKindSchema).default([]),
  slots_total: SlotMapSchema.default({}),
  /** 0 = unknown/unbounded: no byte check (§2.4) */
  bytes_total: U64Schema.default(0),
  /** diagnostic only; NEVER used for placement */
  bytes_free_sample: U64Schema.default(0),
  draining: z.boolean().default(false),
  heartbeat_ms: I64Schema,
});
export type Heartbeat = z.infer<typeof HeartbeatSchema>;

export function parseHeartbeat(value: string): Parsed<Heartbeat> {
  return parseVersioned(HeartbeatSchema, value, "strict");
}
