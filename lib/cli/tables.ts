// `scheduler-console tables`: the /tables list in planner order (or the API's sort), with the
// page's columns and words (lib/words/columns.ts, lib/words/codes.ts).
import { classLabel, positionLabel, verdictLabel } from "../words/codes";
import { cliTitle } from "../words/columns";
import { formatBytes, formatCount, formatScore, waitText } from "../words/format";
import type { DemandList } from "../client/api-types";
import { columns } from "./text";

export function tablesText(list: DemandList): string {
  const header = `${formatCount(list.tables.length)} of ${formatCount(list.matched ?? list.tables.length)} matching tables (revision ${list.revision}; ${formatCount(list.total_tables)} tables, ${formatCount(list.tables_with_pending)} with pending)`;
  if (list.tables.length === 0) return `${header}\nNo table matches.`;
  const body = columns(list.tables, [
    { title: cliTitle("target"), cell: (t) => t.target },
    { title: cliTitle("class"), cell: (t) => classLabel(t.class) },
    { title: cliTitle("position"), cell: (t) => positionLabel(t.position), align: "right" },
    { title: cliTitle("pending"), cell: (t) => formatCount(t.pending_generations), align: "right" },
    { title: cliTitle("bytes"), cell: (t) => formatBytes(t.pending_bytes), align: "right" },
    { title: cliTitle("wait"), cell: (t) => waitText(t.wait_ms, t.age_bound), align: "right" },
    { title: cliTitle("score"), cell: (t) => formatScore(t.score), align: "right" },
    { title: cliTitle("backlog"), cell: (t) => t.backlog_class },
    { title: cliTitle("verdict"), cell: (t) => verdictLabel(t.verdict) },
  ]);
  const bounded = list.tables.some((t) => t.age_bound === "upper")
    ? "\nA wait marked ≥ is a lower bound: the exact flush time was pruned."
    : "";
  const more = list.next_cursor ? "\nMore tables follow: raise --limit (up to 2000)." : "";
  return `${header}\n${body}${bounded}${more}`;
}
