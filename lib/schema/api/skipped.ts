// GET /api/v1/scheduler/skipped: every record the snapshot could not use, console-api.md.
import { z } from "zod";
import { readQuery, snapshotMeta } from "./common";

export const skippedQuery = readQuery;

export const skippedRecord = z.object({ key: z.string(), family: z.string(), reason: z.string(), detail: z.string().nullable() });
export const skippedResponse = snapshotMeta.extend({ skipped: z.array(skippedRecord) });
export type SkippedResponse = z.infer<typeof skippedResponse>;
