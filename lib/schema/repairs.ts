// RepairRecord — value of `P/repairs/<hex(target)>/<repaired_at_ms>` (§2.8).
import { z } from "zod";
import { TaskKindSchema } from "./kinds";
import { I64, U64 } from "./numbers";
import { parsePlain, type Parsed } from "./parse";

export const DroppedFragmentSchema = z.object({
  id: U64,
  physical_rows: U64.nullable().optional(),
  missing_files: z.array(z.string()).default([]),
});

export const RepairRecordSchema = z.object({
  target: z.string(),
  repaired_at_ms: I64,
  read_version: U64,
  committed_version: U64,
  triggered_by: TaskKindSchema,
  dropped: z.array(DroppedFragmentSchema).default([]),
});
export type RepairRecord = z.infer<typeof RepairRecordSchema>;

export function parseRepairRecord(value: string): Parsed<RepairRecord> {
  return parsePlain(RepairRecordSchema, value);
}
