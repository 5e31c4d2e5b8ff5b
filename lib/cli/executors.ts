// `scheduler-console executors`: the /executors page's rows, headroom from assignments (§5.2).
import { formatBytes, formatCount, formatDuration, formatTime, slotsText } from "../words/format";
import type { Executor, ExecutorsResponse } from "../client/api-types";
import { columns, countOf } from "./text";

const state = (e: Executor) => (e.orphan ? "orphan" : e.draining ? "draining" : "live");
// one slot notation everywhere (lib/words): "merge_wal 1/4 used · 3 free"
const slots = (e: Executor) =>
  Object.keys(e.slots_total).length === 0 && Object.keys(e.slots_free).length === 0
    ? "—"
    : Object.entries(e.slots_free)
        .map(([kind, free]) => `${kind} ${slotsText(e.slots_reserved[kind] ?? 0, e.slots_total[kind] ?? 0, free)}`)
        .join(", ");
const running = (e: Executor) =>
  e.executions.length === 0
    ? "—"
    : e.executions
        .map((x) => `${x.execution_id} ${x.target} (${x.progress === "stalled" ? "stalled" : x.phase})`)
        .join(", ");
const bytes = (e: Executor) =>
  e.bytes_total === 0
    ? e.orphan
      ? "—"
      : "no budget"
    : `${formatBytes(e.bytes_free)} of ${formatBytes(e.bytes_total)}`;

/** Relative times count from the answer's `now_ms` (console-api.md "One answer, as of its moment"). */
export function executorsText(r: ExecutorsResponse): string {
  const t = r.totals;
  const free =
    Object.entries(t.slots_free)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(", ") || "none";
  const header = `${countOf(t.executors, "executor")} (${formatCount(t.draining)} draining), ${countOf(t.orphans, "orphan")}; free slots: ${free}; free bytes ${formatBytes(t.bytes_free)} (revision ${r.revision}, as of ${formatTime(r.now_ms)})`;
  if (r.executors.length === 0) return `${header}\nNo executor has a heartbeat or an assignment.`;
  const body = columns(r.executors, [
    { title: "ID", cell: (e) => e.id },
    { title: "KIND", cell: (e) => e.kind },
    { title: "STATE", cell: state },
    { title: "FREE SLOTS", cell: slots },
    { title: "FREE BYTES", cell: bytes },
    { title: "ASSIGNMENTS", cell: (e) => formatCount(e.assignments), align: "right" },
    {
      title: "HEARTBEAT",
      cell: (e) => (e.heartbeat_age_ms === null ? "none" : `${formatDuration(e.heartbeat_age_ms)} ago`),
    },
    { title: "RUNNING", cell: running },
  ]);
  return `${header}\n${body}`;
}
