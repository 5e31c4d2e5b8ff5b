// `scheduler-console tables`: the /tables list in planner order (or the API's sort).
import { codeInWords } from "../words/codes";
import { formatBytes, formatCount, formatScore, waitText } from "../words/format";
import type { DemandList, TableSummary } from "../client/api-types";
import { columns } from "./text";

const verdict = (t: TableSummary) =>
  t.verdict.state === "would_place"
    ? `place on ${t.verdict.executor} (${formatBytes(t.verdict.reserved_bytes)})`
    : `skip: ${codeInWords(t.verdict.code)} [${t.verdict.code}]`;

export function tablesText(list: DemandList): string {
  const header = `${formatCount(list.tables.length)} of ${formatCount(list.matched ?? list.tables.length)} matching tables (revision ${list.revision}; ${formatCount(list.total_tables)} tables, ${formatCount(list.tables_with_pending)} with pending)`;
  if (list.tables.length === 0) return `${header}\nNo table matches.`;
  const body = columns(list.tables, [
    { title: "TARGET", cell: (t) => t.target },
    { title: "CLASS", cell: (t) => t.class },
    { title: "PENDING", cell: (t) => formatCount(t.pending_generations), align: "right" },
    { title: "BYTES", cell: (t) => formatBytes(t.pending_bytes), align: "right" },
    { title: "WAIT", cell: (t) => waitText(t.wait_ms, t.age_bound), align: "right" },
    { title: "SCORE", cell: (t) => formatScore(t.score), align: "right" },
    { title: "BACKLOG", cell: (t) => t.backlog_class },
    { title: "VERDICT", cell: verdict },
  ]);
  const bounded = list.tables.some((t) => t.age_bound === "upper")
    ? "\nA wait marked ≥ is a lower bound: the exact flush time was pruned."
    : "";
  const more = list.next_cursor ? "\nMore tables follow: raise --limit (up to 2000)." : "";
  return `${header}\n${body}${bounded}${more}`;
}
