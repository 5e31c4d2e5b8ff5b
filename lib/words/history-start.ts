// A window or a diff side asked for before etcd's history (console-api.md "Time": a time
// before the oldest revision says so, with that revision and its time): the history page,
// /diff and the command line say it in one sentence.
import type { HistoryStart } from "../schema/api/revisions";
import { formatCount, formatDuration, formatTime } from "./format";

export function historyStartInWords(s: HistoryStart): string {
  const when =
    s.at_ms === null ? "" : ` (written ${formatTime(s.at_ms)}${s.error_ms ? ` ± ${formatDuration(s.error_ms)}` : ""})`;
  return `etcd's history starts at revision ${formatCount(s.revision)}${when}; ${formatTime(s.requested_ms)} is before it, so this starts there.`;
}
