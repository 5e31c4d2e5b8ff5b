// console-api.md "Additions (third version)", "The decision journal":
// GET /api/v1/journal/coverage — what the journal covers, its size and its gaps.
import { z } from "zod";
import { noQuerySchema } from "./common";

const GAP_REASONS = ["no_sampler", "etcd_unavailable", "trimmed"] as const;

export const journalCoverageQuerySchema = noQuerySchema;

const journalGapSchema = z.object({
  from_ms: z.number().int(),
  to_ms: z.number().int(),
  reason: z.enum(GAP_REASONS),
});

export const journalCoverageSchema = z.object({
  /** the first moment kept (null: nothing journalled yet) */
  from_ms: z.number().int().nullable(),
  /** the last evaluation written */
  to_ms: z.number().int().nullable(),
  /** entries stored (a checkpoint's restated entries included) */
  entries: z.number().int().nonnegative(),
  /** compressed bytes stored */
  bytes: z.number().int().nonnegative(),
  retention_ms: z.number().int().positive(),
  gaps: z.array(journalGapSchema),
});
export type JournalCoverageResponse = z.infer<typeof journalCoverageSchema>;
