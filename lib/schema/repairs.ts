// RepairRecord — value of `P/repairs/<hex(target)>/<repaired_at_ms>` (§2.8).
import { z } from "zod";
import { TaskKindSchema } from "./kinds";
import { I64Schema, U64Schema } from "./numbers";

const DroppedFragmentSchema = z.object({
  id: U64Schema,
  physical_rows: U64Schema.nullable().optional(),
  missing_files: z.array(z.string()).default([]),
});

/** @public the record family of §2.8 (its type below), which no page reads yet */
export const RepairRecordSchema = z.object({
  target: z.string(),
  repaired_at_ms: I64Schema,
  read_version: U64Schema,
  committed_version: U64Schema,
  triggered_by: TaskKindSchema,
  dropped: z.array(DroppedFragmentSchema).default([]),
});
/** @public the record family of §2.8, which no page reads yet */
export type RepairRecord = z.infer<typeof RepairRecordSchema>;
