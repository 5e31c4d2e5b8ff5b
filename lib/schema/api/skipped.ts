// GET /api/v1/scheduler/skipped: every record the snapshot could not use, console-api.md.
import { z } from "zod";
import { readQuerySchema, skipReasonSchema, snapshotMetaSchema } from "./common";

export const skippedQuerySchema = readQuerySchema;

const skippedRecordSchema = z.object({
  key: z.string(),
  family: z.string(),
  reason: skipReasonSchema,
  detail: z.string().nullable(),
});
export const skippedResponseSchema = snapshotMetaSchema.extend({ skipped: z.array(skippedRecordSchema) });
export type SkippedResponse = z.infer<typeof skippedResponseSchema>;
