// `scheduler-console history <table>`: one table's transitions over a window and its time
// in each state (console-api.md "Time" and "The decision journal"), as the table page's
// history says them.
import { formatCount, formatTime } from "../words/format";
import { historyStartInWords } from "../words/history-start";
import { movedByInWords } from "../words/moved-by";
import { stateInWords, timeInStateWords } from "../words/time-in-state";
import type { HistoryResponse } from "../schema/api/history";
import { columns } from "./text";

const BASIS_WORDS: Record<HistoryResponse["verdict_basis"], string> = {
  journal: "every point from the decision journal",
  fleet_plan: "points re-planned with the whole fleet where the journal does not cover the window",
  figures_only:
    "some points with the table's own figures only, without a verdict (more changes than one request plans whole)",
};

export function historyText(h: HistoryResponse): string {
  const verdict = (p: HistoryResponse["points"][number]) =>
    p.journal?.gone
      ? "not in the plan"
      : p.verdict === null
        ? stateInWords("figures_only", null)
        : `${stateInWords(p.verdict.state, p.verdict.code)}${p.executor === null ? "" : ` on ${p.executor}`}`;
  const table = columns(h.points, [
    { title: "TIME (UTC)", cell: (p) => (p.at_ms === null ? "unknown" : formatTime(p.at_ms)) },
    { title: "REVISION", cell: (p) => formatCount(p.revision), align: "right" },
    { title: "CLASS", cell: (p) => p.class },
    { title: "VERDICT", cell: verdict },
    { title: "MOVED BY", cell: (p) => movedByInWords(p.moved_by) ?? "not known" },
    { title: "BASIS", cell: (p) => p.basis },
  ]);
  return [
    `History of ${h.target} from ${formatTime(h.from_ms)} to ${formatTime(h.to_ms)}: ${formatCount(h.points.length)} change${h.points.length === 1 ? "" : "s"} (${BASIS_WORDS[h.verdict_basis]})`,
    ...(h.points.length > 0 ? [table] : []),
    ...(h.history_starts !== null ? [historyStartInWords(h.history_starts)] : []),
    `Time in state: ${timeInStateWords(h.time_in_state) ?? "an empty window"}`,
    ...(h.compacted_before !== null
      ? [`History before revision ${formatCount(h.compacted_before)} is compacted.`]
      : []),
  ].join("\n");
}
