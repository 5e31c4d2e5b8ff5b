// A running execution's write-turn progress in words (console-api.md "One answer on every
// page"; fourth version: its last progress is found in etcd's history, `exact`, or `at_most`
// the compaction's time when older than it). Durations count from the answer's `now_ms`.
import type { TableDetail } from "../schema/api/demand";
import { formatDuration } from "./format";

type Progress = Pick<
  NonNullable<TableDetail["legacy"]["execution"]>,
  "progress" | "sequence" | "no_progress_for_ms" | "idle_timeout_secs" | "last_progress_bound"
>;

/** "advanced 12s ago" / "no progress for 41m 00s (idle timeout 10m 00s)" / "progress unknown: …". */
export function progressInWords(e: Progress): string {
  const timeout = `idle timeout ${formatDuration(e.idle_timeout_secs * 1000)}`;
  const quiet = e.no_progress_for_ms;
  const atLeast = e.last_progress_bound === "at_most" ? "at least " : "";
  if (e.progress === "stalled") return `no progress for ${atLeast}${formatDuration(quiet)} (${timeout})`;
  if (e.progress === "advancing")
    return quiet === null ? `advancing (${timeout})` : `advanced ${formatDuration(quiet)} ago (${timeout})`;
  const why =
    quiet === null
      ? "when it last advanced is not known (its revision cannot be dated)"
      : e.sequence === null
        ? `no progress reported yet, ${formatDuration(quiet)} since it started`
        : `its last increase is older than etcd's compacted history, at least ${formatDuration(quiet)} ago`;
  return `progress unknown: ${why} (${timeout}); unknown never counts as progress`;
}
