// Time in state in words (console-api.md "The decision journal", `time_in_state`): "4h 12m
// next cycle, 1h 30m write turn held, 18m placed" — the codes in the console's short words
// (lib/words/codes.ts), longest first as the API orders them. Shared by the table
// page's history and the command line's `history <table>`.
import type { HistoryResponse } from "@/lib/schema/api/history";
import { formatDuration } from "./format";
import { codeInWords } from "./codes";

export function stateInWords(state: string, code: string | null): string {
  if (state === "would_place") return "placed";
  if (state === "gone") return "not in the plan";
  if (state === "unknown") return "not known (a journal gap or before the first change)";
  if (state === "figures_only") return "no verdict re-planned (the table's own figures only)";
  return code === null ? "skipped" : codeInWords(code);
}

/** "4h 12m next cycle, 1h 30m write turn held, 18m placed" (null: an empty window). */
export function timeInStateWords(t: HistoryResponse["time_in_state"]): string | null {
  const shown = t.filter((s) => s.ms > 0);
  if (shown.length === 0) return null;
  return shown.map((s) => `${formatDuration(s.ms)} ${stateInWords(s.state, s.code)}`).join(", ");
}
