// GET /api/v1/scheduler/failures: merge failure ledger (read-time corrected, §9.1) and task
// cooldowns (§9.2), console-api.md.
import { z } from "zod";
import {
  nowMsParamSchema,
  nowChoiceParamSchema,
  revisionParamSchema,
  snapshotMetaSchema,
  targetParamSchema,
} from "./common";

export const failuresQuerySchema = z.object({
  revision: revisionParamSchema,
  now_ms: nowMsParamSchema,
  now: nowChoiceParamSchema,
  target: targetParamSchema.optional(),
  needs_attention: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true" || v === "1")),
});
export type FailuresQuery = z.output<typeof failuresQuerySchema>;

const failureRowSchema = z.object({
  target: z.string(),
  endpoint: z.string(),
  class: z.string(),
  stored_class: z.string(),
  consecutive_attempts: z.number().int(),
  needs_attention: z.boolean(),
  next_retry_ms: z.number(),
  last_failure_ms: z.number(),
  last_error: z.string(),
  corrected: z.boolean(),
  retry_in_ms: z.number(),
  /** the retry time passed and the record is still there: how long ago (null: not yet) */
  overdue_ms: z.number().nullable(),
});
export type FailureRow = z.infer<typeof failureRowSchema>;

const cooldownRowSchema = z.object({
  kind: z.string(),
  target: z.string(),
  failures: z.number().int(),
  until_ms: z.number().nullable(),
  cooling: z.boolean(),
  /** the cooldown's end passed and the record is still there (no success since): how long ago (null: not yet, or no window) */
  overdue_ms: z.number().nullable(),
  last_error: z.string(),
});
export type CooldownRow = z.infer<typeof cooldownRowSchema>;

export const failuresResponseSchema = snapshotMetaSchema.extend({
  now_ms: z.number().int(),
  failures: z.array(failureRowSchema),
  cooldowns: z.array(cooldownRowSchema),
});
export type FailuresResponse = z.infer<typeof failuresResponseSchema>;
