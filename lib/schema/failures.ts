// ShardFailure — value of `P/merge-failures/<hex(target)>/<hex(endpoint)>` (§2.8, §9.1).
// The durable retry budget per (target, endpoint). No `v`.
import { z } from "zod";
import { U32Schema, U64Schema } from "./numbers";
import { parsePlain, type Parsed } from "./parse";

const FAILURE_CLASSES = ["retryable", "deadline", "data_or_configuration", "ownership_unresolved"] as const;
const FailureClassSchema = z.enum(FAILURE_CLASSES);
export type FailureClass = z.infer<typeof FailureClassSchema>;

const ShardFailureSchema = z.object({
  target: z.string(),
  /** worker URL or `master:compact` / `master:index_id` / `master:repair` */
  endpoint: z.string(),
  consecutive_attempts: U32Schema,
  class: FailureClassSchema,
  last_error: z.string().default(""),
  last_failure_ms: U64Schema,
  next_retry_ms: U64Schema,
  needs_attention: z.boolean().default(false),
});
export type ShardFailure = z.infer<typeof ShardFailureSchema>;

export function parseShardFailure(value: string): Parsed<ShardFailure> {
  return parsePlain(ShardFailureSchema, value);
}
