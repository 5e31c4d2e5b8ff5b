// `P/merge-progress/<execution-id>` = `{sequence}` (THE liveness signal) and
// `P/merge-work/<execution-id>` = an arbitrary work report containing `sequence` (§1.2).
import { z } from "zod";
import { U64Schema } from "./numbers";
import { parsePlain, type Parsed } from "./parse";

const MergeProgressSchema = z.object({ sequence: U64Schema });
export type MergeProgress = z.infer<typeof MergeProgressSchema>;

/** Any JSON object with a `sequence`; every other field is kept as given. */
const MergeWorkReportSchema = z.looseObject({ sequence: U64Schema });
export type MergeWorkReport = z.infer<typeof MergeWorkReportSchema>;

export function parseMergeProgress(value: string): Parsed<MergeProgress> {
  return parsePlain(MergeProgressSchema, value);
}

export function parseMergeWorkReport(value: string): Parsed<MergeWorkReport> {
  return parsePlain(MergeWorkReportSchema, value);
}

/** The work report is shown only when its sequence equals the progress sequence (§7.1). */
export function matchingWorkReport(
  progress: MergeProgress | null,
  report: MergeWorkReport | null,
): MergeWorkReport | null {
  return progress !== null && report !== null && report.sequence === progress.sequence ? report : null;
}
